# SPDX-License-Identifier: GPL-2.0
"""python3 -m qemu bench: a cold and a warm run, a rule change's re-run in both designs, and
the median of repeated boots."""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
from pathlib import Path
from typing import Callable, Dict

from demagic.core.errors import DemagicError
from demagic.core.proc import Progress
from demagic.core.timing import timed
from demagic.kernel import tree as dtree
from demagic.model.series import Series
from qemu import kernel, sync
from qemu.machines import Flavour
from qemu.builds import work_root
from qemu.session import boot_once
from qemu.suite import STATES, Subject, cmd_run, kernels_for

def cmd_bench(args: argparse.Namespace, sub: Subject) -> int:
    """Cold (optional) and warm run times, and the median of repeated boots."""
    tr, series = sub.tree, sub.series
    run_args = argparse.Namespace(kdir=args.kdir, tree=args.tree, series=series.path,
                                  report=None, jobs=args.jobs, flavour=args.flavour,
                                  overlap=True)
    flavour = kernels_for(sub, args.flavour)
    root = work_root(tr, flavour)
    figures: Dict[str, float] = {}
    if args.cold:
        for arch in flavour.archs:
            for stale in [root / arch.name, *root.glob(f"{arch.name}-*")]:
                _remove(stale)
        figures["cold run (build + boot, all kernels, both states)"] = _timed(cmd_run, run_args, sub)
    if not args.boots_only:
        figures["warm re-run (nothing changed)"] = _timed(cmd_run, run_args, sub)
        _forget_after(tr, series, flavour, headers=False)
        figures["re-run after a rule change to the drivers' .c files, each kernel booted "
                "after the builds (the previous design)"] = \
            _timed(cmd_run, argparse.Namespace(**{**vars(run_args), "overlap": False}), sub)
        _forget_after(tr, series, flavour, headers=False)
        figures["re-run after a rule change to the drivers' .c files, each kernel booting "
                "while the next one builds"] = _timed(cmd_run, run_args, sub)
        _forget_after(tr, series, flavour, headers=True)
        figures["re-run after a change to every file of the series (headers too)"] = \
            _timed(cmd_run, run_args, sub)
    progress = Progress(quiet=True)
    for arch in flavour.archs:
        for state in STATES:
            out = root / f"{arch.name}-{state}"
            built = kernel.snapshot(arch, out)
            initrd = out.parent / f"{out.name}-initramfs.cpio"
            if not (built.image.exists() and initrd.exists()):
                raise DemagicError(f"bench: no {arch.name} {state} build in {out}")
            times = [boot_once(built, initrd, state, progress, f"{out.name}-bench-console.log")
                     .boot.seconds for _ in range(args.repeat)]
            figures[f"boot {arch.name} {state} (median of {args.repeat})"] = statistics.median(times)
    for what, secs in figures.items():
        print(f"  {secs:8.1f} s  {what}")
    return 0


def _forget_after(tr: dtree.Tree, series: Series, flavour: Flavour, headers: bool) -> None:
    """What a rule change costs: no kept after kernels, the series' files newer than their objects.

    headers=False: only the .c files the series touches are newer (a change to
    how drivers are rewritten); True: every file, include/linux/*.h too, which
    recompiles most of each kernel.
    """
    root = work_root(tr, flavour)
    for arch in flavour.archs:
        _remove(root / f"{arch.name}-after")
    if headers:
        sync.sync(tr, None, root)
        return
    wt = sync.sync(tr, series, root)
    for rel in sorted(series.touched()):
        if rel.endswith(".c") and (wt / rel).is_file():
            os.utime(wt / rel)


def _timed(fn: Callable[[argparse.Namespace, Subject], int], args: argparse.Namespace,
           sub: Subject) -> float:
    return timed(lambda: fn(args, sub))[0]


def _remove(path: Path) -> None:
    if path.is_dir():
        shutil.rmtree(path)
    else:
        path.unlink(missing_ok=True)
