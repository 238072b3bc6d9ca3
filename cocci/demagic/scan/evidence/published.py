# SPDX-License-Identifier: GPL-2.0
"""Published before tagged: the object is handed out before its magic is set.

When the function that sets the magic first passes the object (or a member
of it) to a call that makes it reachable from elsewhere (registers a device
or a callback, adds it to a list or table, queues work, requests an IRQ,
starts a thread), another path can reach the object while it is still being
built.  A store of the object into a table (``ports[i] = p;``) hands it out too.
The check on that path then also rejects a half-built object: the
tag doubles as "ready", and removing it opens that window.  Whether the
window matters depends on locking the scan cannot read, so such a candidate
goes to review, never to remove.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, List, Optional, Sequence

from demagic.model.candidate import Candidate, Finding, Role, Site, SiteKind
from demagic.kernel.source import Texts, function_body
from demagic.kernel.cparse import closing

if TYPE_CHECKING:
    from demagic.scan.evidence import Context

# A call whose name has one of these parts hands its arguments to other code paths.
PUBLISH_PARTS = frozenset({"register", "publish", "insert", "install", "add", "hash",
                           "enqueue", "queue", "schedule", "request", "run", "start", "store",
                           "assign", "attach", "expose"})
CALL_RX = re.compile(r"\b([A-Za-z_]\w*)\s*\(")
BASE_RX = re.compile(r"^\s*\(?\s*\*?\s*([A-Za-z_]\w*)\s*(?:->|\.|\[)")
NOT_CALLS = frozenset({"if", "while", "for", "switch", "return", "sizeof", "typeof",
                       "__typeof__", "defined"})


def publishes(name: str) -> bool:
    """The call's name says it hands something out (register_netdev, list_add_tail)."""
    return bool(PUBLISH_PARTS.intersection(name.lower().split("_")))


def tagged_object(line: str, member: str) -> Optional[str]:
    """The variable whose member is set on line (serial for serial->magic = M)."""
    head = line.split("=", 1)[0]
    if not re.search(rf"(?:->|\.)\s*{re.escape(member)}\s*$", head):
        return None
    m = BASE_RX.match(head)
    return m.group(1) if m else None


def published_before(texts: Texts, site: Site, member: str) -> Optional[Finding]:
    """The first call in site's function, before the store at site, that hands out the
    object the store tags."""
    lines = texts.lines(site.file)
    if not 0 < site.line <= len(lines):
        return None
    var = tagged_object(lines[site.line - 1], member)
    if not var:
        return None
    lvalue = " ".join(lines[site.line - 1].split("=", 1)[0].split())
    start, _end = function_body(texts, site.file, site.line)
    if start < 0:
        return None
    code = texts.code(site.file)
    stop = texts.offset(site.file, site.line)
    word = re.compile(rf"(?<![\w>.]){re.escape(var)}\b")
    table = re.compile(rf"\b(\w+)\s*\[[^];]*\]\s*=\s*{re.escape(var)}\s*;")
    found = []      # (offset, what): every way the object is handed out before the store
    m = table.search(code, start, stop)
    if m:
        found.append((m.start(), f"{var} is stored into {m.group(1)}[] before "
                                 f"{lvalue} is set at line {site.line}"))
    for m in CALL_RX.finditer(code, start, stop):
        name = m.group(1)
        if name in NOT_CALLS or not publishes(name):
            continue
        close = closing(code, m.end() - 1)
        if word.search(code[m.end():min(close, stop)]):
            found.append((m.start(), f"{name}() hands out {var} before {lvalue} is set "
                                     f"at line {site.line}"))
            break
    if not found:
        return None
    at, what = min(found)
    return Finding(Site(site.file, texts.line_of(site.file, at), site.function, SiteKind.PUBLISH), what)


def gather(ctx: "Context", cands: Sequence[Candidate]) -> None:
    """published_first: for a candidate with debug checks, each store of the magic that
    comes after its object was handed out in the same function."""
    for c in cands:
        if not c.field or not any(s.role == Role.DEBUG for s in c.evidence.shapes):
            continue
        found: List[Finding] = []
        for s in c.sets:
            if s.kind is not SiteKind.ASSIGN:
                continue
            f = published_before(ctx.texts, s, c.field)
            if f:
                found.append(f)
        c.evidence.published_first = found
