# SPDX-License-Identifier: GPL-2.0
"""Exact-output cases for the rules, in the manner of Coccinelle's tests/.

Each case is cocci/tests/cases/NAME.c (and NAME.h when it has a header),
whose first line says what to retire:

    /* demagic: remove FOO_MAGIC [BAR_MAGIC] struct=S member=F [header=H] */
    /* demagic: flag FOO_MAGIC struct=S member=F flag=busy */
    /* demagic: remove FOO_MAGIC struct=S member=F switch=FOO_DEBUG noops=foo_check */
    /* demagic: find */

and the expected result, compared byte for byte: NAME.res (and NAME.h.res),
or NAME.err for a target that must be refused with that message; for
find, NAME.stdout, the report of find_magic.cocci (what the scan reads), as
Coccinelle's own tests keep a script's output.  A case named *_failure is
a known failure, as in Coccinelle's tests, and must keep failing.
"""

from __future__ import annotations

import argparse
import difflib
import re
import shutil
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Dict, List, Optional, Sequence

from demagic.core.paths import COCCI
from demagic.core import memo
from demagic.model.candidate import Verdict
from demagic.core.errors import DemagicError
from demagic.core.proc import run
from demagic.model.target import Target
from demagic.rewrite.apply import apply
from demagic.core.rules import FIND, rule_options

CASES = COCCI / "tests" / "cases"
HEADER = re.compile(r"^/\* demagic: (remove|flag|find)(?: (.*?))? \*/$")


@dataclass(frozen=True)
class Case:
    name: str
    inputs: List[Path]
    target: Optional[Target]     # None: find_magic.cocci's report


def parse_case(c_file: Path) -> Case:
    """The case of c_file, from its first line."""
    first = c_file.read_text().splitlines()[0]
    m = HEADER.match(first)
    if not m:
        raise DemagicError(f"{c_file.name}: first line must be "
                           "/* demagic: remove|flag|find ... */")
    header_file = c_file.with_suffix(".h")
    inputs = [c_file] + ([header_file] if header_file.exists() else [])
    if m.group(1) == "find":
        return Case(c_file.stem, inputs, None)
    words = (m.group(2) or "").split()
    macros = tuple(w for w in words if "=" not in w)
    opts = dict(w.split("=", 1) for w in words if "=" in w)
    verdict = Verdict.FLAG if m.group(1) == "flag" else Verdict.REMOVE
    target = Target(macros, opts["struct"], opts["member"], opts.get("header", c_file.name),
                    verdict, opts.get("flag", "busy"), switch=opts.get("switch", ""),
                    noops=tuple(n for n in opts.get("noops", "").split(",") if n))
    return Case(c_file.stem, inputs, target)


def outcome(case: Case) -> Dict[str, str]:
    """What the pipeline makes of a case: file name -> text, or 'err' -> message."""
    with tempfile.TemporaryDirectory(prefix="demagic-case-") as tmp:
        work = Path(tmp)
        for path in case.inputs:
            shutil.copy(path, work / path.name)
        if case.target is None:
            res = run(["spatch", "--quiet", "-D", "report", *rule_options(FIND), "--sp-file",
                       str(FIND), *[p.name for p in case.inputs]], cwd=work)
            return {"stdout": res.stdout}
        run(["git", "-C", tmp, "init", "-q"])
        run(["git", "-C", tmp, "add", "-A"])
        try:
            result = apply(work, case.target, jobs=1)
        except DemagicError as exc:
            return {"err": f"error: {exc}\n"}
        if result.manual:
            return {"err": "".join(f"manual: {m}\n" for m in result.manual)}
        return {p.name: (work / p.name).read_text() for p in case.inputs}


