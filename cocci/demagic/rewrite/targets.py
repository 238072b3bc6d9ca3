# SPDX-License-Identifier: GPL-2.0
"""Targets from judged candidates: the constants that share a field make one."""

from __future__ import annotations

from typing import Dict, List, Sequence, Tuple

from demagic.core.prose import and_list
from demagic.judge.verdicts import retired_switch
from demagic.model.candidate import Candidate, SiteKind, Verdict
from demagic.model.target import Target


def group(cands: Sequence[Candidate]) -> List[Tuple[Tuple[str, ...], List[Candidate]]]:
    """Macros that share a struct and field make one patch, in first-seen order."""
    out: Dict[Tuple[str, str, str, str], List[Candidate]] = {}
    for c in cands:
        key = (c.struct, c.field, c.header, c.verdict.value) if c.verdict is not Verdict.KEEP \
            else (c.macro, "", "", "keep")
        out.setdefault(key, []).append(c)
    return [(tuple(c.macro for c in cs), cs) for cs in out.values()]


def flag_comment(c: Candidate) -> str:
    """What a flag says, for the comment of its declaration: where it is set and cleared."""
    ones = [s for s in c.sets] + [s for s in c.evidence.flag_sets if s.kind is SiteKind.SET]
    zeros = [s for s in c.evidence.flag_sets if s.kind is SiteKind.CLEAR]
    if not ones or not zeros:
        return ""
    return f"set in {and_list(s.where for s in ones)}, cleared in {and_list(s.where for s in zeros)}"


def target_of(macros: Tuple[str, ...], cands: Sequence[Candidate]) -> Target:
    """The target of a group of candidates (see group)."""
    c = cands[0]
    retired = retired_switch(c)
    return Target(macros, c.struct, c.field, c.header, c.verdict,
                  c.evidence.flag_name or c.field, flag_comment(c),
                  c.verdict is Verdict.REMOVE and any(m.evidence.other_mentions for m in cands),
                  c.define.file if c.define else "",
                  c.evidence.debug_option if retired else "",
                  tuple(f.what for f in c.evidence.switch_noops) if retired else ())
