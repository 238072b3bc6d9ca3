# SPDX-License-Identifier: GPL-2.0
"""scripts/checkpatch.pl on one patch: errors fail, warnings are reported."""

from __future__ import annotations

import re
from pathlib import Path
from typing import List, Tuple

from demagic.proc import run
from verify.matrix import Cell, failed, passed

LINE_RE = re.compile(r"^(?:\S*:\d+: )?(ERROR|WARNING|CHECK):(?:[A-Z_0-9]+:)? ?(.*)$")


def parse(text: str) -> Tuple[List[str], List[str]]:
    """(errors, warnings and checks) of checkpatch --terse output."""
    errors: List[str] = []
    warnings: List[str] = []
    for line in text.splitlines():
        match = LINE_RE.match(line.strip())
        if not match:
            continue
        kind = match.group(1)
        (errors if kind == "ERROR" else warnings).append(line.strip())
    return errors, warnings


def check(tree: Path, patch: Path) -> Cell:
    res = run(["perl", str(tree / "scripts/checkpatch.pl"), "--root", str(tree), "--terse",
               "--no-summary", "--show-types", str(patch.resolve())], cwd=tree, check=False)
    errors, warnings = parse(res.stdout + res.stderr)
    if res.returncode != 0 and not errors and not warnings:
        return failed("checkpatch.pl did not run", (res.stdout + res.stderr).splitlines()[-5:])
    if errors:
        return failed(f"{len(errors)} errors, {len(warnings)} warnings", errors + warnings)
    return passed(f"no error, {len(warnings)} warnings", warnings)
