# SPDX-License-Identifier: GPL-2.0
"""Exact-output cases for the scan and the judge: python3 -m demagic test-judge.

Each case is a directory cocci/tests/judge/NAME/ holding a small tree (C
files at the paths a kernel would have them, Kconfig and Makefile lines
where the case needs them) and NAME/expect, the text the scan prints for
that tree, compared byte for byte: every candidate, its verdict, its reason
and evidence, the code spatch could not parse, the counts.  The name says
what the case is about (keep_discriminator, remove_not_a_discriminator):
each kind of evidence has a positive and a negative case.  --selftest
changes one verdict in one expect file and checks that the runner fails.
--mutants runs the cases, then disables each kind of evidence in turn
(each extractor, and the finer findings listed in MUTANTS) and checks that
some case then fails: no evidence the judge reads goes untested.
"""

from __future__ import annotations

import difflib
import re
import shutil
import sys
import tempfile
from contextlib import ExitStack
from pathlib import Path
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple
from unittest import mock

from demagic.cli.rulecases import case_parser
from demagic.core.paths import COCCI
from demagic.core import memo
from demagic.scan import report as scanout
from demagic.judge import scans
from demagic.core.errors import DemagicError
from demagic.kernel.source import Texts

CASES = COCCI / "tests" / "judge"
EXPECT = "expect"
MAKEFILE = "VERSION = 6\nPATCHLEVEL = 12\nSUBLEVEL = 0\n"


def outcome(case: Path) -> str:
    """What the scan prints for the case's tree (or the error it stops with)."""
    with tempfile.TemporaryDirectory(prefix="demagic-judge-") as tmp:
        root = Path(tmp) / "tree"
        shutil.copytree(case, root, ignore=shutil.ignore_patterns(EXPECT))
        if not (root / "Makefile").exists():
            (root / "Makefile").write_text(MAKEFILE)
        try:
            result = scans.judged(root, jobs=1)
        except DemagicError as exc:
            return f"error: {exc}\n"
        return scanout.format_text(result, Texts(root))


def compare(case: Path) -> List[str]:
    want_path = case / EXPECT
    want = want_path.read_text() if want_path.exists() else ""
    got = outcome(case)
    if got == want:
        return []
    return list(difflib.unified_diff(want.splitlines(keepends=True), got.splitlines(keepends=True),
                                     f"{case.name}/expect", f"{case.name}/got"))


def cases(cases_dir: Path, only: Optional[str] = None) -> List[Path]:
    return [d for d in sorted(cases_dir.iterdir())
            if d.is_dir() and (only is None or re.search(only, d.name))]


def run_cases(cases_dir: Path, only: Optional[str] = None, quiet: bool = False) -> int:
    passed = failed = 0
    for case in cases(cases_dir, only):
        diff = compare(case)
        print(f"{'CORRECT' if not diff else 'PROBLEM'} {case.name}")
        if diff and not quiet:
            sys.stdout.writelines("    " + (line if line.endswith("\n") else line + "\n")
                                  for line in diff)
        passed += not diff
        failed += bool(diff)
    print(f"judge: {passed} passed, {failed} failed")
    return 0 if failed == 0 and passed > 0 else 1


def write_expected(cases_dir: Path, only: Optional[str]) -> int:
    """Write each case's expect from what the scan prints now (to review by hand)."""
    for case in cases(cases_dir, only):
        (case / EXPECT).write_text(outcome(case))
        print(f"wrote {case.name}/{EXPECT}")
    return 0


VERDICT_LINE = re.compile(r"^== (remove|flag|keep|review) \((\d+)\)$", re.M)


def selftest() -> int:
    """Swap the counts of two verdict headings of one case: the runner must say PROBLEM."""
    with tempfile.TemporaryDirectory(prefix="demagic-judge-selftest-") as tmp:
        copy = Path(tmp) / "judge"
        shutil.copytree(CASES, copy)
        for case in cases(copy):
            text = (case / EXPECT).read_text()
            heads = VERDICT_LINE.findall(text)
            counts = [int(n) for _v, n in heads]
            if len(set(counts)) > 1:
                break
        else:
            print("selftest: FAILED, no case to corrupt")
            return 1
        wrong = dict(zip([v for v, _n in heads], reversed(counts)))
        text = VERDICT_LINE.sub(lambda m: f"== {m.group(1)} ({wrong[m.group(1)]})", text)
        (case / EXPECT).write_text(text)
        print(f"selftest: expecting a PROBLEM for {case.name} (verdict counts swapped)")
        status = run_cases(copy, only=rf"^{re.escape(case.name)}$", quiet=True)
    if status == 0:
        print("selftest: FAILED, the runner accepted a wrong verdict")
        return 1
    print("selftest: ok, the runner caught the wrong verdict")
    return 0


