# SPDX-License-Identifier: GPL-2.0
"""The checkpatch cell: the tree's checkpatch.pl on one patch; errors fail, the rest are listed,
each with its reason (kernel/checkpatch.reason)."""

from __future__ import annotations

from pathlib import Path
from typing import List, Tuple

from demagic.kernel import checkpatch
from demagic.model.reports import CheckpatchFinding as Finding
from demagic.model.reports import Cell, failed, passed


def check(tree: Path, patch: Path) -> Tuple[Cell, List[Finding]]:
    """The cell, and the findings with their reasons (for the row)."""
    if not checkpatch.script(tree).exists():
        return failed("the tree has no scripts/checkpatch.pl"), []
    text = patch.read_text(errors="replace")
    findings = [Finding(f.patch, f.line, f.level, f.type, f.message,
                        checkpatch.reason(text, f.line, f.type, tree))
                for f in checkpatch.check(tree, [patch])[patch]]
    errors = [f"{f}" for f in findings if f.error]
    warnings = [f"{f} ({f.reason})" for f in findings if not f.error]
    if errors:
        return failed(f"{len(errors)} errors, {len(warnings)} warnings", errors + warnings), \
            findings
    return passed(f"no error, {len(warnings)} warnings", warnings), findings
