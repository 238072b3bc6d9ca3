# SPDX-License-Identifier: GPL-2.0
"""python3 -m qemu: see qemu.cli."""

import sys

from qemu.cli import main

sys.exit(main(sys.argv[1:]))