# Findings finer than an extractor, each turned off by making it find nothing: (where,
# what it returns instead).
MUTANTS: Sequence[Tuple[str, Any]] = (
    ("demagic.scan.evidence.memory.handed_in_owner", None),   # callers pass static objects
    ("demagic.scan.evidence.memory.own_allocator", ""),       # a wrapper of kzalloc()
    ("demagic.scan.evidence.exposure.dma_allocator", ""),     # a wrapper of dma_alloc_*()
    ("demagic.scan.evidence.exposure.user_mappings", []),     # pages mapped into user space
    ("demagic.scan.evidence.guards.debug_option", ""),        # a field for a debug option
    ("demagic.scan.evidence.guards.switch", None),            # a dead switch that can go
    ("demagic.scan.evidence.guards.touches_magic", True),     # a block not the magic's
    ("demagic.scan.evidence.guards.call_alone", True),        # a no-op call that cannot go
    ("demagic.scan.evidence.reads.pasted_reads", []),         # p->_name##_magic
    ("demagic.scan.evidence.warrants.Warrants.in_place", True),  # p->ops->magic: no member
    ("demagic.scan.evidence.shapes._through_helper", None),   # a validity helper's callers
    ("demagic.scan.evidence.memory.untyped_escapes", []),     # raw compares may read it
    ("demagic.scan.evidence.warrants.Warrants.set_by_operation", ""),  # tagged by an op
)


def _constant(value: Any) -> Callable[..., Any]:
    return lambda *_a, **_k: value


def mutants() -> int:
    """Every case as run_cases runs them; then each extractor, and each finding of MUTANTS,
    made to find nothing: some case must then say PROBLEM.  spatch runs once per case;
    only the evidence and the verdicts run again."""
    from demagic.scan import discover
    from demagic.scan import evidence
    rules: Dict[Tuple[str, ...], Any] = {}
    real_rule = discover.run_rule

    def run_rule(root: Path, files: Sequence[str], *args: Any, **kw: Any) -> Any:
        key = tuple(files) + tuple((root / f).read_text() for f in files)
        if key not in rules:
            rules[key] = real_rule(root, files, *args, **kw)
        return rules[key]

    real_extractors = evidence.extractors()
    plans: List[Tuple[str, List[Any]]] = [
        (f"extractor {name}", [mock.patch.object(evidence, "extractors", _constant(
            [(n, fn) for n, fn in real_extractors if n != name]))])
        for name, _fn in real_extractors]
    plans += [(f"{where.rsplit('.', 1)[1]}() finds nothing",
               [mock.patch(where, _constant(value))]) for where, value in MUTANTS]
    missed = []
    every = cases(CASES)
    with mock.patch.object(discover, "run_rule", run_rule):
        if run_cases(CASES) != 0:      # the plain run, which keeps spatch's output
            print("mutants: not run, the cases fail unmutated")
            return 1
        for label, patches in plans:
            with ExitStack() as stack:
                for patch in patches:
                    stack.enter_context(patch)
                caught = next((case.name for case in every if compare(case)), None)
            print(f"mutant {label}: " + (f"caught by {caught}" if caught else "NOT CAUGHT"))
            if caught is None:
                missed.append(label)
    if missed:
        print(f"mutants: {len(missed)} not caught by any case: {', '.join(missed)}")
        return 1
    print(f"mutants: all {len(plans)} caught")
    return 0


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = case_parser("demagic test-judge", __doc__, "a wrong verdict in an expect file")
    parser.add_argument("--write", action="store_true",
                        help="write each case's expect from the scan's output, for review")
    parser.add_argument("--mutants", action="store_true",
                        help="disable each kind of evidence in turn: some case must fail")
    args = parser.parse_args(argv)
    with memo.isolated():
        if args.selftest:
            return selftest()
        if args.mutants:
            return mutants()
        if args.write:
            return write_expected(CASES, args.only)
        return run_cases(CASES, args.only)
