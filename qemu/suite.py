# SPDX-License-Identifier: GPL-2.0
"""make boot-test and boot-test-mutant: the kernels before and after a series, booted, and
the deliberately wrong variants of it that the tests must catch."""

from __future__ import annotations

import argparse
import json
from concurrent.futures import Future
from dataclasses import dataclass
from pathlib import Path
from typing import Dict, List, Optional

from demagic.core.files import write_atomic
from demagic.core.paths import REPO_ROOT
from demagic.core.proc import Progress
from demagic.kernel import tree as dtree
from demagic.model.reports import MutantRecord, MutantsReport
from demagic.model.series import Series
from qemu import coverage, mutant, probe
from qemu.machines import FLAVOURS, Flavour
from qemu.builds import build_kernels, probing, work_root
from qemu.outcome import Outcome, new_reports, regressions, require_verdicts, result_lines
from qemu.report import report, report_json
from qemu.session import Boots

REPO = REPO_ROOT
STATES = ("before", "after")


MUTANTS_FILE = "mutants.json"


def default_series(tr: dtree.Tree) -> Path:
    return REPO / "generated-patches" / tr.name


@dataclass(frozen=True)
class Subject:
    """What a command works on: the tree, and the series read once."""
    tree: dtree.Tree
    series: Series


def given_series(args: argparse.Namespace) -> Optional[Series]:
    """SERIES= read, before any extraction names what is wrong with it."""
    return Series.load(args.series.resolve()) if args.series is not None else None


def tree_name(args: argparse.Namespace, given: Optional[Series]) -> str:
    """The tree a command works on: TREE=, the one the series names, or the default."""
    return dtree.check_tree_name(args.tree) if args.tree else \
        dtree.tree_of_series(given) if given else dtree.DEFAULT_NAME


def resolve(args: argparse.Namespace, given: Optional[Series]) -> Subject:
    name = tree_name(args, given)
    tr = dtree.pristine(args.kdir, tree_name=name)
    return Subject(tr, given or Series.load(default_series(tr).resolve()))


def kernels_for(sub: Subject, flavour: str) -> Flavour:
    """The flavour's kernels as the series needs them: only the tests that cover a file it
    touches, with their settings, and no arch left without a test but the probe's."""
    return FLAVOURS[flavour].for_files(sorted(sub.series.touched()))


def cmd_run(args: argparse.Namespace, sub: Subject) -> int:
    progress = Progress()
    tr, series = sub.tree, sub.series
    outcomes: List[Outcome] = []
    flavour = kernels_for(sub, args.flavour)
    root = work_root(tr, flavour)
    probed = probing(tr, series.patches, flavour)
    with Boots(tr, progress, overlap=args.overlap) as boots:
        booting: List["Future[Outcome]"] = []
        for state in STATES:
            build_kernels(tr, series if state == "after" else None, state, args.jobs, progress,
                          probed, flavour,
                          ready=lambda b, state=state: booting.append(boots.boot(b, state)))
        outcomes += [f.result() for f in booting]
    mutants = MutantsReport.load(root / MUTANTS_FILE, series.digest)
    ran = [r for o in outcomes if o.state == "after" for r in o.ran()]
    built = [b for o in outcomes if o.state == "after"
             for b in probe.read_report(o.build_dir / probe.REPORT)]
    rows = coverage.table(series.patches, ran, tr.repo, mutants, built)
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
    markdown = report(outcomes, rows, series.path, worse)
    write_atomic(dest, markdown)
    if flavour.name != "plain":     # beside the series: only what the cover letter tells
        print(f"report: {dest}")
        return 0 if passed else 1
    write_atomic(series.path / "boot-test.md", markdown)
    write_atomic(series.path / "boot-test.json", report_json(tr, outcomes, rows, series, worse))
    print(f"report: {dest}, and boot-test.md beside the series")
    return 0 if passed else 1


def cmd_mutant(args: argparse.Namespace, sub: Subject) -> int:
    """Every mutant must make at least one test fail."""
    progress = Progress()
    tr, series = sub.tree, sub.series
    survivors = []
    caught = MutantsReport(series.digest)
    flavour = kernels_for(sub, args.flavour)
    root = work_root(tr, flavour)
    probed = probing(tr, series.patches, flavour)
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
            mut = mutant.make(series.patches, name, root / f"mutant-{name}")
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
            caught.mutants[name] = MutantRecord(mutated[name], failing,
                                                [(arch, *path) for arch, path, _ in lost])
            print("\n".join(result_lines(outcomes)))
            if failing:
                print(f"mutant {name}: caught by {', '.join(failing)}")
            else:
                print(f"mutant {name}: SURVIVED, no test failed")
                survivors.append(name)
    write_atomic(root / MUTANTS_FILE, json.dumps(caught.to_json(), indent=2) + "\n")
    return 1 if survivors else 0
