# SPDX-License-Identifier: GPL-2.0
"""Whether the checks are compiled at all: an #ifdef that nothing in the tree defines; and
whether the field itself exists only for a debugging option (CONFIG_*DEBUG*)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import TYPE_CHECKING, Dict, Iterable, Sequence, Set

from demagic.kernel.grep import Grep
from demagic.kernel.source import guards_at
from demagic.model.candidate import Candidate, SiteKind

if TYPE_CHECKING:
    from demagic.scan.evidence import Context


def never_defined(grep: Grep, symbols: Iterable[str], dirs: Sequence[str]) -> Set[str]:
    """The symbols that no #define or -D flag in dirs (and include/) defines."""
    syms = sorted({s for s in symbols if re.fullmatch(r"[A-Za-z_]\w*", s)
                   and not s.startswith(("CONFIG_", "__"))})
    if not syms:
        return set()
    pats = [a for s in syms for a in ("-e", s)]
    where = sorted({d for d in dirs if d} | {"include"})
    out = grep.tree(["-h", "-F", *pats], ["*.[chS]", "*Makefile*", "*Kbuild*"], where)
    rx = re.compile(r"(?:#\s*define\s+|-D)(%s)\b" % "|".join(syms))
    defined = {m.group(1) for m in rx.finditer(out)}
    return set(syms) - defined


def gather(ctx: "Context", cands: Sequence["Candidate"]) -> None:
    """guard: the symbol whose #ifdef encloses every check, when nothing defines it."""
    texts = ctx.texts
    guard_syms: Dict[int, Set[str]] = {}
    for c in cands:
        real = [s for s in c.checks if s.kind is not SiteKind.TRUTH]
        if not real:
            continue
        common = set(guards_at(texts.lines(real[0].file), real[0].line))
        for s in real[1:]:
            common &= set(guards_at(texts.lines(s.file), s.line))
        guard_syms[id(c)] = {g for g in common if not g.startswith("!")}
    guarded = [c for c in cands if guard_syms.get(id(c))]
    dead = never_defined(ctx.texts.grep, {g for gs in guard_syms.values() for g in gs},
                         [str(Path(s.file).parent) for c in guarded for s in c.checks + c.sets]
                         + [str(Path(c.header).parent) for c in guarded if c.header])
    for c in cands:
        g = sorted(guard_syms.get(id(c), set()) & dead)
        if g:
            c.evidence.guard = g[0]
        c.evidence.debug_option = debug_option(ctx, c)


DEBUG_OPTION_RX = re.compile(r"^CONFIG_\w*DEBUG\w*$")


def debug_option(ctx: "Context", c: "Candidate") -> str:
    """The debugging switch whose #ifdef encloses the field's declaration ("" if none): a
    CONFIG_*DEBUG* option, or a symbol of the code's own that nothing in the tree defines
    (#undef KEY_DEBUGGING, for whoever debugs it to turn on by hand).  The field, and its
    checks, exist for that switch alone.  A symbol the code defines itself (#define DEBUG
    above the struct) switches nothing off, and is no such switch."""
    if not c.header or not c.evidence.struct_line or not c.field:
        return ""
    lines = ctx.texts.lines(c.header)
    decl = re.compile(rf"[\s*]{re.escape(c.field)}\s*(?:\[[^\]]*\]\s*)*(?::\s*\w+\s*)?;")
    depth = 0
    for no in range(c.evidence.struct_line, min(len(lines), c.evidence.struct_line + 400) + 1):
        text = lines[no - 1]
        depth += text.count("{") - text.count("}")
        if decl.search(text):
            guards = [g for g in guards_at(lines, no) if not g.startswith("!")]
            options = [g for g in guards if DEBUG_OPTION_RX.match(g)]
            dirs = [str(Path(c.header).parent)] + [str(Path(x.file).parent) for x in c.sets]
            return (options or sorted(never_defined(ctx.texts.grep, guards, dirs)) or [""])[0]
        if depth <= 0 and "}" in text:
            break
    return ""
