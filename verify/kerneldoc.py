# SPDX-License-Identifier: GPL-2.0
"""The kernel-doc cell: the tree's scripts/kernel-doc -none on the C files a patch touches,
before and after it; a warning the patch adds (an orphaned @magic: line) fails it."""

from __future__ import annotations

import re
from pathlib import Path
from typing import List, Sequence, Set, Tuple

from demagic.core.errors import DemagicError
from demagic.core.proc import run
from demagic.model.reports import Cell, failed, not_applicable, passed

SCRIPT = Path("scripts") / "kernel-doc"
WARNING_RX = re.compile(r"^(?P<file>[^:\s]+):(?P<line>\d+): (?P<text>(?:warning|error): .*)$")

Warning = Tuple[str, str]     # (file, message) with the line number left out: lines move


def files_of(paths: Sequence[str]) -> List[str]:
    """The paths kernel-doc reads: C sources and headers."""
    return [p for p in paths if p.endswith((".c", ".h"))]


def warnings(tree: Path, paths: Sequence[str]) -> Set[Warning]:
    """kernel-doc -none's warnings for the files of paths that exist in tree."""
    present = [p for p in files_of(paths) if (tree / p).is_file()]
    if not present:
        return set()
    if not (tree / SCRIPT).is_file():
        raise DemagicError(f"the tree has no {SCRIPT}: cannot check kernel-doc")
    res = run(["perl", str(SCRIPT), "-none", *present], cwd=tree, check=False)
    if res.returncode not in (0, 1) and not res.stderr.strip():
        raise DemagicError(f"{SCRIPT} failed (exit {res.returncode}) on {', '.join(present)}")
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
