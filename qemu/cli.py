# SPDX-License-Identifier: GPL-2.0
"""python3 -m qemu run|mutant|bench: the demagic boot suite."""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Dict, List, Optional, Sequence

from demagic import lock, tree as dtree
from demagic.patches import series_digest
from demagic.proc import CHILDREN, DemagicError, Progress, UsageError, cap_jobs
from qemu import boot, coverage, initramfs, kernel, ktap, mutant, trees
from qemu.archs import ARCHS, Arch

REPO = dtree.REPO_ROOT
STATES = ("before", "after")
BOOT_WORKTREE = "boot"


@dataclass
class Outcome:
    """One boot of one kernel: its tests' results and the console's crash lines."""
    state: str
    arch: Arch
    results: List[ktap.Result]
    crashes: List[str]
    boot: boot.BootResult

    @property
    def ok(self) -> bool:
        return ktap.passed(self.results, self.crashes) and not self.boot.timed_out


def work_root(tr: dtree.Tree) -> Path:
    return dtree.BUILD / "qemu" / tr.name


def default_series(tr: dtree.Tree) -> Path:
    return REPO / "generated-patches" / tr.name


def build_kernels(tr: dtree.Tree, series: Optional[Path], label: str, jobs: int,
                  progress: Progress) -> List[kernel.Build]:
    """Every arch's kernel for the tree with series applied (None: pristine), kept as <arch>-<label>.

    A kept kernel made from the same inputs is reused; the others are built
    incrementally in the arch's one O= directory, from whatever state it holds.
    """
    builds, todo = {}, []
    for arch in ARCHS:
        dest = work_root(tr) / f"{arch.name}-{label}"
        key = kernel.inputs_key(tr.base, series, arch)
        hit = kernel.cached(arch, dest, key)
        if hit:
            progress.step(f"{label}: {arch.name} kernel unchanged, kept in {dest}")
            builds[arch.name] = hit
        else:
            todo.append((arch, dest, key))
    if todo:
        src = trees.sync(tr, BOOT_WORKTREE, series, work_root(tr))
        for arch, dest, key in todo:
            out = work_root(tr) / arch.name
            progress.step(f"{label}: building {arch.name} kernel in {out}")
            builds[arch.name] = kernel.build(src, out, arch, jobs, dest, key)
    return [builds[arch.name] for arch in ARCHS]


def boot_all(tr: dtree.Tree, builds: Sequence[kernel.Build], label: str,
             progress: Progress) -> List[Outcome]:
    return [boot_once(b, initramfs.build(b, tr.repo, dtree.BUILD / "qemu"), label, progress)
            for b in builds]


def boot_once(built: kernel.Build, initrd: Path, label: str, progress: Progress,
              log_name: str = "") -> Outcome:
    arch = built.arch
    names = [t.name for t in arch.tests]
    devices = _dedupe_pairs([d for t in arch.tests for d in t.devices])
    log = built.out.parent / (log_name or f"{built.out.name}-{label}-console.log")
    progress.step(f"{label}: booting {arch.name} ({', '.join(names)})")
    argv = boot.qemu_argv(arch, built.image, initrd, names, devices)
    res = boot.boot(argv, log, hard_cap=len(names) * boot.GUEST_TIMEOUT + boot.BOOT_SLACK)
    results, crashes = ktap.parse(res.console, names)
    return Outcome(label, arch, results, crashes, res)


def _dedupe_pairs(args: List[str]) -> List[str]:
    """QEMU options given by several tests, once each (they come as option, value)."""
    pairs, seen = [], set()
    for opt, val in zip(args[::2], args[1::2]):
        if (opt, val) not in seen:
            seen.add((opt, val))
            pairs += [opt, val]
    return pairs


def result_lines(outcomes: Sequence[Outcome]) -> List[str]:
    lines = []
    for o in outcomes:
        for r in o.results:
            lines.append(f"  {r.status.value:8} {o.state:16} {o.arch.name:7} {r.name}")
            for s in r.subtests:
                if s.status is not ktap.Status.PASS:
                    lines.append(f"  {'':8} {'':16} {'':7}   {s.status.value}: {s.name}")
        for c in o.crashes[:5]:
            lines.append(f"  {'crash':8} {o.state:16} {o.arch.name:7} {c.strip()}")
        if o.boot.timed_out:
            lines.append(f"  {'timeout':8} {o.state:16} {o.arch.name:7} {o.boot.timed_out}")
    return lines


