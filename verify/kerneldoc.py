# SPDX-License-Identifier: GPL-2.0
"""The kernel-doc cell: the tree's scripts/kernel-doc -none on the C files a patch touches,
before and after it; a warning the patch adds (an orphaned @magic: line) fails it.

Older trees' kernel-doc (6.1's among them) does not warn about a struct member that
is described but not declared; for the members the patch removes, the same check
is made here, so that an orphaned @member: line fails the patch on every tree."""

from __future__ import annotations

import re
from pathlib import Path
from typing import List, Sequence, Set, Tuple

from demagic.core.errors import DemagicError
from demagic.core.proc import run
from demagic.kernel.cparse import blank_strings, closing
from demagic.model.patches import Removed
from demagic.model.reports import Cell, failed, not_applicable, passed

SCRIPT = Path("scripts") / "kernel-doc"
WARNING_RX = re.compile(r"^(?P<file>[^:\s]+):(?P<line>\d+): (?P<text>(?:warning|error): .*)$")

Warning = Tuple[str, str]     # (file, message) with the line number left out: lines move


def files_of(paths: Sequence[str]) -> List[str]:
    """The paths kernel-doc reads: C sources and headers."""
    return [p for p in paths if p.endswith((".c", ".h"))]


def warnings(tree: Path, paths: Sequence[str], removed: Sequence[Removed] = ()) -> Set[Warning]:
    """kernel-doc -none's warnings for the files of paths that exist in tree, with the
    descriptions of removed members that their struct no longer declares."""
    present = [p for p in files_of(paths) if (tree / p).is_file()]
    if not present:
        return set()
    return _script(tree, present) | orphans(tree, present, removed)


def _doc_rx(struct: str, member: str) -> "re.Pattern[str]":
    """A kernel-doc comment of struct that describes member, up to the struct's brace."""
    return re.compile(r"/\*\*\s*\n\s*\*\s*struct\s+" + re.escape(struct) + r"\b"
                      r"(?:(?!\*/).)*?^\s*\*\s*@" + re.escape(member) + r"\s*:"
                      r"(?:(?!\*/).)*\*/\s*(?:typedef\s+)?struct\s+" + re.escape(struct)
                      + r"\s*\{", re.S | re.M)


def orphans(tree: Path, present: Sequence[str], removed: Sequence[Removed]) -> Set[Warning]:
    """The kernel-doc lines of removed members whose struct, just below, no longer
    declares them."""
    out: Set[Warning] = set()
    fields = [r for r in removed if r.kind == "field"]
    for path in present if fields else []:
        code = (tree / path).read_text(errors="replace")
        for r in fields:
            for m in _doc_rx(r.struct, r.name).finditer(code):
                body = blank_strings(code[m.end() - 1:closing(code, m.end() - 1)])
                if not re.search(r"\b" + re.escape(r.name) + r"\b", body):
                    out.add((path, f"warning: struct {r.struct}'s kernel-doc describes "
                                   f"@{r.name}, which it no longer declares"))
    return out


def _script(tree: Path, present: Sequence[str]) -> Set[Warning]:
    """What the tree's own kernel-doc -none says of the files present."""
    if not (tree / SCRIPT).is_file():
        raise DemagicError(f"the tree has no {SCRIPT}: cannot check kernel-doc")
    res = run(["perl", str(SCRIPT), "-none", *present], cwd=tree, check=False)
    if res.returncode != 0:         # -none without -Werror exits 0 whatever it warns of
        why = res.stderr.strip().splitlines()
        raise DemagicError(f"{SCRIPT} failed (exit {res.returncode}) on {', '.join(present)}: "
                           f"{why[-1] if why else 'no message'}")
    out: Set[Warning] = set()
    for line in (res.stderr + res.stdout).splitlines():
        m = WARNING_RX.match(line.strip())
        if m:
            out.add((m.group("file"), m.group("text")))
    return out


def cell(paths: Sequence[str], before: Set[Warning], after: Set[Warning]) -> Cell:
    files = files_of(paths)
    if not files:
        return not_applicable("touches no C source or header")
    new = sorted(after - before)
    if new:
        return failed(f"{len(new)} new kernel-doc warning{'s' if len(new) > 1 else ''}",
                      [f"{f}: {text}" for f, text in new])
    many = "s" if len(files) > 1 else ""
    if not after:
        return passed(f"no warning in {len(files)} file{many}")
    gone = len(before - after)
    return passed(f"no new warning in {len(files)} file{many}: the {len(after)} left were "
                  "there before" + (f", and {gone} went" if gone else ""), sorted(
                      f"{f}: {text}" for f, text in after))
