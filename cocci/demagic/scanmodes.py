# SPDX-License-Identifier: GPL-2.0
"""coccicheck's other modes for make scan: MODE=patch prints the diff make spatch would
apply for each remove or flag verdict; MODE=context prints the lines each candidate
sets and checks, marked with *, in context."""

from __future__ import annotations

from pathlib import Path
from typing import Dict, List, Sequence

from demagic import rewrite, series
from demagic.model import Candidate, Site, Verdict
from demagic.proc import Progress, run
from demagic.rewrite import ResidueError
from demagic.texts import Texts

CONTEXT = 2


def context(cands: Sequence[Candidate], texts: Texts) -> str:
    """Each candidate's sets and checks, * marked, with CONTEXT lines around them."""
    out: List[str] = []
    for c in cands:
        sites = sorted({(s.file, s.line) for s in c.sets + c.checks})
        if not sites:
            continue
        out.append(f"// {c.macro}: {c.verdict.value}: {c.reason}")
        by_file: Dict[str, List[int]] = {}
        for rel, line in sites:
            by_file.setdefault(rel, []).append(line)
        for rel, lines in by_file.items():
            text = texts.lines(rel)
            out += [f"--- {rel}", f"+++ {rel}"]
            for lo, hi in _hunks(lines, len(text)):
                out.append(f"@@ -{lo},{hi - lo + 1} +{lo},{hi - lo + 1} @@")
                out += [("*" if n in lines else " ") + text[n - 1] for n in range(lo, hi + 1)]
    return "\n".join(out) + ("\n" if out else "")


def _hunks(lines: Sequence[int], size: int) -> List[tuple]:
    spans: List[List[int]] = []
    for n in sorted(set(lines)):
        lo, hi = max(1, n - CONTEXT), min(size, n + CONTEXT)
        if spans and lo <= spans[-1][1] + 1:
            spans[-1][1] = max(spans[-1][1], hi)
        else:
            spans.append([lo, hi])
    return [tuple(s) for s in spans]


def patch(cands: Sequence[Candidate], work: Path, jobs: int, progress: Progress) -> str:
    """The diff of each remove or flag verdict, made in work (a git worktree) and undone."""
    out: List[str] = []
    for macros, group in series.group([c for c in cands
                                       if c.verdict in (Verdict.REMOVE, Verdict.FLAG)]):
        target = series._target(macros, group)
        name = "/".join(macros)
        progress.step(f"{name}: {group[0].verdict.value}")
        try:
            result = rewrite.apply(work, target, jobs)
            note = "; ".join(result.manual)
            diff = run(["git", "-C", str(work), "diff"]).stdout if not note else ""
        except ResidueError as exc:
            diff, note = "", str(exc)
        run(["git", "-C", str(work), "checkout", "-q", "--", "."])
        out.append(f"// {name}: {group[0].verdict.value}: {group[0].reason}")
        out.append(diff.rstrip("\n") if diff else f"// {name}: needs a manual fix: {note}")
    return "\n".join(out) + ("\n" if out else "")
