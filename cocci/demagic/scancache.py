# SPDX-License-Identifier: GPL-2.0
"""Scans kept by what they were made from, so that an unchanged tree costs nothing.

The key is the tree's pristine commit (its content, exactly), M=, the macros
asked for, and a digest of demagic's own code and rules: a changed file of
the tree is a new commit, a changed rule or line of Python a new digest, and
either misses.  A scan of a user's KDIR read in place is never cached (only
its pristine copy has a commit that pins its content).
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import os
from pathlib import Path
from typing import Optional, Sequence

from demagic import memo, scan, texts
from demagic.proc import Progress

COCCI = Path(__file__).resolve().parent.parent   # cocci/: the rules and this package
FORMAT = 1


@functools.lru_cache(maxsize=None)
def code_digest() -> str:
    """Everything under cocci/ that a scan's result depends on (tests excluded)."""
    digest = hashlib.sha256(f"format {FORMAT}".encode())
    for path in sorted(COCCI.rglob("*")):
        rel = path.relative_to(COCCI)
        if not path.is_file() or rel.parts[0] == "tests" or "__pycache__" in rel.parts:
            continue
        digest.update(str(rel).encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()


def key(base: str, subdir: Optional[str], macros: Optional[Sequence[str]]) -> str:
    text = "\0".join([base, subdir or "", ",".join(macros) if macros is not None else "*",
                      code_digest()])
    return hashlib.sha256(text.encode()).hexdigest()


def collect(base: str, root: Path, subdir: Optional[str] = None,
            macros: Optional[Sequence[str]] = None, jobs: int = os.cpu_count() or 1,
            progress: Optional[Progress] = None) -> scan.Scan:
    """scan.collect(root, ...) for root holding exactly commit base, from the cache when
    the same scan was made before."""
    progress = progress or Progress(quiet=True)
    name = key(base, subdir, macros)
    found = memo.get_object("scan", name, scan.Scan)
    if found is not None:
        progress.step(f"scan: same tree, rules and code as before, {len(found.cands)} "
                      "candidates from the cache")
        return found
    # root holds base and nothing writes to it during the scan: its greps are base's
    with texts.pristine_greps(root, base, frozen=True) if (root / ".git").exists() \
            else contextlib.nullcontext():
        found = scan.collect(root, subdir, list(macros) if macros is not None else None, jobs,
                             progress)
    memo.put_object("scan", name, found)
    return found
