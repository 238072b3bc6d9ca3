# SPDX-License-Identifier: GPL-2.0
"""Unit tests of the boot suite: no kernel, QEMU or root needed."""

import sys
from pathlib import Path

_COCCI = str(Path(__file__).resolve().parents[2] / "cocci")
if _COCCI not in sys.path:
    sys.path.insert(0, _COCCI)
