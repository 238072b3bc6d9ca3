# SPDX-License-Identifier: GPL-2.0
"""Hand-written offsets of a struct that loses a field.

Assembly reaches some structures through offset macros kept beside the
struct (kernel/offsets.py reads them).  When the removed field has one, the macros of the fields after it
move down by the space it took, provided that keeps each field aligned;
anything this cannot prove (an unknown type, a size assertion, a removed
offset still used) is reported for a manual fix and no patch is made.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass, field
from typing import Dict, List, Mapping, Optional, Tuple

from demagic.kernel.offsets import DEFINE_RX, offset_macros
from demagic.kernel.grep import Grep

from demagic.model.target import Target

# Sizes (and so alignments) that do not depend on the architecture.
FIXED_SIZES = {
    "char": 1, "signed char": 1, "unsigned char": 1, "u8": 1, "s8": 1, "__u8": 1, "__s8": 1,
    "short": 2, "signed short": 2, "unsigned short": 2, "u16": 2, "s16": 2, "__u16": 2,
    "__s16": 2, "__be16": 2, "__le16": 2,
    "int": 4, "signed int": 4, "unsigned int": 4, "unsigned": 4, "u32": 4, "s32": 4,
    "__u32": 4, "__s32": 4, "__be32": 4, "__le32": 4,
    "u64": 8, "s64": 8, "__u64": 8, "__s64": 8, "long long": 8, "unsigned long long": 8,
}


@dataclass
class Plan:
    """New values of offset macros, per file."""
    edits: Dict[str, Dict[str, int]] = field(default_factory=dict)
    dead_macros: List[str] = field(default_factory=list)
    changes: List[str] = field(default_factory=list)
    manual: str = ""

    def apply(self, rel: str, text: str) -> str:
        values = self.edits.get(rel)
        if not values:
            return text

        def fix(m: "re.Match[str]") -> str:
            if m.group("name") not in values:
                return m.group(0)
            new = values[m.group("name")]
            value = re.sub(r"0[xX][0-9a-fA-F]+|\d+",
                           lambda n: f"0x{new:x}" if n.group(0).lower().startswith("0x")
                           else str(new), m.group("value"), count=1)
            return m.group(0)[:m.start("value") - m.start()] + value + \
                m.group(0)[m.end("value") - m.start():]
        return DEFINE_RX.sub(fix, text)


def members(header: str, sname: str) -> List[Tuple[str, str]]:
    """(type, name) of each plain member of struct sname, in order."""
    m = re.search(rf"struct\s+{re.escape(sname)}\s*\{{(.*?)\n\s*\}}", header, re.S)
    if not m:
        m = re.search(rf"typedef\s+struct\s*\{{(.*?)\n\s*\}}\s*{re.escape(sname)}\s*;", header, re.S)
    if not m:
        return []
    body = re.sub(r"/\*.*?\*/|//[^\n]*", "", m.group(1), flags=re.S)
    out = []
    for decl in body.split(";"):
        d = re.match(r"^\s*((?:[A-Za-z_]\w*\s+)*?[A-Za-z_]\w*)\s+\**\s*([A-Za-z_]\w*)\s*$",
                     " ".join(decl.split()))
        if d:
            out.append((d.group(1), d.group(2)))
    return out


@functools.lru_cache(maxsize=None)
def _size(grep: Grep, ctype: str) -> Optional[int]:
    """Size of a scalar type, following one typedef through the tree."""
    ctype = " ".join(w for w in ctype.split() if w not in ("volatile", "const"))
    if ctype in FIXED_SIZES:
        return FIXED_SIZES[ctype]
    out = grep.tree(["-h", "-E", rf"typedef\s+[a-z0-9_ ]+\s+{re.escape(ctype)}\s*;"],
                    ["*.h"])
    for line in out.splitlines():
        m = re.match(rf"\s*typedef\s+([a-z0-9_ ]+?)\s+{re.escape(ctype)}\s*;", line)
        if m and m.group(1) in FIXED_SIZES:
            return FIXED_SIZES[m.group(1)]
    return None


def offset_plan(grep: Grep, target: Target, originals: Mapping[str, str]) -> Plan:
    """The offset macro changes that removing target.member requires."""
    plan = Plan()
    header = originals.get(target.header)
    if header is None:
        return plan
    fields = members(header, target.struct)
    names = [n for _, n in fields]
    if target.member not in names:
        return plan
    # only macros whose value is a plain number can move with the layout
    found = [m for m in offset_macros(header, names) if m.literal]
    offsets = {m.name: m.value for m in found}
    by_field = {m.member: m.name for m in found}
    if target.member not in by_field:
        return plan
    if re.search(rf"sizeof\s*\(\s*(struct\s+)?{re.escape(target.struct)}\s*\)", header):
        plan.manual = f"struct {target.struct}: its size is used in {target.header}"
        return plan
    index = names.index(target.member)
    after = names[index + 1:]
    if not after or after[0] not in by_field:
        plan.manual = f"struct {target.struct}: no offset macro for the field after {target.member}"
        return plan
    shift = offsets[by_field[after[0]]] - offsets[by_field[target.member]]
    values: Dict[str, int] = {}
    for name in after:
        macro = by_field.get(name)
        if macro is None:
            continue
        size = _size(grep, dict(fields and [(n, t) for t, n in fields])[name])
        if size is None or shift % size:
            plan.manual = (f"struct {target.struct}: cannot prove {macro} stays aligned "
                           f"after removing {target.member}")
            return plan
        values[macro] = offsets[macro] - shift
        plan.changes.append(f"{macro} {offsets[macro]:#x} -> {values[macro]:#x}")
    plan.edits[target.header] = values
    plan.dead_macros.append(by_field[target.member])
    return plan
