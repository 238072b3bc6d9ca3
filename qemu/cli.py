# SPDX-License-Identifier: GPL-2.0
"""python3 -m qemu run|mutant|bench: the demagic boot suite."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Callable, Dict, Optional, Sequence

from demagic.core.proc import cap_jobs, guarded
from demagic.kernel import tree as dtree
from qemu.bench import cmd_bench
from qemu.machines import FLAVOURS
from qemu.suite import Subject, cmd_mutant, cmd_run, given_series, resolve, tree_name

def add_tree_opts(p: argparse.ArgumentParser) -> None:
    p.add_argument("--kdir", type=Path, help="your own kernel tree")
    p.add_argument("--tree", help="without --kdir, one of Debian's trees (default: the series')")
    p.add_argument("--series", type=Path, help="format-patch directory (default: generated-patches/<tree>)")
    p.add_argument("--jobs", type=int, default=2, help="make -j (default 2)")
    p.add_argument("--flavour", choices=sorted(FLAVOURS), default="plain",
                   help="plain kernels (default), or debug: KASAN, lockdep, debug objects")


def parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(prog="python3 -m qemu", description=__doc__)
    sub = ap.add_subparsers(dest="cmd", required=True)
    run = sub.add_parser("run", help="build, boot and test before and after the series")
    add_tree_opts(run)
    run.add_argument("--report", type=Path, help="Markdown report (default build/qemu/<tree>/report.md)")
    run.set_defaults(overlap=True)      # False only in bench: the boots after the builds
    mut = sub.add_parser("mutant", help="the tests must catch deliberately wrong series")
    add_tree_opts(mut)
    bench = sub.add_parser("bench", help="print build and boot times")
    add_tree_opts(bench)
    bench.add_argument("--cold", action="store_true", help="also time a run from no build dirs")
    bench.add_argument("--repeat", type=int, default=3, help="boots per kernel (default 3)")
    bench.add_argument("--boots-only", action="store_true", help="only time boots of existing builds")
    return ap


HANDLERS: Dict[str, Callable[[argparse.Namespace, Subject], int]] = {
    "run": cmd_run, "mutant": cmd_mutant, "bench": cmd_bench,
}


def main(argv: Optional[Sequence[str]] = None) -> int:
    args = parser().parse_args(argv)

    def body() -> int:
        args.jobs = cap_jobs(args.jobs)
        given = given_series(args)
        name = tree_name(args, given)
        with dtree.opened(args.kdir, name, f"boot-test {args.cmd}"):
            return HANDLERS[args.cmd](args, resolve(args, given))
    return guarded("qemu", body, "no guest or compiler left running")
