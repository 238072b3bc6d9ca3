# SPDX-License-Identifier: GPL-2.0
"""Candidates from the rule's records: one per constant, with its sets, checks and struct.

A constant #defined in a .c file means something only there: the MAGIC of
one file is not the MAGIC of another, so such a constant is a candidate per
file (Candidate.local).  A constant stored into several fields keeps the
field it is stored into most.  Constants stored into the same field of the
same struct form a group, judged together.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field, replace
from typing import Dict, List, Sequence, Tuple

from demagic.scan import structs
from demagic.scan.discover import Record
from demagic.model.candidate import Candidate, Finding, Site, SiteKind
from demagic.kernel.source import Texts, magic_name

# (site, base expression, type as spatch gave it) of each set and check of a constant
Bases = Dict[str, List[Tuple[Site, str, str]]]


@dataclass
class Found:
    """Candidates keyed by their name (and file, for local ones), with what built them."""
    cands: Dict[str, Candidate] = field(default_factory=dict)
    bases: Bases = field(default_factory=dict)
    cols: Dict[Tuple[str, int, str], int] = field(default_factory=dict)  # check -> column
    found: Dict[str, "structs.Struct"] = field(default_factory=dict)
    switches: Dict[Tuple[str, int, str], str] = field(default_factory=dict)  # case -> switch (x)


def key_of(c: Candidate) -> str:
    """The name a candidate is known by in the scan: MACRO, or MACRO@file when local."""
    return f"{c.macro}@{c.define.file}" if c.local and c.define else c.macro


def local_define(texts: Texts, rel: str, name: str) -> bool:
    """rel is a .c file that #defines name itself."""
    if not rel.endswith(".c") or name.encode() not in texts.raw(rel):
        return False
    return re.search(rf"^[ \t]*#[ \t]*define[ \t]+{re.escape(name)}\b", texts.text(rel), re.M) \
        is not None


def _keyed(texts: Texts, r: Record) -> str:
    return f"{r.const}@{r.file}" if local_define(texts, r.file, r.const) else r.const


def _check_kind(rec: Record, kinds: Dict[Tuple[str, int, int], List[str]]) -> SiteKind:
    rank = {"bug": 0, "warn": 1, "message": 2, "early-exit": 3, "condition": 4}
    found = kinds.get(rec.key, [])
    return SiteKind(min(found, key=rank.__getitem__) if found else "condition")


def build(texts: Texts, records: Sequence[Record], files: Sequence[str]) -> Found:
    """Candidates (one per constant, or per file for local ones) from the rule's records."""
    kinds: Dict[Tuple[str, int, int], List[str]] = {}
    types: Dict[Tuple[str, int, int], str] = {}
    for r in records:
        if r.what == "kind":
            kinds.setdefault(r.key, []).append(r.kind)
        elif r.what == "type":
            types[r.key] = r.type
    macros = structs.setter_macros(texts, files)
    uses: Dict[str, List[Record]] = {}
    for r in records:
        if r.what == "call":
            if r.field not in macros:
                continue
            fld, op = macros[r.field]
            if not fld:     # MAGIC_CHECK(p->magic, FOO_MAGIC): the field is the argument
                arg = re.match(r"^(.*?)\s*(?:->|\.)\s*(\w+)$", r.expr.strip())
                if not arg or op == "=":
                    continue
                r = replace(r, expr=arg.group(1), field=arg.group(2))
                fld = arg.group(2)
            r = replace(r, what="set" if op == "=" else "check", field=fld,
                        kind="macro" if op == "=" else r.kind)
        if r.what in ("set", "check") and magic_name(r.const):
            uses.setdefault(_keyed(texts, r), []).append(r)
    out = Found()
    for key, recs in uses.items():
        top = (Counter(r.field for r in recs if r.what == "set").most_common(1)
               or Counter(r.field for r in recs).most_common(1))
        const = recs[0].const
        c = out.cands[key] = Candidate(const, "", None, "", top[0][0], "")
        c.local = "@" in key
        for r in sorted(set(recs), key=lambda r: r.key):
            if r.field != c.field:      # one patch retires one field: _place names the others
                c.evidence.other_fields.append(Finding(r.site(), f"{r.what} of {r.field}"))
                continue
            if r.what == "set":
                c.sets.append(r.site())
            else:
                c.checks.append(r.site(_check_kind(r, kinds)))
                out.cols[(r.file, r.line, const)] = r.col
            # a designated initialiser's record carries the initialised object's type
            typ = types.get(r.key, "") or r.type
            out.bases.setdefault(key, []).append((r.site(), r.expr, typ))
    _place(texts, out)
    return out


def _place(texts: Texts, out: Found) -> None:
    """The struct of each candidate; those the sites' includes do not define are
    looked up with one grep for all."""
    missing = []
    for key, c in out.cands.items():
        s = structs.place_struct(texts, c, out.bases[key], search=False)
        if s is None:
            missing.append(key)
        else:
            out.found[key] = s
    structs.prefetch_definitions(texts, [structs.type_name(b[2]) for k in missing
                                         for b in out.bases[k]])
    for key in missing:
        s = structs.place_struct(texts, out.cands[key], out.bases[key])
        if s is not None:
            out.found[key] = s
    for key, c in out.cands.items():
        # the constant in another member of the same struct (magic_start, magic_end); a
        # member of another struct is the constant's other use, not this field's
        mine = set(out.found[key].members()) if key in out.found else set()
        c.evidence.other_fields = [f for f in c.evidence.other_fields
                                   if f.what.split(" of ", 1)[1] in mine]


def groups(cands: Sequence[Candidate]) -> Dict[Tuple[str, str, str], List[Candidate]]:
    """Candidates that share a located struct's field, by (header, struct, field)."""
    by: Dict[Tuple[str, str, str], List[Candidate]] = {}
    for c in cands:
        if c.struct:
            by.setdefault((c.header, c.struct, c.field), []).append(c)
    return by


def mark_groups(cands: Sequence[Candidate]) -> None:
    for members in groups(cands).values():
        for c in members:
            c.evidence.group = [m.macro for m in members if m is not c]
