# SPDX-License-Identifier: GPL-2.0
"""Struct layouts from pahole, and the hard-coded offsets that must agree with them."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import List, Optional, Sequence, Set, Tuple

from demagic.kernel.offsets import OffsetMacro, offset_macros

MEMBER_RE = re.compile(r"^\t(?P<decl>[^\t/][^;]*?)\s*;\s*/\*\s*(?P<off>\d+)(?::\d+)?\s+(?P<size>\d+)\s*\*/")
SIZE_RE = re.compile(r"/\*\s*size:\s*(\d+)")
NAME_RE = re.compile(r"\(\s*\*\s*([A-Za-z_]\w*)\s*\)\s*\(|([A-Za-z_]\w*)\s*(?:\[[^\]]*\]\s*)*(?::\s*\d+)?$")


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


def offsets_of(header_text: str, layout: Layout, removed: Set[str]) -> List[OffsetMacro]:
    """The offset macros of the header that name a member of the struct, before or after."""
    return offset_macros(header_text, list(layout.names()) + sorted(removed))


def check_offsets(macros: Sequence[OffsetMacro], after: Layout, removed: Set[str]) -> List[str]:
    """Disagreements between offset macros and the real layout after the patch."""
    problems = []
    for mac in macros:
        real = after.offset(mac.member)
        what = mac.name
        if mac.member in removed and real is None:
            problems.append(f"{what} still defined for removed member {mac.member}")
        elif real != mac.value:
            problems.append(f"{what} = {mac.value:#x} but {after.struct}.{mac.member} "
                            f"is at {real:#x}" if real is not None else
                            f"{what}: {mac.member} not in {after.struct}")
    return problems
