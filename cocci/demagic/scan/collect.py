# SPDX-License-Identifier: GPL-2.0
"""Find the magic numbers of a kernel tree and gather their evidence.

discover.py picks the files and runs find_magic.cocci over them;
candidates.py turns its report into one candidate per constant; the modules
of evidence/ read the tree for what the judge needs; judge.py gives the
verdicts (demagic.judge.scans runs both).  A whole-tree scan leaves out the
host programs of tools/ and scripts/.  Code spatch cannot parse is listed,
never skipped in silence.
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Dict, List, Optional, Sequence

from demagic.scan import candidates, discover, evidence
from demagic.scan.discover import Unparsed
from demagic.model.candidate import Candidate
from demagic.core.proc import Progress
from demagic.core.errors import UsageError
from demagic.scan.structs import find_define
from demagic.kernel.grep import Grep
from demagic.kernel.source import Texts


@dataclass
class Stats:
    """What one scan did: for the summary and the benchmark."""
    listed: int = 0      # files that name MAGIC (or the macros asked for)
    parsed: int = 0      # files handed to spatch after the prefilter
    seconds: float = 0.0


@dataclass
class Scan:
    """The candidates of a tree, judged, and what spatch could not parse."""
    cands: List[Candidate]
    unparsed: List[Unparsed] = field(default_factory=list)
    stats: Stats = field(default_factory=Stats)


def collect(root: Path, subdir: Optional[str] = None, macros: Optional[List[str]] = None,
            jobs: int = os.cpu_count() or 1, progress: Optional[Progress] = None,
            grep: Optional[Grep] = None) -> Scan:
    """Every magic number of root (or only macros, in that order), with its evidence;
    a whole scan in the order the tree finds them (by_place sorts them).  grep: how
    root is grepped (default: as it is)."""
    start = time.monotonic()
    progress = progress or Progress(quiet=True)
    root = Path(root)
    if not (root / "Makefile").is_file():
        raise UsageError(f"KDIR={root}: not a kernel tree (no top Makefile)")
    grep = grep or Grep(root)
    magic_files = discover.list_files(grep, subdir, macros)
    texts = Texts(root, grep)
    files = discover.prefilter(magic_files, texts, every=macros is not None)
    stats = Stats(len(magic_files), len(files))
    progress.step(f"prefilter: {len(files)} of {len(magic_files)} files with MAGIC to parse")
    report = discover.run_rule(root, files, jobs, progress)
    found = candidates.build(texts, report.records, magic_files)
    if macros is not None:
        by_name: Dict[str, List[Candidate]] = {}
        for c in found.cands.values():
            by_name.setdefault(c.macro, []).append(c)
        for m in macros:
            if m not in by_name and find_define(texts, magic_files, m) is not None:
                by_name[m] = [Candidate(m, "", None, "", "", "")]
        wanted = [c for m in macros for c in by_name.get(m, [])]
        chosen = _with_mates(wanted, list(found.cands.values()))
    else:
        chosen = [c for c in found.cands.values() if c.sets]
    candidates.mark_groups(chosen)
    ctx = evidence.Context(root, texts, report.records, magic_files, found, report.unparsed)
    _defines(ctx, chosen)
    evidence.gather(ctx, chosen, progress)
    stats.seconds = time.monotonic() - start
    return Scan(chosen, sorted(report.unparsed, key=lambda u: (u.file, u.first)), stats)


def _with_mates(wanted: List[Candidate], every: List[Candidate]) -> List[Candidate]:
    """The candidates asked for and those sharing their field (a value written when
    the object dies goes with the one checked while it lives)."""
    out = list(wanted)
    for c in wanted:
        for o in every:
            if o not in out and c.struct and (o.header, o.struct, o.field) == \
                    (c.header, c.struct, c.field) and o.sets:
                out.append(o)
    return out


def _defines(ctx: evidence.Context, cands: Sequence[Candidate]) -> None:
    """Where each constant is #defined, and its value."""
    from demagic.scan.structs import _search_files
    index = ctx.texts.magic_index(ctx.files)
    for c in cands:
        if c.local and c.sets:
            near = [c.sets[0].file]
        else:
            near = [s.file for s in c.sets + c.checks]
            near += [i for f in dict.fromkeys(near) for i in _search_files(ctx.texts, f)]
            near += index.get(c.macro, [])
        found = find_define(ctx.texts, list(dict.fromkeys(near)), c.macro)
        if found:
            c.define, c.value = found


def by_place(cands: List[Candidate]) -> None:
    """A whole scan's candidates sorted by the file that defines each, then by name."""
    cands.sort(key=lambda c: (c.define.file if c.define else c.header, c.macro))
