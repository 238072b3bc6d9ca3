# SPDX-License-Identifier: GPL-2.0
"""Worktrees for the boot builds that keep the mtime of every file whose content did not change.

demagic.tree.worktree() resets a worktree to pristine and applies the
series again, so each file the series touches is rewritten on every run.
Restoring the old mtime of files that end up identical keeps O= builds
incremental: only what the series (or a rule change) really altered rebuilds.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path
from typing import Dict, Optional, Tuple

from demagic.kernel import tree as dtree
from demagic.model.series import Series


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def sync(tr: dtree.Tree, series: Optional[Series], state: Path) -> Path:
    """worktree(tr, series), with unchanged files keeping their mtime."""
    record = state / "worktree.files"
    touched = series.touched() if series is not None else set()
    paths = set(touched)
    if record.exists():
        paths |= set(record.read_text().split())
    wt = dtree.work_path(tr.name)
    old: Dict[str, Tuple[str, int]] = {}
    for rel in paths:
        path = wt / rel
        if path.is_file():
            old[rel] = (_digest(path), path.stat().st_mtime_ns)
    path = dtree.worktree(tr, series)
    for rel, (digest, mtime) in old.items():
        f = path / rel
        if f.is_file() and _digest(f) == digest:
            os.utime(f, ns=(mtime, mtime))
    state.mkdir(parents=True, exist_ok=True)
    record.write_text("\n".join(sorted(touched)) + "\n")
    return path
