# SPDX-License-Identifier: GPL-2.0
"""The other values a magic's field holds: 0/1 (a state flag), other values (a
sentinel), the truth tests of the field, and the name a flag would take."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, List, Sequence

from demagic.model.candidate import Candidate, Site, SiteKind
from demagic.scan.structs import type_name

if TYPE_CHECKING:
    from demagic.scan.evidence import Context

FLAG_VALUES = ("0", "1", "true", "false")
# A field named for a tag, not for a state: it needs a new name if it becomes a flag.
TAG_FIELD_RX = re.compile(r"magic|sig|cookie|tag|check", re.I)
# How the functions that set and clear a flag are named, and what the flag then means.
TAKE_RX = re.compile(r"get|alloc|take|acquire|queue|claim|grab|reserve|lock", re.I)
GIVE_RX = re.compile(r"free|put|release|done|complete|drop|unlock|finish", re.I)
UP_RX = re.compile(r"open|up|start|init|attach|enable", re.I)
DOWN_RX = re.compile(r"close|down|stop|exit|detach|disable|remove", re.I)


def _same_struct(c: Candidate, typ: str) -> bool:
    """A store or test whose type spatch knows belongs to c's struct (unknown: assume so)."""
    name = type_name(typ)
    return not name or name in (c.struct, c.evidence.typedef)


def _by_line(sites: Sequence[Site]) -> List[Site]:
    return sorted(set(sites), key=lambda s: (s.file, s.line))


def flag_name(c: Candidate) -> str:
    """The name of the field as a bool: its own when that already names a state, else
    one read from how the functions that set and clear it are named."""
    if not TAG_FIELD_RX.search(c.field):
        return c.field
    setters = " ".join(s.function for s in c.sets)
    clearers = " ".join(s.function for s in c.evidence.flag_sets if s.kind is SiteKind.CLEAR)
    if TAKE_RX.search(setters + " " + " ".join(s.function for s in c.evidence.flag_sets
                                                   if s.kind is SiteKind.SET)) and \
            GIVE_RX.search(clearers):
        return "busy"
    if UP_RX.search(setters) and DOWN_RX.search(clearers):
        return "up"
    return "active"


def gather(ctx: "Context", cands: Sequence[Candidate]) -> None:
    """flag_sets (0/1 stores), value_sets (any other value), dead_sets (a write-only
    constant of the same field), the truth tests (added to checks), flag_name."""
    types = {r.key: r.type for r in ctx.records if r.what == "type"}
    for c in cands:
        files = {s.file for s in c.sets}
        mine = [r for r in ctx.records if r.field == c.field and r.file in files
                and _same_struct(c, types.get(r.key, ""))]
        stores = [r for r in mine if r.what == "store"
                  and not re.fullmatch(r"\(?\s*\w*MAGIC\w*\s*\)?", r.expr)]
        flag = [r.site(SiteKind.CLEAR if r.expr in ("0", "false") else SiteKind.SET) for r in stores
                if r.expr in FLAG_VALUES]
        c.evidence.flag_sets = _by_line(flag)
        c.evidence.value_sets = _by_line([r.site(SiteKind.VALUE) for r in stores
                                          if r.expr not in FLAG_VALUES])
        truth = [r.site(SiteKind.TRUTH) for r in mine if r.what == "truth"]
        seen = {(s.file, s.line) for s in c.checks}
        c.checks += [s for s in _by_line(truth) if (s.file, s.line) not in seen]
    by_field = {}
    for c in cands:
        if c.struct:
            by_field.setdefault((c.header, c.struct, c.field), []).append(c)
    for members in by_field.values():
        dead = [s for m in members if not m.checks for s in m.sets]
        for m in members:
            if m.checks:
                m.evidence.dead_sets = _by_line(dead)
    for c in cands:
        c.evidence.flag_name = flag_name(c) if c.evidence.flag_sets else ""
