# SPDX-License-Identifier: GPL-2.0
"""Struct layouts from pahole, and the hard-coded offsets that must agree with them."""

from __future__ import annotations

import ast
import operator
import re
from dataclasses import dataclass
from typing import Callable, Dict, List, Optional, Sequence, Set, Tuple

MEMBER_RE = re.compile(r"^\t(?P<decl>[^\t/][^;]*?)\s*;\s*/\*\s*(?P<off>\d+)(?::\d+)?\s+(?P<size>\d+)\s*\*/")
SIZE_RE = re.compile(r"/\*\s*size:\s*(\d+)")
NAME_RE = re.compile(r"\(\s*\*\s*([A-Za-z_]\w*)\s*\)\s*\(|([A-Za-z_]\w*)\s*(?:\[[^\]]*\]\s*)*(?::\s*\d+)?$")
OFFSET_DEFINE_RE = re.compile(r"^\s*#\s*define\s+([A-Za-z_]\w*)_OFFSET\s+(.+?)\s*(?:/\*.*)?$", re.M)


@dataclass(frozen=True)
class Member:
    name: str
    decl: str
    offset: int
    size: int


@dataclass(frozen=True)
class Layout:
    """A struct as pahole prints it: its top-level members and its size."""
    struct: str
    members: Tuple[Member, ...]
    size: int

    def names(self) -> List[str]:
        return [m.name for m in self.members]

    def offset(self, name: str) -> Optional[int]:
        for member in self.members:
            if member.name == name:
                return member.offset
        return None


def parse_pahole(struct: str, text: str) -> Layout:
    """The top-level members (one tab deep) and the size of pahole's output."""
    members = []
    for line in text.splitlines():
        match = MEMBER_RE.match(line)
        if not match:
            continue
        decl = " ".join(match.group("decl").split())
        name = NAME_RE.search(decl)
        if name:
            members.append(Member(name.group(1) or name.group(2), decl,
                                  int(match.group("off")), int(match.group("size"))))
    size = SIZE_RE.search(text)
    return Layout(struct, tuple(members), int(size.group(1)) if size else -1)


def compare(before: Layout, after: Layout, removed: Set[str], added: Set[str]) -> List[str]:
    """Problems: what changed besides the removed (and the replacing added) members."""
    problems = []
    expect = [n for n in before.names() if n not in removed]
    got = [n for n in after.names() if n not in added]
    if expect != got:
        gone = sorted(set(expect) - set(got))
        new = sorted(set(got) - set(expect))
        problems.append(f"struct {before.struct}: members differ beyond {sorted(removed)}: "
                        f"lost {gone or '-'}, gained {new or '-'}")
    still = sorted(removed & set(after.names()) - added)
    if still:
        problems.append(f"struct {before.struct}: {still} still there")
    for name in expect:
        b = next(m for m in before.members if m.name == name)
        a = next((m for m in after.members if m.name == name), None)
        if a is not None and a.decl != b.decl:
            problems.append(f"struct {before.struct}.{name}: type changed: {b.decl} -> {a.decl}")
    return problems


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


@dataclass(frozen=True)
class OffsetMacro:
    macro: str
    member: str
    value: Optional[int]


def offset_macros(header_text: str, layout: Layout, removed: Set[str]) -> List[OffsetMacro]:
    """FOO_BAR_OFFSET macros of the header that name a member foo_bar of the struct."""
    members = {n.lower(): n for n in list(layout.names()) + sorted(removed)}
    out = []
    for match in OFFSET_DEFINE_RE.finditer(header_text):
        member = members.get(match.group(1).lower())
        if member:
            out.append(OffsetMacro(match.group(1) + "_OFFSET", member, eval_c_int(match.group(2))))
    return out


def check_offsets(macros: Sequence[OffsetMacro], after: Layout, removed: Set[str]) -> List[str]:
    """Disagreements between offset macros and the real layout after the patch."""
    problems = []
    for mac in macros:
        real = after.offset(mac.member)
        if mac.member in removed and real is None:
            problems.append(f"{mac.macro} still defined for removed member {mac.member}")
        elif mac.value is None:
            problems.append(f"{mac.macro}: value is not a constant verify can evaluate")
        elif real != mac.value:
            problems.append(f"{mac.macro} = {mac.value:#x} but {after.struct}.{mac.member} "
                            f"is at {real:#x}" if real is not None else
                            f"{mac.macro}: {mac.member} not in {after.struct}")
    return problems
