# SPDX-License-Identifier: GPL-2.0
"""python3 -m qemu run|mutant|bench: the demagic boot suite."""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import statistics
import time
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Dict, List, Optional, Sequence, Tuple

from demagic.core.files import write_atomic
from demagic.core import paths
from demagic.core.paths import REPO_ROOT
from demagic.core import lock
from demagic.kernel import tree as dtree
from demagic.model.patches import Patch, parse_series, series_digest
from demagic.core.errors import DemagicError, UsageError
from demagic.core.proc import Progress, cap_jobs, guarded
from qemu import boot, coverage, initramfs, kernel, ktap, mutant, probe, trees
from qemu.archs import FLAVOURS, Arch, Flavour, GuestTest

REPO = REPO_ROOT
STATES = ("before", "after")
MUTANTS_FILE = "mutants.json"
DURATION = re.compile(r"^# (\S+): ([\d.]+) s to ([\d.]+) s since boot", re.M)   # which tests caught which mutant, for the coverage table


@dataclass
class Outcome:
    """One boot of one kernel: its tests' results and the console's crash lines."""
    state: str
    arch: Arch
    results: List[ktap.Result]
    crashes: List[str]
    boot: boot.BootResult
    tests: Sequence[GuestTest] = ()
    build_dir: Path = Path()

    def ran(self) -> List[coverage.Ran]:
        """The tests that ran to a result (not skipped) in this boot."""
        done = {r.name for r in self.results if r.status is not ktap.Status.SKIP}
        return [coverage.Ran(t, self.arch.name) for t in self.tests if t.name in done]

    def compared(self) -> set:
        """Names of the tests judged only against the kernel before the series."""
        return {t.name for t in self.tests if t.compare}

    def durations(self) -> Dict[str, float]:
        """Seconds each test took in the guest, from init's "# name: t0 s to t1 s" lines."""
        return {m.group(1): float(m.group(3)) - float(m.group(2))
                for m in DURATION.finditer(self.boot.console)}

    def nodes(self) -> Dict[Tuple[str, ...], ktap.Result]:
        """Every result and subtest, by its path of names (test, subtest, ...)."""
        out: Dict[Tuple[str, ...], ktap.Result] = {}

        def walk(r: ktap.Result, path: Tuple[str, ...]) -> None:
            out[path] = r
            for s in r.subtests:
                walk(s, path + (s.name,))
        for r in self.results:
            walk(r, (r.name,))
        return out

    def unfinished(self) -> List[str]:
        """The (sub)tests that gave no verdict, could not run or did not finish in their
        time, each as "arch test: subtest: ... (status: why)".  A test judged only
        against the kernel before is no evidence then, before or after the series."""
        return [f"{self.arch.name} {': '.join(path)} ({r.status.value}"
                + (f": {r.directive}" if r.directive else "") + ")"
                for path, r in self.nodes().items() if r.status in ktap.UNFINISHED]

    @property
    def complete(self) -> bool:
        """The boot gave results, was not stopped by the host, and every test a verdict."""
        return bool(self.results) and not self.boot.timed_out and not self.unfinished()

    @property
    def ok(self) -> bool:
        judged = [r for r in self.results if r.name not in self.compared()]
        return ktap.passed(judged, self.crashes) and self.complete


def work_root(tr: dtree.Tree, flavour: Flavour = FLAVOURS["plain"]) -> Path:
    """build/qemu/<tree>, and a directory of its own below it for each other flavour."""
    root = paths.BUILD / "qemu" / tr.name
    return root if flavour.name == "plain" else root / flavour.name


def default_series(tr: dtree.Tree) -> Path:
    return REPO / "generated-patches" / tr.name


@dataclass(frozen=True)
class Probing:
    """The probe of one series: its plan and the fragment file every state builds with."""
    arch: Arch
    plan: probe.Plan
    fragment: Path


def probing(tr: dtree.Tree, parsed: Sequence[Patch], flavour: Flavour) -> Probing:
    """The probe runs on the first arch: the series' C files as modules, with what they need."""
    arch = flavour.archs[0]
    plan = probe.plan(parsed, tr.repo, arch,
                      kernel.kconfig.requested(kernel.fragments(arch)))
    frag = work_root(tr, flavour) / f"{arch.name}-{probe.FRAGMENT}"
    text = probe.fragment_text(plan)
    if not frag.exists() or frag.read_text() != text:
        write_atomic(frag, text)
    return Probing(arch, plan, frag)


