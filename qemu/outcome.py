# SPDX-License-Identifier: GPL-2.0
"""What one boot of one kernel gave, and how the boots after a series compare with those
before it."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Dict, List, Sequence, Tuple

from demagic.core.errors import DemagicError
from qemu import coverage, ktap
from qemu.machines import Machine, GuestTest

DURATION = re.compile(r"^# (\S+): ([\d.]+) s to ([\d.]+) s since boot", re.M)   # which tests caught which mutant, for the coverage table


@dataclass
class Outcome:
    """One boot of one kernel: its tests' results and the console's crash lines."""
    state: str
    arch: Machine
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


def require_verdicts(before: Sequence[Outcome]) -> None:
    """Raise when a test gave no verdict on the pristine kernels: it could not run or did
    not finish, so it cannot tell a mutant from the series either."""
    blind = [u for o in before for u in o.unfinished()]
    if blind:
        print("\n".join(result_lines(before)))
        raise DemagicError(f"no verdict on the kernel before the series: {'; '.join(blind)}")
