# SPDX-License-Identifier: GPL-2.0
"""Code spatch could not parse, in the files that name the magic or its field.

What spatch did not parse, the scan did not see: a check there is missing
from the evidence.  Each such region is a finding (file, lines, functions),
and a candidate with one is never judged remove.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Sequence

from demagic.scan.discover import lost_functions
from demagic.model.candidate import Candidate, Finding, Site

if TYPE_CHECKING:
    from demagic.scan.evidence import Context


def gather(ctx: "Context", cands: Sequence[Candidate]) -> None:
    """unparsed: the regions, in the files that name the constant, that name it or its field."""
    texts = ctx.texts
    for c in cands:
        files = set(ctx.mentions(c)) | {s.file for s in c.sets + c.checks}
        words = re.compile(rf"\b(?:{re.escape(c.macro)}|{re.escape(c.field)})\b") if c.field \
            else re.compile(rf"\b{re.escape(c.macro)}\b")
        for region in ctx.unparsed:
            if region.file not in files:
                continue
            lines = texts.lines(region.file)[region.first - 1:region.last]
            if not any(words.search(line) for line in lines):
                continue
            funcs = lost_functions(texts, region)
            what = f"lines {region.first}-{region.last} not parsed by spatch" + \
                (f" ({', '.join(f + '()' for f in funcs)})" if funcs else "")
            c.evidence.unparsed.append(Finding(Site(region.file, region.first), what))