def build_kernels(tr: dtree.Tree, series: Optional[Path], label: str, jobs: int,
                  progress: Progress, probed: Probing,
                  flavour: Flavour = FLAVOURS["plain"],
                  ready: Callable[[kernel.Build], object] = lambda b: None) -> List[kernel.Build]:
    """Every arch's kernel for the tree with series applied (None: pristine), kept as <arch>-<label>.

    A kept kernel made from the same inputs is reused; the others are built
    incrementally in the arch's one O= directory, from whatever state it holds.
    ready is called with each arch's kernel, in the flavour's order, as soon as it is
    there: the caller may boot it while the next one builds.
    """
    builds: Dict[str, kernel.Build] = {}
    todo: Dict[str, Tuple[Path, str]] = {}
    def frag(arch: Arch) -> Optional[Path]:
        return probed.fragment if probed is not None and probed.arch == arch else None

    root = work_root(tr, flavour)
    for arch in flavour.archs:
        dest = root / f"{arch.name}-{label}"
        key = kernel.inputs_key(tr.base, series, arch, frag(arch))
        hit = kernel.cached(arch, dest, key)
        if hit:
            progress.step(f"{label}: {arch.name} kernel unchanged, kept in {dest}")
            builds[arch.name] = hit
        else:
            todo[arch.name] = (dest, key)
    src = trees.sync(tr, series, root) if todo else None
    for arch in flavour.archs:
        if src is not None and arch.name in todo:
            dest, key = todo[arch.name]
            out = root / arch.name
            progress.step(f"{label}: building {arch.name} kernel in {out}")
            builds[arch.name] = kernel.build(
                src, out, arch, jobs, dest, key,
                probed.plan if probed is not None and probed.arch == arch else None, frag(arch))
        ready(builds[arch.name])
    return [builds[arch.name] for arch in flavour.archs]


class Boots:
    """Boots on a thread of their own, one at a time in the order asked, while the main
    thread builds the next kernels (a boot takes one core).  Nothing a boot reads is
    rewritten meanwhile: the kernel's kept copy, its initramfs, the pristine tree's
    selftests.  On an error, the boots not started are dropped."""

    def __init__(self, tr: dtree.Tree, progress: Progress, overlap: bool = True) -> None:
        self.tr, self.progress, self.overlap = tr, progress, overlap
        self.pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="boot")

    def __enter__(self) -> "Boots":
        return self

    def __exit__(self, kind: object, *_: object) -> None:
        self.pool.shutdown(wait=True, cancel_futures=kind is not None)

    def boot(self, built: kernel.Build, label: str,
             pace: Optional[Sequence["Future[Outcome]"]] = None) -> "Future[Outcome]":
        """Boot built; pace: the pristine kernels' boots, asked for before this one.
        Without overlap (make bench's previous design), the boot is over on return."""
        def go() -> Outcome:
            return boot_kernel(self.tr, built, label, self.progress,
                               pace=[f.result() for f in pace] if pace is not None else None)
        if self.overlap:
            return self.pool.submit(go)
        done: "Future[Outcome]" = Future()
        done.set_result(go())
        return done


def boot_kernel(tr: dtree.Tree, built: kernel.Build, label: str, progress: Progress,
                pace: Optional[Sequence[Outcome]] = None) -> Outcome:
    """Boot one kernel; pace: the pristine kernels' boots, whose test durations bound
    this one's (a mutant that makes a test hang is caught without waiting its full timeout)."""
    seen = {o.arch.name: o.durations() for o in pace or []}
    return boot_once(built, initramfs.build(built, tr.repo, paths.BUILD / "qemu"), label,
                     progress, limits=_paced(built, seen.get(built.arch.name, {})) if pace else None)


# A test may take this many times as long as on the pristine kernel, plus the slack.
PACE_FACTOR, PACE_SLACK = 3, 15


def _paced(built: kernel.Build, durations: Dict[str, float]) -> Dict[str, int]:
    return {t.name: min(boot.test_timeout(built.arch, t),
                        int(durations[t.name] * PACE_FACTOR) + PACE_SLACK)
            for t in built.tests if t.name in durations}


