# SPDX-License-Identifier: GPL-2.0
"""The tree's scripts/checkpatch.pl on patches: what it finds, one record per finding.

The series writer (errors stop it), check-mail (--strict, each finding with
its reason) and verify (a cell per patch) all read checkpatch through here.
A script that does not run is an error that names it, never an empty report.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Dict, List, Sequence

from demagic.core.errors import DemagicError
from demagic.core.proc import run
from demagic.model.reports import CheckpatchFinding as Finding

FINDING_RX = re.compile(r"^(?P<file>[^:]+):(?P<line>\d+): (?P<level>ERROR|WARNING|CHECK):"
                        r"(?P<type>\w+): (?P<msg>.*)$")


def script(tree: Path) -> Path:
    return tree / "scripts" / "checkpatch.pl"


def check(tree: Path, patches: Sequence[Path], strict: bool = False) -> Dict[Path, List[Finding]]:
    """checkpatch.pl of tree (run in it) on each patch: its findings, in the script's order.

    A tree without the script has none to report (see script()); a script that
    exits otherwise than 0 (clean) or 1 (findings), or says it found something
    and reports nothing, is a DemagicError naming it."""
    found: Dict[Path, List[Finding]] = {p: [] for p in patches}
    if not patches or not script(tree).exists():
        return found
    paths = {str(p.resolve()): p for p in patches}      # the script runs in the tree
    res = run(["perl", str(script(tree)), "--no-color", "--no-summary", "--terse",
               "--show-types", *(["--strict"] if strict else []), *paths], cwd=tree,
              check=False)
    count = 0
    for line in res.stdout.splitlines():
        m = FINDING_RX.match(line.strip())
        if m and m.group("file") in paths:
            patch = paths[m.group("file")]
            found[patch].append(Finding(patch.name, int(m.group("line")), m.group("level"),
                                        m.group("type"), m.group("msg")))
            count += 1
    if res.returncode not in (0, 1) or (res.returncode == 1 and not count):
        why = (res.stderr or res.stdout).strip().splitlines()
        raise DemagicError(f"scripts/checkpatch.pl exited {res.returncode} on "
                           f"{', '.join(p.name for p in patches[:3])}"
                           f"{' ...' if len(patches) > 3 else ''}: "
                           f"{why[-1][:200] if why else 'no message'}")
    return found


def _patch_line(text: str, number: int) -> str:
    lines = text.split("\n")
    return lines[number - 1] if 0 < number <= len(lines) else ""


def reason(text: str, number: int, kind: str, work: Path) -> str:
    """Why a checkpatch warning on line number of a patch is acceptable, or why not."""
    line = _patch_line(text, number)
    if kind == "FILE_PATH_CHANGES":
        deleted = re.findall(r"^--- a/(\S+)\n\+\+\+ /dev/null", text, re.M)
        named = [p for p in deleted if p in (work / "MAINTAINERS").read_text(errors="replace")]
        return ("the patch deletes " + ", ".join(deleted[:2]) + (" ..." if len(deleted) > 2 else "")
                + ("; MAINTAINERS names none of them" if not named
                   else f"; MAINTAINERS still names {named[0]}: new"))
    if line.startswith("+"):
        # the removed line this one replaces: the nearest '-' line above it in the hunk
        lines = text.split("\n")
        k = number - 2
        while k >= 0 and lines[k].startswith("+"):
            k -= 1
        old = lines[k] if k >= 0 and lines[k].startswith("-") else ""
        new = line[1:].strip()
        if old and _same_fault(old[1:], new, kind):
            return "inherited: the line the patch changes had it already"
    return "new in this patch"


def _same_fault(old: str, new: str, kind: str) -> bool:
    """The removed line shows the same fault as the added one (what checkpatch saw)."""
    probes = {"COMPARISON_TO_NULL": r"[!=]=\s*NULL|NULL\s*[!=]=", "AVOID_BUG": r"\bBUG(?:_ON)?\s*\(",
              "SPACING": r"\S", "LINE_SPACING": r"\S"}
    rx = probes.get(kind)
    return bool(rx) and bool(re.search(rx, old)) and bool(re.search(rx, new))
