# SPDX-License-Identifier: GPL-2.0
"""Whether the checks are compiled at all: an #ifdef that nothing in the tree defines; and
whether the field itself exists only for a debugging option (CONFIG_*DEBUG*), or for a
switch of the code's own that nothing turns on, which can go with it (switch())."""

from __future__ import annotations

import re
from pathlib import Path
from typing import TYPE_CHECKING, Dict, Iterable, List, Sequence, Set, Tuple

from demagic.kernel.grep import Grep
from demagic.kernel.source import call_alone, function_name_at, guards_at
from demagic.model.candidate import Candidate, Finding, Site, SiteKind

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
        if c.evidence.debug_option and not c.evidence.debug_option.startswith("CONFIG_"):
            switch(ctx, c, c.evidence.debug_option)


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


COND = re.compile(r"^\s*#\s*(if|ifdef|ifndef|elif|else|endif)\b")
NOOP_BODY = re.compile(r"^(?:do\s*\{\s*\}\s*while\s*\(\s*0\s*\)|\(\s*\(\s*void\s*\)\s*0\s*\)|)$")
MACRO_DEF = re.compile(r"^\s*#\s*define\s+(\w+)(\([^)]*\))?\s*(.*?)\s*$")
FUNC_DEF = re.compile(r"^[A-Za-z_][\w\s\*]*?\b(\w+)\s*\([^;]*$")


def branches(lines: Sequence[str], open_no: int) -> Tuple[int, int, bool]:
    """(#else line or 0, #endif line, whether an #elif splits it) of the conditional
    opened at open_no (1-based lines)."""
    depth, mid, elif_ = 0, 0, False
    for no in range(open_no + 1, len(lines) + 1):
        m = COND.match(lines[no - 1])
        if not m:
            continue
        what = m.group(1)
        if what in ("if", "ifdef", "ifndef"):
            depth += 1
        elif what == "endif":
            if depth == 0:
                return mid, no, elif_
            depth -= 1
        elif depth == 0 and not mid:
            mid, elif_ = no, what == "elif"
    return mid, len(lines), elif_


def _logical(lines: Sequence[str], no: int) -> str:
    """The logical line at no, backslash continuations joined."""
    out = []
    while no <= len(lines):
        text = lines[no - 1].rstrip()
        out.append(text.rstrip("\\"))
        if not text.endswith("\\"):
            break
        no += 1
    return " ".join(out)


def _what(lines: Sequence[str], ctx: "Context", rel: str, open_no: int, end: int) -> str:
    """A reader's name for the code between open_no and end: the functions it defines,
    else the function it sits in, else its first line."""
    defs = []
    for no in range(open_no + 1, end):
        m = FUNC_DEF.match(lines[no - 1])
        if m and not lines[no - 1].rstrip().endswith(";"):
            defs.append(m.group(1) + "()")
    if defs:
        return "defines " + ", ".join(dict.fromkeys(defs))
    inside = function_name_at(ctx.texts, rel, open_no)
    if inside:
        return f"in {inside}()"
    first = next((lines[no - 1].strip() for no in range(open_no + 1, end)
                  if lines[no - 1].strip()), "")
    return first


def touches_magic(code: str, c: "Candidate") -> bool:
    """code names the constant, reads or writes the field, or declares it."""
    return bool(re.search(rf"\b{re.escape(c.macro)}\b|(?:->|\.)\s*{re.escape(c.field)}\b"
                          rf"|\b{re.escape(c.field)}\s*(?:\[[^\]]*\]\s*)?;", code))


def switch(ctx: "Context", c: "Candidate", sym: str) -> None:
    """A switch of the code's own (#undef KEY_DEBUGGING) under which the field exists: it
    goes with the field when nothing in the tree defines or names it other than as
    #ifdef sym / #undef sym, every block it compiles is about the magic, and each macro
    its #else branches leave as a no-op is called only as a statement of its own."""
    ev = c.evidence
    grep = ctx.texts.grep
    blockers: List[Finding] = []
    regions: List[Tuple[str, int, int, int]] = []      # file, open, else, endif
    for rel, no, text in grep.word_lines([sym]):
        site = Site(rel, no)
        if not rel.endswith((".c", ".h")):
            blockers.append(Finding(site, f"{rel} names {sym}"))
        elif "/uapi/" in f"/{rel}":
            blockers.append(Finding(site, f"user-space ABI header {rel} tests {sym}"))
        elif re.match(rf"^\s*#\s*undef\s+{sym}\s*(?:/\*.*\*/)?\s*$", text):
            ev.switch_off.append(site)
        elif re.match(rf"^\s*#\s*(?:ifdef\s+{sym}|if\s+defined\s*\(\s*{sym}\s*\))"
                      r"\s*(?:/\*.*\*/)?\s*$", text):
            lines = ctx.texts.lines(rel)
            mid, end, split = branches(lines, site.line)
            if split:
                blockers.append(Finding(site, f"#elif after #ifdef {sym}"))
            regions.append((rel, site.line, mid, end))
        elif re.match(r"^\s*#\s*(?:else|endif)\b", text):
            continue            # the symbol in a comment after #else or #endif
        else:
            blockers.append(Finding(site, text.strip()))
    noops: Dict[str, Site] = {}
    inside: Dict[str, List[Tuple[int, int]]] = {}
    for rel, open_no, mid, end in regions:
        lines = ctx.texts.lines(rel)
        inside.setdefault(rel, []).append((open_no, mid or end))
        dead = "\n".join(lines[open_no:(mid or end) - 1])
        site = Site(rel, open_no)
        if not touches_magic(dead, c):
            blockers.append(Finding(site, f"#ifdef {sym} also compiles code that is not the "
                                          f"magic's ({_what(lines, ctx, rel, open_no, mid or end)})"))
            continue
        decl = re.search(rf"^\s*[\w\s\*]+\b{re.escape(c.field)}\s*(?:\[[^\]]*\]\s*)?;", dead,
                         re.M)
        what = (f"in struct {c.struct}" if decl and rel == c.header and c.struct
                else _what(lines, ctx, rel, open_no, mid or end))
        ev.switch_code.append(Finding(site, what))
        for no in range(mid + 1, end) if mid else ():
            m = MACRO_DEF.match(_logical(lines, no))
            if m and m.group(2) is not None and NOOP_BODY.match(m.group(3)):
                noops.setdefault(m.group(1), Site(rel, no))
    ev.switch_noops = [Finding(s, name) for name, s in noops.items()]
    for rel, no, text in grep.word_lines(list(noops)) if noops else []:
        if not rel.endswith((".c", ".h")) or any(a < no < b for a, b in inside.get(rel, [])):
            continue
        for name, def_site in noops.items():
            if (rel, no) == (def_site.file, def_site.line) or \
                    not re.search(rf"\b{re.escape(name)}\b", text):
                continue
            if call_alone(ctx.texts.lines(rel), no, name):
                ev.switch_calls.append(Site(rel, no, function_name_at(ctx.texts, rel, no)))
            else:
                blockers.append(Finding(Site(rel, no), f"{name} is used where its call cannot "
                                                        f"simply go: {text.strip()}"))
    if not regions:
        blockers.append(Finding(Site("", 0), f"no #ifdef {sym} block the scan can read"))
    ev.switch_blockers = blockers