def boot_once(built: kernel.Build, initrd: Path, label: str, progress: Progress,
              log_name: str = "", limits: Optional[Dict[str, int]] = None) -> Outcome:
    arch = built.arch
    names = [t.name for t in built.tests]
    devices = _dedupe_pairs([d for t in built.tests for d in t.devices])
    log = built.out.parent / (log_name or f"{built.out.name}-{label}-console.log")
    progress.step(f"{label}: booting {arch.name} ({', '.join(names)})")
    own = {t.name: boot.test_timeout(arch, t) for t in built.tests if t.timeout}
    own.update(limits or {})
    argv = boot.qemu_argv(arch, built.image, initrd, names, devices,
                          [f"{n}:{secs}" for n, secs in own.items()])
    cap = sum(own.get(t.name, boot.test_timeout(arch)) for t in built.tests) + \
        boot.BOOT_SLACK * arch.slowdown
    res = boot.boot(argv, log, hard_cap=cap)
    results, crashes = ktap.parse(res.console, names)
    return Outcome(label, arch, results, crashes, res, built.tests, built.out)


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
                    lines.append(f"  {'':8} {'':16} {'':7}   {s.status.value}: {s.name}"
                                 + (f" # {s.directive}" if s.directive else ""))
        for c in o.crashes[:5]:
            lines.append(f"  {'crash':8} {o.state:16} {o.arch.name:7} {c.strip()}")
        if o.boot.timed_out:
            lines.append(f"  {'timeout':8} {o.state:16} {o.arch.name:7} {o.boot.timed_out}")
    return lines


def report(outcomes: Sequence[Outcome], rows: Sequence[coverage.Row], series: Path,
           worse: Sequence[str] = ()) -> str:
    shown = series.relative_to(REPO) if series.is_relative_to(REPO) else series
    out = ["# demagic boot test", "", f"Series: `{shown}`", "",
           "| state | arch | test | result | boot s |", "|---|---|---|---|---|"]
    for o in outcomes:
        for r in o.results:
            out.append(f"| {o.state} | {o.arch.name} | {r.name} | {r.status.value} | "
                       f"{o.boot.seconds:.1f} |")
    if worse:
        out += ["", "## Worse after the series", ""] + [f"- {w}" for w in worse]
    out += ["", "## Coverage", "", coverage.markdown(rows)]
    for o in outcomes:
        if not o.ok:
            out += [f"- {o.state} {o.arch.name}: console log `{o.boot.log}`"]
    return "\n".join(out) + "\n"


@dataclass(frozen=True)
class Subject:
    """What a command works on: the tree, the series directory, its patch files, parsed once."""
    tree: dtree.Tree
    series: Path
    paths: List[Path]
    patches: List[Patch]


def resolve(args: argparse.Namespace) -> Subject:
    if args.series is not None:
        dtree.series_patches(args.series)    # a wrong SERIES= is named before any extraction
    name = dtree.check_tree_name(args.tree) if args.tree else \
        dtree.tree_of_series(args.series) if args.series else dtree.DEFAULT_NAME
    tr = dtree.pristine(args.kdir, tree_name=name)
    series = (args.series or default_series(tr)).resolve()
    patches = dtree.series_patches(series)
    if not patches:
        raise UsageError(f"SERIES={series}: no numbered patches")
    return Subject(tr, series, patches, parse_series(patches))


def kernels_for(sub: Subject, flavour: str) -> Flavour:
    """The flavour's kernels as the series needs them: only the tests that cover a file it
    touches, with their settings, and no arch left without a test but the probe's."""
    return FLAVOURS[flavour].for_files(p for patch in sub.patches for p in patch.paths())


def cmd_run(args: argparse.Namespace) -> int:
    progress = Progress()
    sub = resolve(args)
    tr, series, patches = sub.tree, sub.series, sub.paths
    outcomes: List[Outcome] = []
    flavour = kernels_for(sub, args.flavour)
    root = work_root(tr, flavour)
    probed = probing(tr, sub.patches, flavour)
    with Boots(tr, progress, overlap=args.overlap) as boots:
        booting: List["Future[Outcome]"] = []
        for state in STATES:
            build_kernels(tr, series if state == "after" else None, state, args.jobs, progress,
                          probed, flavour,
                          ready=lambda b, state=state: booting.append(boots.boot(b, state)))
        outcomes += [f.result() for f in booting]
    mutants = coverage.load_mutants(root / MUTANTS_FILE, series_digest(patches))
    ran = [r for o in outcomes if o.state == "after" for r in o.ran()]
    built = [b for o in outcomes if o.state == "after"
             for b in probe.read_report(o.build_dir / probe.REPORT)]
    rows = coverage.table(sub.patches, ran, tr.repo, mutants, built)
    before = [o for o in outcomes if o.state == "before"]
    after = [o for o in outcomes if o.state == "after"]
    worse = [w for _, _, w in regressions(before, after)]
    if flavour.name == "plain":
        passed = all(o.ok for o in outcomes) and not worse
    else:
        # the bug finders may report on code the series does not touch, in both kernels:
        # only what the kernel after reports anew counts
        worse += new_reports(before, after)
        passed = not worse and all(o.complete for o in outcomes)
    print("\n".join(result_lines(outcomes)))
    for o in outcomes:
        for line in o.unfinished():
            print(f"  no verdict {o.state}: {line}")
    for line in worse:
        print(f"  worse after the series: {line}")
    print("coverage:")
    print(coverage.text(rows), end="")
    dest = args.report or root / "report.md"
    markdown = report(outcomes, rows, series, worse)
    write_atomic(dest, markdown)
    if flavour.name != "plain":     # beside the series: only what the cover letter tells
        print(f"report: {dest}")
        return 0 if passed else 1
    write_atomic(series / "boot-test.md", markdown)
    write_atomic(series / "boot-test.json", report_json(tr, outcomes, rows, patches, worse))
    print(f"report: {dest}, and boot-test.md beside the series")
    return 0 if passed else 1


