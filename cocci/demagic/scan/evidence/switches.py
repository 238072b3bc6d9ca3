# SPDX-License-Identifier: GPL-2.0
"""A switch on the field with the constant as a case label: code picks its path by
the value, which is therefore no debug tag (spatch's report has no such compare).

Each `case FOO_MAGIC:` of a `switch (x->field)` becomes a check of the candidate,
of kind "switch": shapes.py calls it functional, discriminator.py groups the
constants of one switch.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Sequence

from demagic.model.candidate import Candidate, Site, SiteKind
from demagic.kernel.source import function_name_at
from demagic.kernel.cparse import closing

if TYPE_CHECKING:
    from demagic.scan.evidence import Context

SWITCH_RX = re.compile(r"\bswitch\s*\(")


def gather(ctx: "Context", cands: Sequence[Candidate]) -> None:
    """Add a "switch" check for each case label of the constant in a switch on its field."""
    texts = ctx.texts
    for c in cands:
        if not c.field:
            continue
        seen = {(s.file, s.line) for s in c.checks}
        for rel in ctx.mentions(c):
            code = texts.code(rel)
            for m in re.finditer(rf"\bcase\s+\(?\s*{re.escape(c.macro)}\s*\)?\s*:", code):
                head = _enclosing_switch(code, m.start())
                if head is None or not re.search(rf"(?:->|\.)\s*{re.escape(c.field)}\s*$", head):
                    continue
                line = code.count("\n", 0, m.start()) + 1
                if (rel, line) not in seen:
                    func = function_name_at(texts, rel, line)
                    c.checks.append(Site(rel, line, func, SiteKind.SWITCH))
                    seen.add((rel, line))
                    ctx.found.switches[(rel, line, c.macro)] = head


def _enclosing_switch(code: str, at: int) -> "str | None":
    """The controlling expression of the switch whose body holds offset at."""
    for m in reversed(list(SWITCH_RX.finditer(code, max(0, at - 20000), at))):
        close = closing(code, m.end() - 1)
        brace = code.find("{", close)
        if brace < 0 or brace > at:
            continue
        if closing(code, brace) > at:
            return " ".join(code[m.end():close].split())
    return None