def expected(case: Case, cases_dir: Path) -> Dict[str, str]:
    err = cases_dir / f"{case.name}.err"
    if err.exists():
        return {"err": err.read_text()}
    if case.target is None:
        stdout = cases_dir / f"{case.name}.stdout"
        return {"stdout": stdout.read_text() if stdout.exists() else f"(missing {stdout.name})\n"}
    out = {}
    for path in case.inputs:
        path = cases_dir / path.name
        res = path.with_name(path.name + ".res") if path.suffix == ".h" else path.with_suffix(".res")
        out[path.name] = res.read_text() if res.exists() else "(missing " + res.name + ")\n"
    return out


def compare(case: Case, cases_dir: Path) -> List[str]:
    """Differences between what a case gives and what it should, as diff lines."""
    got, want = outcome(case), expected(case, cases_dir)
    problems: List[str] = []
    for key in sorted(set(got) | set(want)):
        g, w = got.get(key, ""), want.get(key, "")
        if g != w:
            problems += difflib.unified_diff(w.splitlines(keepends=True),
                                             g.splitlines(keepends=True),
                                             f"expected/{key}", f"got/{key}")
    return problems


def collect(cases_dir: Path, only: Optional[str] = None) -> List[Case]:
    return [parse_case(c) for c in sorted(cases_dir.glob("*.c"))
            if only is None or re.search(only, c.stem)]


def run_cases(cases_dir: Path, only: Optional[str] = None, quiet: bool = False) -> int:
    """Run every case; print CORRECT/PROBLEM lines and a closing count."""
    passed = failed = 0
    for case in collect(cases_dir, only):
        diff = compare(case, cases_dir)
        known_failure = case.name.endswith("_failure")
        ok = bool(diff) if known_failure else not diff
        note = " (known failure, still fails)" if known_failure and ok else ""
        if known_failure and not ok:
            note = " (known failure now passes: rename the case)"
        print(f"{'CORRECT' if ok else 'PROBLEM'} {case.name}{note}")
        if not ok and not quiet:
            sys.stdout.writelines("    " + line if line.endswith("\n") else "    " + line + "\n"
                                  for line in diff)
        passed += ok
        failed += not ok
    print(f"rules: {passed} passed, {failed} failed")
    return 0 if failed == 0 and passed > 0 else 1


def selftest() -> int:
    """Corrupt one expected rewrite and one expected report by a single space each: the
    runner must say PROBLEM for both."""
    with tempfile.TemporaryDirectory(prefix="demagic-selftest-") as tmp:
        copy = Path(tmp) / "cases"
        shutil.copytree(CASES, copy)
        victims = [sorted(copy.glob("*.res"))[0], sorted(copy.glob("*.stdout"))[0]]
        for victim in victims:
            lines = victim.read_text().splitlines(keepends=True)
            lines[-1] = lines[-1].rstrip("\n") + " \n"
            victim.write_text("".join(lines))
        names = [v.name.split(".")[0] for v in victims]
        print(f"selftest: expecting a PROBLEM for {', '.join(v.name for v in victims)} "
              "(one trailing space added to each)")
        caught = [run_cases(copy, only=rf"^{re.escape(n)}$", quiet=True) != 0 for n in names]
    if not all(caught):
        print("selftest: FAILED, the runner accepted a wrong expected result")
        return 1
    print("selftest: ok, the runner caught each wrong expected result")
    return 0


def case_parser(prog: str, doc: Optional[str], caught: str) -> argparse.ArgumentParser:
    """The command line of a case runner: --only and --selftest (which shows that caught)."""
    parser = argparse.ArgumentParser(prog=prog, description=doc,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--only", help="run the cases whose name matches this regex")
    parser.add_argument("--selftest", action="store_true", help=f"show that {caught} is caught")
    return parser


def main(argv: Optional[Sequence[str]] = None) -> int:
    args = case_parser("demagic test-rules", __doc__, "a wrong expected result").parse_args(argv)
    # every case runs the tools themselves, with a cache of its own
    with memo.isolated():
        if args.selftest:
            return selftest()
        return run_cases(CASES, args.only)
