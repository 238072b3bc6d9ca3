# SPDX-License-Identifier: GPL-2.0
"""Hand-written offset macros of the struct's header, and the assembly that uses them."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Dict, Iterable, List, Sequence

from demagic.model.candidate import Candidate, Site, SiteKind
from demagic.kernel.offsets import offset_macros
from demagic.kernel.source import Texts, guards_at

if TYPE_CHECKING:
    from demagic.scan.evidence import Context

def offset_macros_of(texts: Texts, c: Candidate, members: List[str]) -> Dict[str, str]:
    """Hand-written offset macros of the struct's header, macro -> member."""
    if not c.header or not members:
        return {}
    return {m.name: m.member for m in offset_macros(texts.text(c.header), members)}


def asm_context(texts: Texts, rel: str, line: int) -> bool:
    """line of rel is assembly: a .S file, __ASSEMBLY__ code, or an assembler macro file."""
    if rel.endswith(".S"):
        return True
    lines = texts.lines(rel)
    if any(re.match(r"\s*\.macro\b", l) for l in lines):
        return True
    return "__ASSEMBLY__" in " ".join(s for s in guards_at(lines, line) if not s.startswith("!"))


def asm_users(texts: Texts, names: Iterable[str],
              defs: Dict[str, str]) -> List[Site]:
    """Uses of the offset macros names outside their #define, in assembly code."""
    names = sorted(set(names))
    if not names:
        return []
    found = texts.grep.tree(["-nwE", "|".join(names)], ["*.[chS]"], ["arch", "include"])
    out = []
    for line in found.splitlines():
        f, n, text = line.split(":", 2)
        if re.match(r"\s*#\s*define\s+(%s)\b" % "|".join(names), text):
            continue
        if asm_context(texts, f, int(n)):
            out.append(Site(f, int(n), "", SiteKind.ASM))
    return out


def gather(ctx: "Context", cands: Sequence[Candidate]) -> None:
    """offset_macros of each struct's header, and asm_users of the ones that move."""
    texts = ctx.texts
    offsets: Dict[str, str] = {}
    for c in cands:
        s = ctx.struct(c)
        om = offset_macros_of(texts, c, s.members() if s is not None else [])
        if om:
            c.evidence.offset_macros = om
            offsets.update(om)
    users = asm_users(texts, offsets, offsets)
    for c in cands:
        om = c.evidence.offset_macros
        if om:
            rx = re.compile(r"\b(%s)\b" % "|".join(om))
            c.evidence.asm_users = [s for s in users if rx.search(texts.lines(s.file)[s.line - 1])]
