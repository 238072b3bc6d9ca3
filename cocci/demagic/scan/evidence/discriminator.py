# SPDX-License-Identifier: GPL-2.0
"""A type discriminator: constants that tag different structs, compared in one place.

When one function compares the same pointer's field with two constants, and
the constants are stored into fields of two different structs, the value
tells the two types apart (the memory is either one or the other): code
depends on it, and every constant of the set is kept.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Dict, List, Sequence, Set, Tuple

from demagic.model.candidate import Candidate, Finding, Site

if TYPE_CHECKING:
    from demagic.scan.evidence import Context


def _norm(expr: str) -> str:
    return re.sub(r"\s+", "", expr)


def gather(ctx: "Context", cands: Sequence[Candidate]) -> None:
    """discriminator: for each candidate compared beside a constant of another struct."""
    by_macro: Dict[str, List[Candidate]] = {}
    for c in cands:
        by_macro.setdefault(c.macro, []).append(c)
    places: Dict[Tuple[str, str, str], Dict[str, Site]] = {}
    for r in ctx.records:
        if r.what == "check" and r.func:
            places.setdefault((r.file, r.func, _norm(r.expr)), {}).setdefault(r.const, r.site())
    for (rel, line, const), head in ctx.found.switches.items():
        expr = re.sub(r"\s*(?:->|\.)\s*\w+$", "", head)
        func = next((s.function for c in by_macro.get(const, []) for s in c.checks
                     if (s.file, s.line) == (rel, line)), "")
        places.setdefault((rel, func, _norm(expr)), {}).setdefault(const, Site(rel, line, func))
    for (rel, func, expr), consts in places.items():
        if len(consts) < 2:
            continue
        tagged = {m: {c.struct for c in by_macro.get(m, []) if c.struct} for m in consts}
        structs: Set[str] = set().union(*tagged.values())
        if len(structs) < 2:
            continue
        names = sorted(consts)
        for m in names:
            for c in by_macro.get(m, []):
                others = [o for o in names if o != m]
                what = (f"{func}() compares {expr}'s {c.field} with {m} and "
                        f"{', '.join(others)}: the value tells struct "
                        f"{' from struct '.join(sorted(structs))} apart")
                c.evidence.discriminator.append(Finding(consts[m], what))
