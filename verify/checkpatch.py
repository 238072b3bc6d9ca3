# SPDX-License-Identifier: GPL-2.0
"""scripts/checkpatch.pl on one patch: errors fail, warnings are reported."""

from __future__ import annotations

import re
from pathlib import Path
from typing import List, Optional, Tuple

from demagic.core.proc import run
from verify.matrix import Cell, failed, passed

LINE_RE = re.compile(r"^(?:\S*:\d+: )?(ERROR|WARNING|CHECK):(?:[A-Z_0-9]+:)? ?(.*)$")


def parse(text: str, patch: Optional[Path] = None) -> Tuple[List[str], List[str]]:
    """(errors, warnings and checks) of checkpatch --terse output.

    checkpatch names the patch by the path it was given; each line names it
    by its file name instead, so a report reads the same from any checkout.
    """
    errors: List[str] = []
    warnings: List[str] = []
    for raw in text.splitlines():
        line = raw.strip()
        match = LINE_RE.match(line)
        if not match:
            continue
        if patch is not None and line.startswith(f"{patch}:"):
            line = patch.name + line[len(str(patch)):]
        kind = match.group(1)
        (errors if kind == "ERROR" else warnings).append(line)
    return errors, warnings


def check(tree: Path, patch: Path) -> Cell:
    path = patch.resolve()
    res = run(["perl", str(tree / "scripts/checkpatch.pl"), "--root", str(tree), "--terse",
               "--no-summary", "--show-types", str(path)], cwd=tree, check=False)
    errors, warnings = parse(res.stdout + res.stderr, path)
    if res.returncode != 0 and not errors and not warnings:
        return failed("checkpatch.pl did not run", (res.stdout + res.stderr).splitlines()[-5:])
    if errors:
        return failed(f"{len(errors)} errors, {len(warnings)} warnings", errors + warnings)
    return passed(f"no error, {len(warnings)} warnings", warnings)
