# SPDX-License-Identifier: GPL-2.0
"""Which magic numbers make the series: TARGETS=, the registry's rows, or every verdict."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import List, Optional, Sequence

from demagic.core.errors import UsageError
from demagic.core.proc import Progress
from demagic.judge import scans
from demagic.kernel import registry, tree as trees
from demagic.model.candidate import Candidate, Verdict
from demagic.scan.collect import Scan

SCOPES = ("registry", "all")


@dataclass
class Plan:
    """What a series is made of: the candidates in order, and what is left out."""
    cands: List[Candidate]
    review: List[Candidate]
    whole: Scan          # the scan of the tree (or M=), written beside the series
    scope: str


def default_scope(tree: trees.Tree) -> str:
    """The registry's own tree reproduces the 2022 series; any other gets everything."""
    return "registry" if tree.name == trees.DEFAULT_NAME and tree.debian else "all"


def plan(tree: trees.Tree, work: Path, targets: Sequence[str], subdir: Optional[str],
         jobs: int, progress: Progress, scope: str) -> Plan:
    """Scan the tree and choose the series: TARGETS=, or the registry's rows (scope
    registry), or those and every other remove or flag verdict (scope all)."""
    progress.step(f"scanning {tree.name}" + (f"/{subdir}" if subdir else ""))
    whole = scans.cached(tree.base, work, subdir, None, jobs, progress)
    rows = [e.macro for e in registry.entries(work)]
    wanted = list(targets) or rows
    named: List[Candidate] = []
    if wanted:
        progress.step(f"judging {len(wanted)} named magic numbers")
        named = scans.cached(tree.base, work, subdir, wanted, jobs, progress).cands
    if targets:
        missing = [t for t in targets if t not in {c.macro for c in named}]
        if missing and len(missing) == len(targets):
            raise UsageError(f"TARGETS: {', '.join(missing)} not found in {tree.name}")
        for gone in missing:
            progress.step(f"{gone}: not in {tree.name} (already gone?)")
        return Plan([c for c in named if c.verdict is not Verdict.REVIEW],
                    [c for c in named if c.verdict is Verdict.REVIEW], whole, scope)
    order = {m: i for i, m in enumerate(rows)}
    cands = sorted(named + _gone(rows, named), key=lambda c: order[c.macro])
    review = [c for c in cands if c.verdict is Verdict.REVIEW]
    cands = [c for c in cands if c.verdict is not Verdict.REVIEW]
    if scope == "all":
        known = {c.macro for c in cands}
        cands += [c for c in whole.cands if c.macro not in known
                  and c.verdict in (Verdict.REMOVE, Verdict.FLAG)]
        review += [c for c in whole.cands if c.macro not in known and c.verdict is Verdict.REVIEW]
    return Plan(cands, review, whole, scope)


def _gone(macros: Sequence[str], cands: Sequence[Candidate]) -> List[Candidate]:
    """Registry rows whose macro the code no longer has: doc-only entries."""
    have = {c.macro for c in cands}
    return [Candidate(m, "", None, "", "", "", verdict=Verdict.KEEP,
                      reason="it is no longer defined anywhere in the tree")
            for m in macros if m not in have]
