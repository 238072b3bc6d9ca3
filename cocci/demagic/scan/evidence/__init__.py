# SPDX-License-Identifier: GPL-2.0
"""The evidence the judge reads, one module per kind.

Each module has gather(ctx, cands), which fills its own fields of each
candidate's Evidence (model.py) from the tree's text and the rule's records.
A new kind of evidence is a new module here, its field in Evidence, one line
in EXTRACTORS, and the judge's rule for it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Dict, List, Sequence, Tuple

from demagic.scan.candidates import Found, key_of
from demagic.scan.discover import Record, Unparsed
from demagic.model.candidate import Candidate, Site
from demagic.core.proc import Progress
from demagic.scan.structs import Struct
from demagic.kernel.source import Texts


@dataclass
class Context:
    """What every extractor may read."""
    root: Path
    texts: Texts
    records: List[Record]
    files: List[str]                 # the files that name MAGIC (or the macros asked for)
    found: Found
    unparsed: List[Unparsed] = field(default_factory=list)

    def bases(self, c: Candidate) -> List[Tuple[Site, str, str]]:
        return self.found.bases.get(key_of(c), [])

    def struct(self, c: Candidate) -> "Struct | None":
        return self.found.found.get(key_of(c))

    def col(self, c: Candidate, site: Site) -> int:
        return self.found.cols.get((site.file, site.line, c.macro), -1)

    def mentions(self, c: Candidate) -> List[str]:
        """The files of the scan that name the constant."""
        if c.local and c.define:
            return [c.define.file]
        return self.texts.magic_index(self.files).get(c.macro, [])


Extractor = Callable[[Context, Sequence[Candidate]], None]


def extractors() -> List[Tuple[str, Extractor]]:
    """In order: later ones may read what earlier ones found."""
    from demagic.scan.evidence import (discriminator, exposure, formats, guards, memory,
                                       offsets, parsing, provenance, published, reads, shapes,
                                       slots, states, switches, testcode, warrants)
    return [("formats", formats.gather), ("guards", guards.gather), ("offsets", offsets.gather),
            ("states", states.gather), ("switches", switches.gather), ("shapes", shapes.gather),
            ("discriminator", discriminator.gather), ("provenance", provenance.gather),
            ("exposure", exposure.gather), ("slots", slots.gather),
            ("testcode", testcode.gather), ("reads", reads.gather), ("memory", memory.gather),
            ("published", published.gather), ("parsing", parsing.gather),
            ("warrants", warrants.gather)]


def gather(ctx: Context, cands: Sequence[Candidate], progress: Progress) -> Dict[str, float]:
    """Every kind of evidence for each candidate; seconds per extractor."""
    import time
    spent: Dict[str, float] = {}
    for name, fn in extractors():
        start = time.monotonic()
        fn(ctx, cands)
        spent[name] = time.monotonic() - start
    progress.step(f"evidence for {len(cands)} candidates")
    for c in cands:
        c.other_uses = sorted({s for s in c.evidence.user_copy + c.evidence.sized_record
                               + c.evidence.asm_users + c.evidence.bitwise
                               + c.evidence.userspace_users},
                              key=lambda s: (s.file, s.line))
    return spent
