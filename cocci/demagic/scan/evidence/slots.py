# SPDX-License-Identifier: GPL-2.0
"""A shared slot: the checked pointer comes from a member that other subsystems fill
too (current->journal_info and the like), and the match decides what happens next.

There the magic says whose data the slot holds: a match means "mine" (a
nested call, an object to use), a mismatch means someone else's.  That is
ownership, not a debug check.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Dict, Sequence, Set

from demagic.scan.evidence.provenance import source_of
from demagic.model.candidate import Candidate, Finding, Role

if TYPE_CHECKING:
    from demagic.scan.evidence import Context

SLOT_RX = re.compile(r"(?:->|\.)\s*(\w+)\s*$")
# Other subsystems fill the slot: assignments in this many top-level directories.
SHARED = 3


def _subsystem(path: str) -> str:
    parts = path.split("/")
    return "/".join(parts[:2]) if parts[0] in ("fs", "drivers", "net", "arch", "kernel") \
        else parts[0]


def gather(ctx: "Context", cands: Sequence[Candidate]) -> None:
    """shared_slot, for checks whose pointer comes from such a slot and whose outcome
    decides something (the check is not a plain debug check)."""
    texts = ctx.texts
    wanted = []
    for c in cands:
        deciding = {(s.site.file, s.site.line) for s in c.evidence.shapes if s.role != Role.DEBUG}
        for site, expr, _typ in ctx.bases(c):
            if (site.file, site.line) not in deciding:
                continue
            src = source_of(texts, site, expr)
            m = SLOT_RX.search(src)
            if m:
                wanted.append((c, site, expr, src, m.group(1)))
    writers = _writers(ctx, sorted({w[4] for w in wanted}))
    for c, site, expr, src, member in wanted:
        others = writers.get(member, set()) - {_subsystem(site.file)}
        if len(others) + 1 >= SHARED:
            c.evidence.shared_slot.append(Finding(
                site, f"{expr} = {src}: a slot that {len(others)} other subsystems fill "
                f"too ({', '.join(sorted(others)[:3])}{', ...' if len(others) > 3 else ''}), "
                "and the match decides what runs next"))


def _writers(ctx: "Context", members: Sequence[str]) -> Dict[str, Set[str]]:
    """member -> the subsystems that assign to it (one grep for all)."""
    if not members:
        return {}
    out = ctx.texts.grep.ere(rf"(->|\.)\s*({'|'.join(members)})\s*=[^=]", ["*.c", "*.h"],
                   options=["-o"])
    found: Dict[str, Set[str]] = {}
    for line in out.splitlines():
        path, _sep, match = line.partition(":")
        m = re.search(r"(\w+)\s*=", match)
        if m:
            found.setdefault(m.group(1), set()).add(_subsystem(path))
    return found
