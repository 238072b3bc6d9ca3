# SPDX-License-Identifier: GPL-2.0
"""make bench (spatch and scan part): each figure beside the previous design, in one run.

For each of Debian's trees, with the tree extracted ("warm"):
- make spatch as it was (targets rewritten one after another) and as it is
  (in parallel), both with every cache empty: a first run;
- make spatch after a change to demagic's Python (the scan is made afresh,
  the results of spatch, grep and the tree's scripts are kept), after a change
  to the rewrite rules (the scan and the rewrites afresh), and unchanged;
- make scan of the whole tree: cold, after a change to demagic's Python, cached.
Each run has a cache of its own ($DEMAGIC_CACHE): empty, or a copy of a full
one without what the change makes stale.  Each figure is the median of
--repeat runs; the series of the runs are compared byte for byte, so that a
cache or the parallel rewrite that changed a result shows as a failure here.
Figures are printed, never asserted.
"""

from __future__ import annotations

import argparse
import os
import shutil
import tempfile
from pathlib import Path
from typing import Callable, Dict, List, Optional, Sequence

from demagic.core import paths
from demagic.judge import scans
from demagic.series import build as series
from demagic.kernel import tree as trees
from demagic.core.errors import DemagicError
from demagic.core.proc import Progress
from demagic.core.timing import median_of

TARGETS = {"linux-6.1": "8 s", "linux-6.12": "20 s"}
SCAN_TARGET = "12 s cold, 2 s cached"
# What a change makes stale: a line of demagic's Python, every scan; a rewrite rule,
# the scans and the rewrites.
STALE = {"code": ("scan",), "rule": ("scan", "spatch")}


def _same(a: Path, b: Path) -> bool:
    """The two series are the same, byte for byte, but for the output directory that the
    cover letter names (where verify and boot-test would write their reports) and the
    way its text flows around that name."""
    names = sorted(p.name for p in a.iterdir())
    if names != sorted(p.name for p in b.iterdir()):
        return False

    def text(d: Path, n: str) -> bytes:
        data = (d / n).read_bytes()
        if n.startswith("0000-"):
            data = b" ".join(data.replace(d.name.encode(), b"OUT").split())
        return data
    return all(text(a, n) == text(b, n) for n in names)


class Caches:
    """A cache of its own for each run, under one temporary directory."""

    def __init__(self, top: str) -> None:
        self.top = top
        self.full = Path(tempfile.mkdtemp(dir=top))

    def empty(self) -> str:
        return tempfile.mkdtemp(dir=self.top)

    def without(self, stale: Sequence[str]) -> str:
        """A copy of the full cache without the kinds of entries stale names."""
        copy = Path(tempfile.mkdtemp(dir=self.top)) / "cache"
        shutil.copytree(self.full, copy, ignore=lambda d, names: [
            n for n in names if Path(d) == self.full and n in stale])
        return str(copy)

    def using(self, where: Callable[[], str], fn: Callable[[], None]) -> Callable[[], None]:
        def go() -> None:
            os.environ["DEMAGIC_CACHE"] = where()
            try:
                fn()
            finally:
                os.environ.pop("DEMAGIC_CACHE", None)
        return go


def bench_tree(name: str, jobs: int, repeat: int, out: Path) -> List[str]:
    trees.pristine(None, Progress(quiet=True), name)   # extracted first: the runs are warm
    runs: Dict[str, Path] = {}
    with tempfile.TemporaryDirectory(dir=paths.BUILD) as top:
        caches = Caches(top)

        def spatch(label: str, parallel: bool = True) -> Callable[[], None]:
            runs[label] = out / f"{name}-{label}"

            def run() -> None:
                series.build(None, out / f"{name}-{label}", [], None, jobs, None,
                             tree_name=name, parallel=parallel)
            return run

        before = median_of(caches.using(caches.empty, spatch("sequential", False)), repeat)
        cold = median_of(caches.using(caches.empty, spatch("parallel")), repeat)
        caches.using(lambda: str(caches.full), spatch("fill"))()
        code = median_of(caches.using(lambda: caches.without(STALE["code"]), spatch("code")),
                       repeat)
        rule = median_of(caches.using(lambda: caches.without(STALE["rule"]), spatch("rule")),
                       repeat)
        warm = median_of(caches.using(lambda: str(caches.full), spatch("unchanged")), repeat)
    for label, path in runs.items():
        if not _same(runs["sequential"], path):
            raise DemagicError(f"bench: the {label} series of {name} differs from the "
                               f"sequential one ({path})")
    return [f"make spatch {name} (tree warm), target {TARGETS.get(name, '-')}:",
            f"  every cache empty: one target after another {before:6.1f} s | "
            f"in parallel {cold:6.1f} s",
            f"  after a change to demagic's Python {code:6.1f} s | to a rewrite rule "
            f"{rule:6.1f} s | unchanged {warm:6.1f} s | ratio {before / warm:4.1f}x"]


def bench_scan(name: str, jobs: int, repeat: int) -> str:
    tree = trees.pristine(None, Progress(quiet=True), name)
    results = []

    def scan() -> None:
        results.append(scans.cached(tree.base, tree.repo, jobs=jobs))
    with tempfile.TemporaryDirectory(dir=paths.BUILD) as top:
        caches = Caches(top)
        cold = median_of(caches.using(caches.empty, scan), repeat)
        caches.using(lambda: str(caches.full), scan)()
        code = median_of(caches.using(lambda: caches.without(STALE["code"]), scan), repeat)
        warm = median_of(caches.using(lambda: str(caches.full), scan), repeat)
    if any(r.cands != results[0].cands or r.unparsed != results[0].unparsed for r in results):
        raise DemagicError(f"bench: the scans of {name} differ between cold and cached runs")
    return (f"make scan {name}, whole tree, target {SCAN_TARGET}: cold {cold:6.1f} s | "
            f"after a change to demagic's Python {code:6.1f} s | cached {warm:6.1f} s")


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = argparse.ArgumentParser(prog="demagic bench", description=__doc__)
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--repeat", type=int, default=1, help="runs per figure (median)")
    parser.add_argument("--tree", action="append", choices=sorted(trees.DEBIAN_TREES),
                        help="one of Debian's trees (default: both)")
    args = parser.parse_args(argv)
    names = args.tree or sorted(trees.DEBIAN_TREES)
    out = paths.BUILD / "bench"
    figures = []
    for name in names:
        # the spatch runs use the tree's work copy, which every command shares
        with trees.opened(None, name, "make bench"):
            figures += bench_tree(name, args.jobs, args.repeat, out)
            figures.append(bench_scan(name, args.jobs, args.repeat))
    print(f"bench (-j{args.jobs}, median of {args.repeat}, load average "
          f"{os.getloadavg()[0]:.1f} at the end):")
    for line in figures:
        print("  " + line)
    return 0
