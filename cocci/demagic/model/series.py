# SPDX-License-Identifier: GPL-2.0
"""A series: a git format-patch directory, read once.

verify, the boot suite, check-mail and the cover letter's reports all start
from one Series: its numbered patches parsed (model/patches.py), the files
they touch, the tree its cover letter says it was made for, and the digest
that tells reports made for it from reports made for another.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import List, Optional, Set, Tuple

from demagic.core.errors import UsageError
from demagic.model.patches import Patch, parse_series, series_digest

COVER = "0000-cover-letter.patch"
# what the cover letter says the series was made for: Debian's linux-source-X.Y
MADE_FOR_RX = re.compile(r"\blinux-source-(\d+\.\d+)\b")


@dataclass(frozen=True)
class Series:
    """The patches of a format-patch directory, parsed, and what it says of itself."""
    path: Path                   # the directory
    patches: Tuple[Patch, ...]   # the numbered patches, in order, cover letter excluded
    cover: Optional[Path]        # the cover letter, when there is one
    made_for: str                # "linux-6.12" when the cover letter names linux-source-6.12

    @staticmethod
    def load(path: Path) -> "Series":
        """The series in path; UsageError when it is not a directory of patches."""
        if not path.is_dir():
            raise UsageError(f"SERIES={path}: no such directory")
        numbered = sorted(p for p in path.glob("[0-9][0-9][0-9][0-9]-*.patch")
                          if not p.name.startswith("0000-"))
        if not numbered:
            raise UsageError(f"SERIES={path}: no numbered patches")
        cover = path / COVER
        made_for = ""
        if cover.is_file():
            m = MADE_FOR_RX.search(cover.read_text(errors="replace"))
            made_for = f"linux-{m.group(1)}" if m else ""
        return Series(path, tuple(parse_series(numbered)), cover if cover.is_file() else None,
                      made_for)

    @property
    def paths(self) -> List[Path]:
        """The numbered patch files, in order."""
        return [p.path for p in self.patches]

    @property
    def mails(self) -> List[Path]:
        """Every mail of the series: the cover letter first, then the patches."""
        return ([self.cover] if self.cover else []) + self.paths

    @property
    def digest(self) -> str:
        """What the series changes (see patches.series_digest): the key of its reports."""
        return series_digest(self.paths)

    def touched(self) -> Set[str]:
        """Every file a patch of the series changes."""
        return {f for p in self.patches for f in p.paths()}
