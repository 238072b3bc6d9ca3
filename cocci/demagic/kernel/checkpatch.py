# SPDX-License-Identifier: GPL-2.0
"""The tree's scripts/checkpatch.pl on patches: what it finds, one record per finding.

The series writer (errors stop it), check-mail (--strict, each finding with
its reason) and verify (a cell per patch) all read checkpatch through here.
A script that does not run is an error that names it, never an empty report.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Dict, List, Sequence

from demagic.core.errors import DemagicError
from demagic.core.proc import run

FINDING_RX = re.compile(r"^(?P<file>[^:]+):(?P<line>\d+): (?P<level>ERROR|WARNING|CHECK):"
                        r"(?P<type>\w+): (?P<msg>.*)$")


@dataclass(frozen=True)
class Finding:
    """One line of checkpatch's report on a patch."""
    patch: str         # the patch's file name
    line: int          # in the patch file
    level: str         # ERROR, WARNING or CHECK
    type: str          # AVOID_BUG, FILE_PATH_CHANGES, ...
    message: str

    def __str__(self) -> str:
        return f"{self.patch}:{self.line}: {self.level}:{self.type}: {self.message}"

    @property
    def error(self) -> bool:
        return self.level == "ERROR"

    def to_json(self) -> Dict[str, Any]:
        return {"patch": self.patch, "line": self.line, "level": self.level, "type": self.type,
                "message": self.message}

    @staticmethod
    def from_json(data: Dict[str, Any]) -> "Finding":
        return Finding(data["patch"], data["line"], data["level"], data["type"], data["message"])


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
