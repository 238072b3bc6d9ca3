# SPDX-License-Identifier: GPL-2.0
"""Deliberately wrong variants of a series, made from its parsed model, that the boot tests
must catch.

- assignments-only: of every hunk keep only the removal of magic assignments
  (``x->magic = FOO_MAGIC;``): the checks stay, the value is never set.
- no-null-test: the same, and each magic check the series rewrote also loses
  the NULL test beside it (``!x || x->magic != FOO_MAGIC``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Dict, List, Optional, Sequence, Tuple

from demagic.model.series import Series
from demagic.core.files import replacing_dir
from demagic.model.patches import Hunk, Patch
from demagic.core.errors import DemagicError

MAGIC_ASSIGNMENT = re.compile(
    r"^\s*\.?(?:[\w\[\]]+\s*(?:\.|->)\s*)*\w*magic\w*\s*=(?!=)\s*\(?\w*MAGIC\w*\)?\s*[;,]")
MAGIC_CHECK = re.compile(r"\bmagic\w*\s*[!=]=\s*\w*MAGIC")
NULL_TEST = re.compile(r"(?:!\s*(\w+)|\b(\w+)\s*==\s*NULL)\s*\|\|\s*(?=(\w+)\s*->)")


def assignments_only(line: str) -> Tuple[bool, List[str]]:
    return bool(MAGIC_ASSIGNMENT.match(line)), []


def drop_null_test(line: str) -> str:
    """line without the NULL test that guards the magic check beside it."""
    def repl(m: "re.Match[str]") -> str:
        var = m.group(1) or m.group(2)
        return "" if var == m.group(3) else m.group(0)
    return NULL_TEST.sub(repl, line)


def no_null_test(line: str) -> Tuple[bool, List[str]]:
    if MAGIC_ASSIGNMENT.match(line):
        return True, []
    if MAGIC_CHECK.search(line):
        bare = drop_null_test(line)
        if bare != line:
            return True, [bare]
    return False, []


# A rewriter sees one removed line of a hunk and returns (keep the removal,
# replacement lines to add); lines it does not keep stay as context.
Rewriter = Callable[[str], Tuple[bool, List[str]]]


def _rewrite_hunk(hunk: Hunk, rule: Rewriter) -> Optional[List[str]]:
    out: List[str] = []
    changed = False
    for line in hunk.body:
        tag, body = line[:1], line[1:]
        if tag in ("+", "\\"):
            continue
        if tag == "-":
            keep, added = rule(body)
            if keep:
                out.append(line)
                out.extend("+" + a for a in added)
                changed = True
                continue
            out.append(" " + body)
        else:
            out.append(line)
    return out if changed else None


def rewrite(patch: Patch, rule: Rewriter) -> Optional[str]:
    """The patch with only what rule keeps or adds, its hunks recounted; None if nothing
    is left."""
    out = list(patch.head)
    kept = False
    for fd in patch.files:
        hunks = [(h, body) for h in fd.hunks for body in [_rewrite_hunk(h, rule)] if body]
        if not hunks:
            continue
        kept = True
        out.extend(ln for ln in fd.header if not ln.startswith("index "))
        offset = 0
        for h, body in hunks:
            old = sum(1 for ln in body if ln[:1] in (" ", "-"))
            new = sum(1 for ln in body if ln[:1] in (" ", "+"))
            out.append(f"@@ -{h.old_start},{old} +{h.old_start + offset},{new} @@{h.section}")
            out.extend(body)
            offset += new - old
    if not kept:
        return None
    out.extend(patch.tail if any(patch.tail) else ["-- ", "demagic mutant", ""])
    return "\n".join(out)


MUTANTS: Dict[str, Callable[[str], Tuple[bool, List[str]]]] = {
    "assignments-only": assignments_only,
    "no-null-test": no_null_test,
}


@dataclass(frozen=True)
class Mutant:
    name: str
    series: Series
    mutated: List[str]    # names of the original patches that left something


def make(series: Sequence[Patch], name: str, outdir: Path) -> Mutant:
    """Write mutant name of series (its parsed patches) to outdir."""
    rule = MUTANTS[name]
    mutated = []
    with replacing_dir(outdir) as tmp:
        for patch in series:
            text = rewrite(patch, rule)
            if text is not None:
                mutated.append(patch.name)
                (tmp / patch.name).write_text(text)
        if not mutated:
            raise DemagicError(f"mutant {name}: no patch of the series assigns a magic value")
    return Mutant(name, Series.load(outdir), mutated)
