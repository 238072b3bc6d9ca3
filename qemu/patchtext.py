# SPDX-License-Identifier: GPL-2.0
"""git format-patch text: files touched, and hunks that can be rewritten and recounted."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Callable, List, Optional, Tuple

DIFF_GIT = re.compile(r"^diff --git a/(\S+) b/(\S+)$", re.M)
HUNK = re.compile(r"^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@(.*)$")


class PatchError(Exception):
    """The text is not a patch this module can rewrite."""


@dataclass
class Hunk:
    old_start: int
    section: str                 # text after the second @@
    lines: List[str] = field(default_factory=list)   # with their ' ', '-', '+' or '\\'


@dataclass
class FileDiff:
    header: List[str]            # diff --git, index, ---, +++
    path: str
    hunks: List[Hunk] = field(default_factory=list)


@dataclass
class Patch:
    head: List[str]              # mail header and commit message, up to the first diff
    files: List[FileDiff]
    tail: List[str]              # the "-- " signature and after


def touched(text: str) -> List[str]:
    """The paths a patch changes (the b/ side)."""
    return [m.group(2) for m in DIFF_GIT.finditer(text)]


def parse(text: str) -> Patch:
    lines = text.split("\n")
    patch = Patch([], [], [])
    cur: Optional[FileDiff] = None
    hunk: Optional[Hunk] = None
    old = new = 0    # lines the current hunk still has, by its header
    for i, line in enumerate(lines):
        m = DIFF_GIT.match(line)
        h = HUNK.match(line)
        if hunk is not None and (old > 0 or new > 0):
            body = line if line else " "   # an empty context line some tools strip
            if body[:1] not in (" ", "-", "+", "\\"):
                raise PatchError(f"line {i + 1}: hunk ends early")
            hunk.lines.append(body)
            old -= body[:1] in (" ", "-")
            new -= body[:1] in (" ", "+")
        elif hunk is not None and line.startswith("\\"):
            hunk.lines.append(line)
        elif m:
            cur = FileDiff([line], m.group(2))
            patch.files.append(cur)
            hunk = None
        elif cur is None:
            patch.head.append(line)
        elif h:
            hunk = Hunk(int(h.group(1)), h.group(5))
            old, new = int(h.group(2) or 1), int(h.group(4) or 1)
            cur.hunks.append(hunk)
        elif line == "-- " or hunk is not None:
            patch.tail = lines[i:]
            break
        else:
            cur.header.append(line)
    if not patch.files:
        raise PatchError("no 'diff --git' in the patch")
    return patch


# A rewriter sees one removed line of a hunk and returns (keep the removal,
# replacement lines to add); lines it does not keep stay as context.
Rewriter = Callable[[str], Tuple[bool, List[str]]]


def _rewrite_hunk(hunk: Hunk, rewrite: Rewriter) -> Optional[Hunk]:
    out = Hunk(hunk.old_start, hunk.section)
    changed = False
    for line in hunk.lines:
        tag, body = line[:1], line[1:]
        if tag == "+":
            continue
        if tag == "-":
            keep, added = rewrite(body)
            if keep:
                out.lines.append(line)
                out.lines.extend("+" + a for a in added)
                changed = True
                continue
            out.lines.append(" " + body)
        elif tag == "\\":
            continue
        else:
            out.lines.append(line)
    return out if changed else None


def _counts(hunk: Hunk) -> Tuple[int, int]:
    old = sum(1 for ln in hunk.lines if ln[:1] in (" ", "-"))
    new = sum(1 for ln in hunk.lines if ln[:1] in (" ", "+"))
    return old, new


def rewrite(patch: Patch, rewrite_line: Rewriter) -> Optional[str]:
    """The patch with only what rewrite_line keeps or adds, recounted; None if nothing is left."""
    files = []
    for fd in patch.files:
        hunks = [h for h in (_rewrite_hunk(h, rewrite_line) for h in fd.hunks) if h]
        if hunks:
            files.append((fd, hunks))
    if not files:
        return None
    out = list(patch.head)
    for fd, hunks in files:
        out.extend(ln for ln in fd.header if not ln.startswith("index "))
        offset = 0
        for h in hunks:
            old, new = _counts(h)
            out.append(f"@@ -{h.old_start},{old} +{h.old_start + offset},{new} @@{h.section}")
            out.extend(h.lines)
            offset += new - old
    out.extend(patch.tail or ["-- ", "demagic mutant", ""])
    return "\n".join(out)
