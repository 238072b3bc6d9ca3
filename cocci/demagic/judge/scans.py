# SPDX-License-Identifier: GPL-2.0
"""A tree's candidates judged, and kept by what they were made from, so that an
unchanged tree costs nothing.

The key is the tree's pristine commit (its content, exactly), M=, the macros
asked for, and a digest of demagic's own code and rules: a changed file of
the tree is a new commit, a changed rule or line of Python a new digest, and
either misses.  A scan of a user's KDIR read in place is never cached (only
its pristine copy has a commit that pins its content).
"""

from __future__ import annotations

import functools
import hashlib
import os
from pathlib import Path
from typing import Optional, Sequence

from demagic.core.paths import COCCI
from demagic.core import memo
from demagic.judge.verdicts import judge_all
from demagic.scan.collect import Scan, by_place, collect
from demagic.kernel.grep import Grep
from demagic.core.proc import Progress

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


def judged(root: Path, subdir: Optional[str] = None, macros: Optional[Sequence[str]] = None,
           jobs: int = os.cpu_count() or 1, progress: Optional[Progress] = None,
           grep: Optional[Grep] = None) -> Scan:
    """Every magic number of root (or only macros, in that order), with its evidence and
    its verdict; grep: how root is grepped (default: as it is)."""
    found = collect(root, subdir, list(macros) if macros is not None else None, jobs, progress,
                    grep)
    # the group verdicts read each group in the order the tree found its members
    judge_all(found.cands)
    if macros is None:
        by_place(found.cands)
    return found


def cached(base: str, root: Path, subdir: Optional[str] = None,
           macros: Optional[Sequence[str]] = None, jobs: int = os.cpu_count() or 1,
           progress: Optional[Progress] = None) -> Scan:
    """judged(root, ...) for root holding exactly commit base, from the cache when
    the same scan was made before."""
    progress = progress or Progress(quiet=True)
    name = key(base, subdir, macros)
    found = memo.get_object("scan", name, Scan)
    if found is not None:
        progress.step(f"scan: same tree, rules and code as before, {len(found.cands)} "
                      "candidates from the cache")
        return found
    # root holds base and nothing writes to it during the scan: its greps are base's
    found = judged(root, subdir, macros, jobs, progress, Grep(root, base, frozen=True))
    memo.put_object("scan", name, found)
    return found
