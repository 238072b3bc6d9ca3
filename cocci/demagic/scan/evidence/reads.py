# SPDX-License-Identifier: GPL-2.0
"""Reads of the field other than the checks: a write-only field has none.

Only candidates that no format or ABI evidence keeps are looked at.

A read is `x->FIELD` or `x.FIELD`, outside the sets, the checks (the whole
statement of each), and the other stores, where x is declared in that file
as the candidate's struct (or its typedef), in any file that names the
struct.  A read inside a message is "printed"; &x->FIELD is "passed by address" (to
code that may read or write it); any other is "read".  Code under
the #ifdef that nothing defines, which already makes the checks dead
(guards.py), is never compiled: what it names is no read.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Dict, List, Sequence, Set, Tuple

from demagic.scan.evidence.errorpaths import message_call
from demagic.scan.evidence.formats import format_reason
from demagic.model.candidate import Candidate, Finding, Site, SiteKind
from demagic.kernel.source import Texts, enclosing_call, guards_at

if TYPE_CHECKING:
    from demagic.scan.evidence import Context


def _declared(code: str, names: Sequence[str]) -> Set[str]:
    """Variables (and members) code declares as one of the struct names, or a pointer to it."""
    alts = "|".join(rf"struct\s+{re.escape(n)}" if i == 0 else re.escape(n)
                    for i, n in enumerate(names) if n)
    out = set(re.findall(rf"\b(?:{alts})\s*(?:const\s*)?\**\s*(?:const\s+)?(\w+)\s*[;,=)\[]", code))
    out |= set(re.findall(rf"(\w+)\s*=\s*container_of\([^,]+,\s*(?:{alts})\s*,", code))
    return out


def files_naming(ctx: "Context", tags: Sequence[str], typedefs: Sequence[str]) -> Dict[str, Set[str]]:
    """name -> the .c/.h files that name `struct tag` or the typedef (one grep for all)."""
    tagged, plain = {t for t in tags if t}, {t for t in typedefs if t}
    out: Dict[str, Set[str]] = {n: set() for n in tagged | plain}
    if not out:
        return out
    found = ctx.texts.grep.words(sorted(out), ["*.c", "*.h"], options=["-n"])
    rx = re.compile(r"\b(struct\s+)?(%s)\b" % "|".join(re.escape(n) for n in sorted(out)))
    for line in found.splitlines():
        path, _sep, rest = line.partition(":")
        for m in rx.finditer(rest):
            if (m.group(1) and m.group(2) in tagged) or m.group(2) in plain:
                out[m.group(2)].add(path)
    return out


# Calls that write to a buffer, a file or user space, not to the kernel log: what they
# print leaves the kernel.
OUTPUT_RX = re.compile(r"^(?:seq_\w+|v?s\w*printf|sysfs_emit\w*|trace_\w+|\w*_show)$")


def log_call(name: str) -> bool:
    """name prints to the kernel log (or warns): a read there goes nowhere else."""
    return message_call(name) and not OUTPUT_RX.match(name) and \
        not re.match(r"^(?:\w*BUG_ON|WARN_ON\w*)$", name)


def _tagged(texts: Texts, c: Candidate) -> bool:
    """c.struct is a struct tag (not the name of an untagged typedef)."""
    return re.search(rf"\bstruct\s+{re.escape(c.struct)}\b", texts.code(c.header)) is not None


def accesses(ctx: "Context", members: Sequence[str]) -> Dict[str, Dict[str, List[int]]]:
    """member -> file -> lines with `->member` or `.member` (one grep for all)."""
    names = sorted({m for m in members if m})
    out: Dict[str, Dict[str, List[int]]] = {m: {} for m in names}
    if not names:
        return out
    found = ctx.texts.grep.words(names, ["*.c", "*.h"], options=["-n"])
    rx = re.compile(r"(?:->|\.)\s*(%s)\b" % "|".join(re.escape(n) for n in names))
    for line in found.splitlines():
        parts = line.split(":", 2)
        if len(parts) == 3 and parts[1].isdigit():
            for m in rx.finditer(parts[2]):
                out[m.group(1)].setdefault(parts[0], []).append(int(parts[1]))
    return out


def gather(ctx: "Context", cands: Sequence[Candidate]) -> None:
    """field_reads and write_only."""
    texts = ctx.texts
    for c in cands:
        c.evidence.write_only = not any(s.kind is not SiteKind.TRUTH for s in c.checks)
    # A format or an ABI is kept whatever reads it: only the others are looked at.
    todo = [c for c in cands if c.struct and c.field and format_reason(c) is None]
    typedefs = [c.evidence.typedef or ("" if _tagged(texts, c) else c.struct) for c in todo]
    naming = files_naming(ctx, [c.struct for c in todo], typedefs)
    seen_at = accesses(ctx, [c.field for c in todo])
    mates: Dict[Tuple[str, str, str], List[Candidate]] = {}
    for c in cands:
        mates.setdefault((c.header, c.struct, c.field), []).append(c)
    for c in todo:
        names = [c.struct, c.evidence.typedef or ("" if _tagged(texts, c) else c.struct)]
        skip: Set[Tuple[str, int]] = set()
        for mate in mates[(c.header, c.struct, c.field)]:
            skip |= {(s.file, s.line) for s in mate.sets + mate.checks + mate.evidence.flag_sets
                     + mate.evidence.value_sets + mate.evidence.dead_sets}
            for shape in mate.evidence.shapes:
                for line in range(shape.site.line, max(shape.site.line, shape.last_line) + 1):
                    skip.add((shape.site.file, line))
        rx = re.compile(rf"\b(\w+)\s*(?:\[[^\]]*\])?\s*(?:->|\.)\s*{re.escape(c.field)}\b"
                        r"(?!\s*=[^=])")
        where = set().union(*(naming.get(n, set()) for n in names if n))
        hits = seen_at.get(c.field, {})
        for rel in sorted((where | ({c.header} if c.header else set())) & set(hits)):
            lines = [n for n in hits[rel] if (rel, n) not in skip]
            if not lines:
                continue
            mine = _declared(texts.code(rel), names)
            code_lines = texts.code(rel).split("\n")
            for line in sorted(set(lines)):
                m = rx.search(code_lines[line - 1])
                if not m or m.group(1) not in mine:
                    continue
                if c.evidence.guard and c.evidence.guard in guards_at(texts.lines(rel), line):
                    continue        # never compiled, as the checks are not
                text = texts.lines(rel)[line - 1].strip()
                call = enclosing_call(texts.code(rel), texts.offset(rel, line, m.start()))
                how = "printed" if call and log_call(call) else "read"
                if re.search(r"&\s*$", code_lines[line - 1][:m.start()]):
                    how = "passed by address"       # patch_u32(&entry->magic, ...)
                c.evidence.field_reads.append(Finding(Site(rel, line), f"{how}: {text[:70]}"))
        if c.evidence.write_only and not c.evidence.field_reads:
            c.evidence.field_reads += pasted_reads(texts, sorted(where | {c.header}), c.field)


# p->_name##_magic: a member whose name a macro pastes together.
PASTE_RX = re.compile(r"(?:->|\.)\s*(\w*)\s*##\s*(\w*)")


def pasted_reads(texts: Texts, files: Sequence[str], field: str) -> List[Finding]:
    """Reads of field through a name a macro pastes (csr_map->_name##_magic, where field is
    pr_magic): the grep for the field's name cannot see them."""
    out = []
    for rel in files:
        code = texts.code(rel)
        if "##" not in code:
            continue
        for m in PASTE_RX.finditer(code):
            head, tail = m.group(1), m.group(2)
            if (tail and field.endswith(tail) and field != tail) or \
                    (head and not tail and field.startswith(head)):
                line = code.count("\n", 0, m.start()) + 1
                text = texts.lines(rel)[line - 1].rstrip().rstrip("\\").strip()
                out.append(Finding(Site(rel, line), f"read through a pasted name: {text[:70]}"))
    return out