def regressions(before: Sequence[Outcome], after: Sequence[Outcome]
                ) -> List[Tuple[str, Tuple[str, ...], str]]:
    """(arch, path of names from the test down, what) for each innermost (sub)test that passed on the kernel before the
    series and not after it: a module of the probe that no longer loads is skipped in the
    guest, and a selftest that fails either way says nothing; only this comparison tells.
    Where the kernel after gives no such subtest, its nearest enclosing result speaks for
    it (a test that crashed before its first subtest), and a missing one counts as lost."""
    was = {o.arch.name: o.nodes() for o in before}
    out = []
    for o in after:
        now = o.nodes()
        for path, old in was.get(o.arch.name, {}).items():
            if old.subtests or old.status is not ktap.Status.PASS:
                continue
            at = next((path[:n] for n in range(len(path), 0, -1) if path[:n] in now), None)
            if at is None:
                status = "absent"
            elif at == path or now[at].status is not ktap.Status.PASS:
                status = now[at].status.value
            else:
                status = "absent"
            if status != ktap.Status.PASS.value:
                out.append((o.arch.name, path,
                            f"{o.arch.name} {': '.join(path)}: ok before, {status} after"))
    return out


def new_reports(before: Sequence[Outcome], after: Sequence[Outcome]) -> List[str]:
    """The crash lines (BUG:, WARNING:, Oops...) of the kernels after the series that the
    same arch's kernel before did not print, addresses and numbers aside."""
    seen = {(o.arch.name, ktap.report_key(c)) for o in before for c in o.crashes}
    out = []
    for o in after:
        for line in o.crashes:
            key = (o.arch.name, ktap.report_key(line))
            if key not in seen:
                seen.add(key)
                out.append(f"{o.arch.name}: new after the series: {line.strip()}")
    return out


def report_json(tr: dtree.Tree, outcomes: Sequence[Outcome], rows: Sequence[coverage.Row],
                patches: Sequence[Path], worse: Sequence[str] = ()) -> str:
    """What the cover letter's Testing section reads (demagic.cover.boot_lines)."""
    data = {
        "series_digest": series_digest(patches), "tree": f"{tr.name} ({tr.version})",
        "passed": all(o.ok for o in outcomes) and not worse,
        "worse": list(worse),
        "results": [{"state": o.state, "arch": o.arch.name, "test": r.name,
                     "status": r.status.value} for o in outcomes for r in o.results],
        "coverage": [{"number": r.number, "patch": r.patch, "subject": r.subject,
                      "tests": r.tests, "ran": r.ran, "note": r.note} for r in rows],
    }
    return json.dumps(data, indent=2) + "\n"


def require_verdicts(before: Sequence[Outcome]) -> None:
    """Raise when a test gave no verdict on the pristine kernels: it could not run or did
    not finish, so it cannot tell a mutant from the series either."""
    blind = [u for o in before for u in o.unfinished()]
    if blind:
        print("\n".join(result_lines(before)))
        raise DemagicError(f"no verdict on the kernel before the series: {'; '.join(blind)}")


