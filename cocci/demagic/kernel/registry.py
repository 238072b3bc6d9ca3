# SPDX-License-Identifier: GPL-2.0
"""The registry of magic numbers (magic-number.rst) and its translations, wherever the
tree keeps them (Documentation/process/ until 6.1, Documentation/staging/ later)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import List, Optional, Sequence

NAME = "magic-number.rst"
ROW = re.compile(r"^([A-Z][A-Z0-9_]*)\s+(\S+)\s+(\S+)\s+``([^`]+)``\s*$")


@dataclass(frozen=True)
class Entry:
    """One row of the registry table."""
    macro: str
    number: str
    structure: str
    file: str


def files(tree: Path) -> List[str]:
    """The registry first, then its translations, relative to the tree top; [] if none."""
    docs = tree / "Documentation"
    if not docs.is_dir():
        return []
    found = sorted(str(p.relative_to(tree)) for p in docs.rglob(NAME))
    main = [f for f in found if "/translations/" not in f]
    if not main:
        return []
    return main[:1] + [f for f in found if "/translations/" in f]


def entries(tree: Path) -> List[Entry]:
    """The rows of the registry, in table order; [] when the tree has none."""
    paths = files(tree)
    if not paths:
        return []
    out = []
    for line in (tree / paths[0]).read_text(errors="replace").splitlines():
        m = ROW.match(line)
        if m:
            out.append(Entry(*m.groups()))
    return out


def drop_rows(tree: Path, macros: List[str], paths: Optional[Sequence[str]] = None) -> List[str]:
    """Remove the rows of macros from the registry and translations (paths, when the
    caller has them from files())."""
    changed = []
    for rel in files(tree) if paths is None else paths:
        path = tree / rel
        lines = path.read_text().splitlines(keepends=True)
        kept = [l for l in lines if not ((m := ROW.match(l.rstrip("\n"))) and m.group(1) in macros)]
        if kept != lines:
            path.write_text("".join(kept))
            changed.append(rel)
    return changed


def remove_all(tree: Path) -> List[str]:
    """Delete the registry files and their entries in the index.rst beside them."""
    changed = []
    for rel in files(tree):
        path = tree / rel
        index = path.parent / "index.rst"
        path.unlink()
        changed.append(rel)
        if index.exists():
            lines = index.read_text().splitlines(keepends=True)
            kept = [l for l in lines if l.strip() != "magic-number"]
            if kept != lines:
                index.write_text("".join(kept))
                changed.append(str(index.relative_to(tree)))
    return changed
