# SPDX-License-Identifier: GPL-2.0
"""Hand-written offset macros of a struct (#define FOO_BAR_OFFSET 0x8): the one reader.

The scan lists them as evidence, the rewrite moves them down when a field
goes, and verify checks them against pahole's layout.  A macro belongs to the
member whose words end its name once the offset word is dropped:
KV_RO_NASID_OFFSET and KV_OFF_RO_NASID both name kv_ro_nasid, and of two
members that would fit, the longer wins.  Its value is a constant expression
of numbers: a macro built on other macros (NX_FW_VERSION_OFFSET is
(NETXEN_USER_START+0x408)) is an offset into something else, a flash or a
register file, and none of the three reads it as a member's offset.
"""

from __future__ import annotations

import ast
import operator
import re
from dataclasses import dataclass
from typing import Callable, Dict, Iterable, List, Optional

OFFSET_WORDS = ("off", "offs", "offset", "ofs")
DEFINE_RX = re.compile(r"^(?P<head>[ \t]*#[ \t]*define[ \t]+(?P<name>\w+)[ \t]+)"
                       r"(?P<value>[^\n]*?)[ \t]*(?:/\*[^\n]*)?$", re.M)
LITERAL_RX = re.compile(r"^\(?(0[xX][0-9a-fA-F]+|\d+)\)?$")


@dataclass(frozen=True)
class OffsetMacro:
    """One offset macro: its name, the member it gives the offset of, its value."""
    name: str
    member: str
    text: str              # the value as written
    value: int
    start: int             # where the value starts in the header's text
    end: int

    @property
    def literal(self) -> bool:
        """The value is a plain number, which the rewrite can change in place."""
        return bool(LITERAL_RX.match(self.text))


def member_of(name: str, members: Iterable[str]) -> Optional[str]:
    """The member an offset macro's name speaks of (None: not an offset macro of them)."""
    words = name.lower().split("_")
    if not any(w in OFFSET_WORDS for w in words):
        return None
    words = [w for w in words if w not in OFFSET_WORDS and w]
    best = None
    for member in members:
        mw = member.lower().split("_")
        if len(mw) <= len(words) and words[-len(mw):] == mw and len(member) > len(best or ""):
            best = member
    return best


def offset_macros(text: str, members: Iterable[str]) -> List[OffsetMacro]:
    """The offset macros in text (a header) of the given members, in the order written
    (those whose value is a constant expression of numbers)."""
    members = list(members)
    out = []
    for m in DEFINE_RX.finditer(text):
        member = member_of(m.group("name"), members)
        value = eval_c_int(m.group("value")) if member is not None else None
        if member is not None and value is not None:
            out.append(OffsetMacro(m.group("name"), member, m.group("value"), value,
                                   m.start("value"), m.end("value")))
    return out


_OPS: Dict[type, Callable[[int, int], int]] = {
    ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul,
    ast.LShift: operator.lshift, ast.RShift: operator.rshift, ast.BitOr: operator.or_,
}


def eval_c_int(expr: str) -> Optional[int]:
    """The value of a C integer constant expression of literals, or None."""
    text = re.sub(r"(?<=[0-9a-fA-F])[uUlL]+\b", "", expr.strip())
    text = re.sub(r"\b0([0-7]+)\b", r"0o\1", text)
    try:
        tree = ast.parse(text, mode="eval")
    except SyntaxError:
        return None

    def walk(node: ast.AST) -> int:
        if isinstance(node, ast.Expression):
            return walk(node.body)
        if isinstance(node, ast.Constant) and isinstance(node.value, int):
            return node.value
        if isinstance(node, ast.BinOp) and type(node.op) in _OPS:
            return _OPS[type(node.op)](walk(node.left), walk(node.right))
        raise ValueError(expr)
    try:
        return walk(tree)
    except (ValueError, TypeError):
        return None