def cmd_mutant(args: argparse.Namespace) -> int:
    """Every mutant must make at least one test fail."""
    progress = Progress()
    sub = resolve(args)
    tr, patches = sub.tree, sub.paths
    survivors = []
    caught: Dict[str, Dict[str, list]] = {}
    flavour = kernels_for(sub, args.flavour)
    root = work_root(tr, flavour)
    probed = probing(tr, sub.patches, flavour)
    # the pristine kernels first: each mutant then rebuilds only the C files it changes,
    # and make boot-test finds them kept.  Each kernel boots while the next one builds.
    with Boots(tr, progress) as boots:
        pristine: List["Future[Outcome]"] = []
        build_kernels(tr, None, "before", args.jobs, progress, probed, flavour,
                      ready=lambda b: pristine.append(boots.boot(b, "before")))
        booting: Dict[str, List["Future[Outcome]"]] = {}
        mutated: Dict[str, List[str]] = {}
        before: List[Outcome] = []
        for name in mutant.MUTANTS:
            mut = mutant.make(sub.patches, name, root / f"mutant-{name}")
            progress.step(f"mutant {name}: {len(mut.mutated)} patch(es) mutated")
            label = f"mutant-{name}"
            mutated[name] = mut.mutated
            futures = booting.setdefault(name, [])
            build_kernels(tr, mut.series, label, args.jobs, progress, probed, flavour,
                          ready=lambda b, label=label, futures=futures:
                          futures.append(boots.boot(b, label, pace=pristine)))
            if not before:      # booted while the first mutant built
                before = [f.result() for f in pristine]
                require_verdicts(before)
        for name in mutant.MUTANTS:
            outcomes = [f.result() for f in booting[name]]
            # a test catches a mutant where something it checks passes without the series
            # and not with the mutant (or the kernel crashes)
            lost = regressions(before, outcomes)
            failing = list(dict.fromkeys([f"{arch}:{path[0]}" for arch, path, _ in lost]
                                         + [f"{o.arch.name}:crash" for o in outcomes if o.crashes]))
            caught[name] = {"mutated": mutated[name], "failing": failing,
                            "lost": [[arch, *path] for arch, path, _ in lost]}
            print("\n".join(result_lines(outcomes)))
            if failing:
                print(f"mutant {name}: caught by {', '.join(failing)}")
            else:
                print(f"mutant {name}: SURVIVED, no test failed")
                survivors.append(name)
    write_atomic(root / MUTANTS_FILE, json.dumps(
        {"series_digest": series_digest(patches), "mutants": caught}, indent=2) + "\n")
    return 1 if survivors else 0


def cmd_bench(args: argparse.Namespace) -> int:
    """Cold (optional) and warm run times, and the median of repeated boots."""
    sub = resolve(args)
    tr, series = sub.tree, sub.series
    run_args = argparse.Namespace(kdir=args.kdir, tree=args.tree, series=series, report=None,
                                  jobs=args.jobs, flavour=args.flavour, overlap=True)
    flavour = kernels_for(sub, args.flavour)
    root = work_root(tr, flavour)
    figures: Dict[str, float] = {}
    if args.cold:
        for arch in flavour.archs:
            for stale in [root / arch.name, *root.glob(f"{arch.name}-*")]:
                _remove(stale)
        figures["cold run (build + boot, all kernels, both states)"] = _timed(cmd_run, run_args)
    if not args.boots_only:
        figures["warm re-run (nothing changed)"] = _timed(cmd_run, run_args)
        _forget_after(tr, series, flavour, headers=False)
        figures["re-run after a rule change to the drivers' .c files, each kernel booted "
                "after the builds (the previous design)"] = \
            _timed(cmd_run, argparse.Namespace(**{**vars(run_args), "overlap": False}))
        _forget_after(tr, series, flavour, headers=False)
        figures["re-run after a rule change to the drivers' .c files, each kernel booting "
                "while the next one builds"] = _timed(cmd_run, run_args)
        _forget_after(tr, series, flavour, headers=True)
        figures["re-run after a change to every file of the series (headers too)"] = \
            _timed(cmd_run, run_args)
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


def _forget_after(tr: dtree.Tree, series: Path, flavour: Flavour, headers: bool) -> None:
    """What a rule change costs: no kept after kernels, the series' files newer than their objects.

    headers=False: only the .c files the series touches are newer (a change to
    how drivers are rewritten); True: every file, include/linux/*.h too, which
    recompiles most of each kernel.
    """
    root = work_root(tr, flavour)
    for arch in flavour.archs:
        _remove(root / f"{arch.name}-after")
    if headers:
        trees.sync(tr, None, root)
        return
    wt = trees.sync(tr, series, root)
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


HANDLERS: Dict[str, Callable[[argparse.Namespace], int]] = {
    "run": cmd_run, "mutant": cmd_mutant, "bench": cmd_bench,
}


def main(argv: Optional[Sequence[str]] = None) -> int:
    args = parser().parse_args(argv)

    def body() -> int:
        args.jobs = cap_jobs(args.jobs)
        name = args.tree or (dtree.tree_of_series(args.series) if args.series else
                             dtree.DEFAULT_NAME)
        with lock.holding(dtree.tree_key(args.kdir, name), f"boot-test {args.cmd}"):
            return HANDLERS[args.cmd](args)
    return guarded("qemu", body, "no guest or compiler left running")
