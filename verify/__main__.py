# SPDX-License-Identifier: GPL-2.0
"""python3 -m verify: see verify.cli."""

import sys

from verify.cli import main

sys.exit(main())
