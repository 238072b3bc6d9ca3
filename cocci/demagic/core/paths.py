# SPDX-License-Identifier: GPL-2.0
"""Where demagic's own files are: the repository, and build/ (or $DEMAGIC_BUILD)."""

from __future__ import annotations

import os
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[3]
COCCI = REPO_ROOT / "cocci"          # the rules, subject-prefixes and this package
BUILD = Path(os.environ.get("DEMAGIC_BUILD", REPO_ROOT / "build"))