def report(outcomes: Sequence[Outcome], rows: Sequence[coverage.Row], series: Path) -> str:
    shown = series.relative_to(REPO) if series.is_relative_to(REPO) else series
    out = ["# demagic boot test", "", f"Series: `{shown}`", "",
           "| state | arch | test | result | boot s |", "|---|---|---|---|---|"]
    for o in outcomes:
        for r in o.results:
            out.append(f"| {o.state} | {o.arch.name} | {r.name} | {r.status.value} | "
                       f"{o.boot.seconds:.1f} |")
    out += ["", "## Coverage", "", coverage.markdown(rows)]
    for o in outcomes:
        if not o.ok:
            out += [f"- {o.state} {o.arch.name}: console log `{o.boot.log}`"]
    return "\n".join(out) + "\n"


def write_atomic(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    tmp.write_text(text)
    tmp.rename(path)


def resolve(args: argparse.Namespace) -> tuple[dtree.Tree, Path, List[Path]]:
    name = dtree.check_tree_name(args.tree) if args.tree else \
        dtree.tree_of_series(args.series) if args.series else dtree.DEFAULT_NAME
    tr = dtree.pristine(args.kdir, tree_name=name)
    series = (args.series or default_series(tr)).resolve()
    patches = dtree.series_patches(series)
    if not patches:
        raise UsageError(f"SERIES={series}: no numbered patches")
    return tr, series, patches


def cmd_run(args: argparse.Namespace) -> int:
    progress = Progress()
    tr, series, patches = resolve(args)
    outcomes: List[Outcome] = []
    kernels = {state: build_kernels(tr, series if state == "after" else None, state,
                                    args.jobs, progress) for state in STATES}
    for state in STATES:
        outcomes += boot_all(tr, kernels[state], state, progress)
    rows = coverage.table(patches)
    print("\n".join(result_lines(outcomes)))
    print("coverage:")
    print(coverage.text(rows), end="")
    dest = args.report or work_root(tr) / "report.md"
    markdown = report(outcomes, rows, series)
    write_atomic(dest, markdown)
    write_atomic(series / "boot-test.md", markdown)
    write_atomic(series / "boot-test.json", report_json(tr, outcomes, rows, patches))
    print(f"report: {dest}, and boot-test.md beside the series")
    return 0 if all(o.ok for o in outcomes) else 1


def report_json(tr: dtree.Tree, outcomes: Sequence[Outcome], rows: Sequence[coverage.Row],
                patches: Sequence[Path]) -> str:
    """What the cover letter's Testing section reads (demagic.cover.boot_lines)."""
    data = {
        "series_digest": series_digest(patches), "tree": f"{tr.name} ({tr.version})",
        "passed": all(o.ok for o in outcomes),
        "results": [{"state": o.state, "arch": o.arch.name, "test": r.name,
                     "status": r.status.value} for o in outcomes for r in o.results],
        "coverage": [{"number": n, "patch": r.patch, "subject": r.subject, "tests": r.tests,
                      "note": r.note} for n, r in enumerate(rows, 1)],
    }
    return json.dumps(data, indent=2) + "\n"


def cmd_mutant(args: argparse.Namespace) -> int:
    """Every mutant must make at least one test fail."""
    progress = Progress()
    tr, series, patches = resolve(args)
    survivors = []
    for name in mutant.MUTANTS:
        mut = mutant.make(patches, name, work_root(tr) / f"mutant-{name}")
        progress.step(f"mutant {name}: {len(mut.mutated)} patch(es) mutated")
        label = f"mutant-{name}"
        outcomes = boot_all(tr, build_kernels(tr, mut.series, label, args.jobs, progress),
                            label, progress)
        failing = [f"{o.arch.name}:{r.name}" for o in outcomes for r in o.results
                   if r.status not in (ktap.Status.PASS, ktap.Status.SKIP)]
        failing += [f"{o.arch.name}:crash" for o in outcomes if o.crashes]
        print("\n".join(result_lines(outcomes)))
        if failing:
            print(f"mutant {name}: caught by {', '.join(failing)}")
        else:
            print(f"mutant {name}: SURVIVED, no test failed")
            survivors.append(name)
    return 1 if survivors else 0


def cmd_bench(args: argparse.Namespace) -> int:
    """Cold (optional) and warm run times, and the median of repeated boots."""
    tr, series, _ = resolve(args)
    run_args = argparse.Namespace(kdir=args.kdir, tree=args.tree, series=series, report=None,
                                  jobs=args.jobs)
    figures: Dict[str, float] = {}
    if args.cold:
        for arch in ARCHS:
            for stale in [work_root(tr) / arch.name, *work_root(tr).glob(f"{arch.name}-*")]:
                _remove(stale)
        figures["cold run (build + boot, all kernels, both states)"] = _timed(cmd_run, run_args)
    if not args.boots_only:
        figures["warm re-run (nothing changed)"] = _timed(cmd_run, run_args)
        _forget_after(tr, series, headers=False)
        figures["re-run after a rule change to the drivers' .c files"] = _timed(cmd_run, run_args)
        _forget_after(tr, series, headers=True)
        figures["re-run after a change to every file of the series (headers too)"] = \
            _timed(cmd_run, run_args)
    progress = Progress(quiet=True)
    for arch in ARCHS:
        for state in STATES:
            out = work_root(tr) / f"{arch.name}-{state}"
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


def _forget_after(tr: dtree.Tree, series: Path, headers: bool) -> None:
    """What a rule change costs: no kept after kernels, the series' files newer than their objects.

    headers=False: only the .c files the series touches are newer (a change to
    how drivers are rewritten); True: every file, include/linux/*.h too, which
    recompiles most of each kernel.
    """
    for arch in ARCHS:
        _remove(work_root(tr) / f"{arch.name}-after")
    if headers:
        trees.sync(tr, BOOT_WORKTREE, None, work_root(tr))
        return
    wt = trees.sync(tr, BOOT_WORKTREE, series, work_root(tr))
    for rel in sorted(trees.series_files(series)):
        if rel.endswith(".c") and (wt / rel).is_file():
            os.utime(wt / rel)


def _timed(fn: Callable[[argparse.Namespace], int], args: argparse.Namespace) -> float:
    start = time.monotonic()
    fn(args)
    return time.monotonic() - start


def _remove(path: Path) -> None:
    if path.is_dir():
        shutil.rmtree(path)
    else:
        path.unlink(missing_ok=True)


def add_tree_opts(p: argparse.ArgumentParser) -> None:
    p.add_argument("--kdir", type=Path, help="your own kernel tree")
    p.add_argument("--tree", help="without --kdir, one of Debian's trees (default: the series')")
    p.add_argument("--series", type=Path, help="format-patch directory (default: generated-patches/<tree>)")
    p.add_argument("--jobs", type=int, default=2, help="make -j (default 2)")


def parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(prog="python3 -m qemu", description=__doc__)
    sub = ap.add_subparsers(dest="cmd", required=True)
    run = sub.add_parser("run", help="build, boot and test before and after the series")
    add_tree_opts(run)
    run.add_argument("--report", type=Path, help="Markdown report (default build/qemu/<tree>/report.md)")
    mut = sub.add_parser("mutant", help="the tests must catch deliberately wrong series")
    add_tree_opts(mut)
    bench = sub.add_parser("bench", help="print build and boot times")
    add_tree_opts(bench)
    bench.add_argument("--cold", action="store_true", help="also time a run from no build dirs")
    bench.add_argument("--repeat", type=int, default=3, help="boots per kernel (default 3)")
    bench.add_argument("--boots-only", action="store_true", help="only time boots of existing builds")
    return ap


HANDLERS: Dict[str, Callable[[argparse.Namespace], int]] = {
    "run": cmd_run, "mutant": cmd_mutant, "bench": cmd_bench,
}


def main(argv: Optional[Sequence[str]] = None) -> int:
    args = parser().parse_args(argv)
    try:
        args.jobs = cap_jobs(args.jobs)
        name = args.tree or (dtree.tree_of_series(args.series) if args.series else
                             dtree.DEFAULT_NAME)
        with lock.holding(dtree.tree_key(args.kdir, name), f"boot-test {args.cmd}"):
            return HANDLERS[args.cmd](args)
    except UsageError as exc:
        print(f"qemu: {exc}", file=sys.stderr)
        return 2
    except (DemagicError, kernel.kconfig.ConfigError) as exc:
        print(f"qemu: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        CHILDREN.stop_all()
        print("qemu: interrupted; no guest or compiler left running", file=sys.stderr)
        return 130
