# SPDX-License-Identifier: GPL-2.0
"""make bench (spatch and scan part): each figure beside the previous design, in one run.

For each of Debian's trees, with the tree extracted ("warm"):
- make spatch as it was (targets rewritten one after another, the scan made
  afresh), with the rewrite in parallel only, and as it is (parallel, the scan
  from its cache);
- make scan of the whole tree, cold and from the cache.
Each figure is the median of --repeat runs; the outputs of the runs are
compared, so that a cache or the parallel rewrite that changed a result shows
as a failure here.  Figures are printed, never asserted.
"""

from __future__ import annotations

import argparse
import os
import statistics
import tempfile
import time
from pathlib import Path
from typing import Callable, Dict, List, Optional, Sequence

from demagic import scancache, series, tree as trees
from demagic.proc import DemagicError, Progress

TARGETS = {"linux-6.1": "8 s", "linux-6.12": "20 s"}
SCAN_TARGET = "12 s cold, 2 s cached"


def _median(fn: Callable[[], None], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.monotonic()
        fn()
        times.append(time.monotonic() - start)
    return statistics.median(times)


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


def bench_tree(name: str, jobs: int, repeat: int, out: Path) -> List[str]:
    trees.pristine(None, Progress(quiet=True), name)   # extracted first: the runs are warm
    runs: Dict[str, Path] = {}
    figures = []
    with tempfile.TemporaryDirectory(dir=trees.BUILD) as empty:
        def spatch(label: str, parallel: bool, cold: bool) -> Callable[[], None]:
            def go() -> None:
                if cold:
                    os.environ["DEMAGIC_SCAN_CACHE"] = tempfile.mkdtemp(dir=empty)
                try:
                    series.build(None, out / f"{name}-{label}", [], None, jobs, None,
                                 tree_name=name, parallel=parallel)
                finally:
                    os.environ.pop("DEMAGIC_SCAN_CACHE", None)
            runs[label] = out / f"{name}-{label}"
            return go

        before = _median(spatch("sequential", False, True), repeat)
        par = _median(spatch("parallel", True, True), repeat)
        series.build(None, out / f"{name}-cached", [], None, jobs, None, tree_name=name)  # fill
        cached = _median(spatch("cached", True, False), repeat)
    for label, path in runs.items():
        if not _same(runs["sequential"], path):
            raise DemagicError(f"bench: the {label} series of {name} differs from the "
                               f"sequential one ({path})")
    figures.append(f"make spatch {name} (tree warm), target {TARGETS.get(name, '-')}: "
                   f"sequential, scan afresh {before:6.1f} s | parallel rewrite {par:6.1f} s | "
                   f"parallel, scan cached {cached:6.1f} s | ratio {before / cached:4.1f}x")
    return figures


def bench_scan(name: str, jobs: int, repeat: int) -> str:
    tree = trees.pristine(None, Progress(quiet=True), name)
    with tempfile.TemporaryDirectory(dir=trees.BUILD) as empty:
        def cold() -> None:
            os.environ["DEMAGIC_SCAN_CACHE"] = tempfile.mkdtemp(dir=empty)
            try:
                scancache.collect(tree.base, tree.repo, jobs=jobs)
            finally:
                os.environ.pop("DEMAGIC_SCAN_CACHE", None)
        first = _median(cold, repeat)
        os.environ["DEMAGIC_SCAN_CACHE"] = empty
        try:
            scancache.collect(tree.base, tree.repo, jobs=jobs)
            warm = _median(lambda: scancache.collect(tree.base, tree.repo, jobs=jobs), repeat)
        finally:
            os.environ.pop("DEMAGIC_SCAN_CACHE", None)
    return (f"make scan {name}, whole tree, target {SCAN_TARGET}: cold {first:6.1f} s | "
            f"cached {warm:6.1f} s")


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = argparse.ArgumentParser(prog="demagic bench", description=__doc__)
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--repeat", type=int, default=1, help="runs per figure (median)")
    parser.add_argument("--tree", action="append", choices=sorted(trees.DEBIAN_TREES),
                        help="one of Debian's trees (default: both)")
    args = parser.parse_args(argv)
    names = args.tree or sorted(trees.DEBIAN_TREES)
    out = trees.BUILD / "bench"
    figures = []
    for name in names:
        figures += bench_tree(name, args.jobs, args.repeat, out)
        figures.append(bench_scan(name, args.jobs, args.repeat))
    print(f"bench (-j{args.jobs}, median of {args.repeat}, load average "
          f"{os.getloadavg()[0]:.1f} at the end):")
    for line in figures:
        print("  " + line)
    return 0
