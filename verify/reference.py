# SPDX-License-Identifier: GPL-2.0
"""Compare a patch with its upstream counterpart: same files, same lines out and in.

Lines are compared whitespace-normalised (runs of blanks become one space,
none is kept next to punctuation, ends stripped) and as multisets per file, so that context, line numbers and
hunk boundaries, which differ between trees, do not matter.  Differences in
code are a failure; a trailing comment on a C line that only one side has is
listed but passes; differences in Documentation/ are listed but pass, since
the documentation tables a series edits depend on which rows the series (and
upstream) removed before.
"""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path
from typing import Dict, List, Optional, Sequence

from demagic.model.reports import Cell, failed, not_applicable, passed
from demagic.model.patches import Patch, magic_names, parse_file


def normalise(line: str) -> str:
    """Blanks collapsed, and dropped next to punctuation: `cp -> busy` is `cp->busy`."""
    return re.sub(r" ?([^\w ]) ?", r"\1", " ".join(line.split()))


def norm_subject(subject: str) -> str:
    return normalise(subject).lower()


def load(ref: Path) -> List[Patch]:
    """Every parseable *.patch of the reference directory."""
    out = []
    for path in sorted(ref.glob("*.patch")):
        try:
            out.append(parse_file(path))
        except Exception:  # noqa: BLE001 - a reference file that is not a patch is skipped
            continue
    return out


def counterpart(patch: Patch, refs: Sequence[Patch]) -> Optional[Patch]:
    """The upstream patch with the same subject, else the one naming the same magic."""
    for ref in refs:
        if norm_subject(ref.subject) == norm_subject(patch.subject):
            return ref
    names = magic_names(patch.subject)
    if names:
        for ref in refs:
            if names & magic_names(ref.subject):
                return ref
    return None


TRAILING_COMMENT = re.compile(r"\s*/\*.*\*/\s*$")


def _lines(patch: Patch, code_only: bool = False) -> Dict[str, Dict[str, Counter[str]]]:
    """Changed lines by file and tag; code_only drops a trailing comment of C lines."""
    out: Dict[str, Dict[str, Counter[str]]] = {}
    for fdiff in patch.files:
        per = out.setdefault(fdiff.path, {"-": Counter(), "+": Counter()})
        for ln in fdiff.lines:
            line = ln.text
            if code_only and fdiff.path.endswith((".c", ".h")):
                line = TRAILING_COMMENT.sub("", line)
            text = normalise(line)
            if text:
                per[ln.tag][text] += 1
    return out


def differences(ours: Patch, theirs: Patch, code_only: bool = False) -> List[str]:
    """Each difference, one line: a file only one side touches, or a line only one has."""
    mine, other = _lines(ours, code_only), _lines(theirs, code_only)
    out = []
    for path in sorted(set(mine) | set(other)):
        if path not in other:
            out.append(f"{path}: only in ours")
            continue
        if path not in mine:
            out.append(f"{path}: only upstream")
            continue
        for tag in ("-", "+"):
            for text, count in sorted((mine[path][tag] - other[path][tag]).items()):
                out += [f"{path}: ours only: {tag}{text}"] * count
            for text, count in sorted((other[path][tag] - mine[path][tag]).items()):
                out += [f"{path}: upstream only: {tag}{text}"] * count
    return out


def compare(patch: Patch, refs: Optional[Sequence[Patch]], ref_dir: str) -> Cell:
    if refs is None:
        return not_applicable(f"no reference directory ({ref_dir})")
    theirs = counterpart(patch, refs)
    if theirs is None:
        return not_applicable("no upstream counterpart")
    diffs = differences(patch, theirs)
    code = [d for d in differences(patch, theirs, code_only=True)
            if not d.startswith("Documentation/")]
    comments = [d for d in diffs if not d.startswith("Documentation/")] if not code else []
    docs = len([d for d in diffs if d.startswith("Documentation/")])
    where = f"vs {theirs.name}"
    if code:
        return failed(f"{len(code)} code differences {where}"
                      + (f", {docs} in Documentation" if docs else ""), diffs)
    notes = ([f"{len(comments)} lines differ in a trailing comment only"] if comments else []) + \
        ([f"{docs} differences in Documentation"] if docs else [])
    if notes:
        return passed(f"same code {where}; " + "; ".join(notes), diffs)
    return passed(f"identical lines {where}")


def ref_label(ref: Optional[Path]) -> str:
    return str(ref) if ref else "none"

