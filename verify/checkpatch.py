# SPDX-License-Identifier: GPL-2.0
"""The checkpatch cell: the tree's checkpatch.pl on one patch; errors fail, the rest are listed."""

from __future__ import annotations

from pathlib import Path

from demagic.kernel import checkpatch
from demagic.model.reports import Cell, failed, passed


def check(tree: Path, patch: Path) -> Cell:
    if not checkpatch.script(tree).exists():
        return failed("the tree has no scripts/checkpatch.pl")
    findings = checkpatch.check(tree, [patch])[patch]
    errors = [str(f) for f in findings if f.error]
    warnings = [str(f) for f in findings if not f.error]
    if errors:
        return failed(f"{len(errors)} errors, {len(warnings)} warnings", errors + warnings)
    return passed(f"no error, {len(warnings)} warnings", warnings)
