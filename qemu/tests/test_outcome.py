# SPDX-License-Identifier: GPL-2.0
"""qemu/outcome.py: what a boot gave, and how the boots after a series compare with those
before it."""

import contextlib
import io
import unittest
from pathlib import Path

from demagic.core.errors import DemagicError
from qemu import ktap, outcome
from qemu.machines import X86_64, GuestTest
from qemu.boot import BootResult


class OutcomeTest(unittest.TestCase):
    def outcome(self, status: ktap.Status, crashes: list) -> outcome.Outcome:
        boot = BootResult("", 1.0, "", Path("console.log"))
        return outcome.Outcome("after", X86_64, [ktap.Result("slip", status)], crashes, boot)

    def test_ok(self) -> None:
        self.assertTrue(self.outcome(ktap.Status.PASS, []).ok)

    def test_failure_or_crash_is_not_ok(self) -> None:
        self.assertFalse(self.outcome(ktap.Status.FAIL, []).ok)
        self.assertFalse(self.outcome(ktap.Status.PASS, ["Oops: 0000"]).ok)

    def test_a_compared_test_is_judged_only_against_before(self) -> None:
        boot = BootResult("", 1.0, "", Path("console.log"))
        own = GuestTest("kselftest", ("net/l2tp/",), compare=True)

        def state(label: str, first: ktap.Status, second: ktap.Status) -> outcome.Outcome:
            ks = ktap.Result("kselftest", ktap.Status.FAIL, [
                ktap.Result("net/l2tp.sh", ktap.Status.FAIL, [
                    ktap.Result("ping", first), ktap.Result("IPsec", second)])])
            return outcome.Outcome(label, X86_64, [ktap.Result("slip", ktap.Status.PASS), ks], [],
                               boot, (own,))
        before = state("before", ktap.Status.PASS, ktap.Status.FAIL)
        self.assertTrue(before.ok)          # its failure alone fails nothing
        same = state("after", ktap.Status.PASS, ktap.Status.FAIL)
        self.assertEqual(outcome.regressions([before], [same]), [])
        worse = state("after", ktap.Status.FAIL, ktap.Status.FAIL)
        self.assertEqual(outcome.regressions([before], [worse]), [
            ("x86_64", ("kselftest", "net/l2tp.sh", "ping"),
             "x86_64 kselftest: net/l2tp.sh: ping: ok before, not ok after")])
        # a test that is not compared-only still fails the run by itself
        plain = outcome.Outcome("after", X86_64, [ktap.Result("kselftest", ktap.Status.FAIL)], [], boot)
        self.assertFalse(plain.ok)

    def test_a_compared_test_without_verdict_fails_the_run(self) -> None:
        boot = BootResult("", 1.0, "", Path("console.log"))
        own = GuestTest("kselftest", ("net/l2tp/",), compare=True)

        def state(label: str, script: ktap.Result) -> outcome.Outcome:
            ks = ktap.Result("kselftest", ktap.Status.FAIL, [script])
            return outcome.Outcome(label, X86_64, [ktap.Result("slip", ktap.Status.PASS), ks], [],
                               boot, (own,))
        failed = state("before", ktap.Result("net/l2tp.sh", ktap.Status.FAIL))
        self.assertTrue(failed.ok)
        self.assertEqual(failed.unfinished(), [])
        outcome.require_verdicts([failed])
        for status, directive in ((ktap.Status.ERROR, "ERROR no host userland over 9p"),
                                  (ktap.Status.TIMEOUT, "TIMEOUT after 240 s")):
            blind = state("before", ktap.Result("net/l2tp.sh", status, directive=directive))
            self.assertFalse(blind.ok)
            self.assertEqual(blind.unfinished(),
                             [f"x86_64 kselftest: net/l2tp.sh ({status.value}: {directive})"])
            with contextlib.redirect_stdout(io.StringIO()):
                with self.assertRaisesRegex(DemagicError, "no verdict on the kernel before"):
                    outcome.require_verdicts([blind])

    def test_debug_reports_count_only_when_new(self) -> None:
        boot = BootResult("", 1.0, "", Path("console.log"))

        def state(label: str, crashes: list) -> outcome.Outcome:
            return outcome.Outcome(label, X86_64, [ktap.Result("slip", ktap.Status.PASS)], crashes,
                               boot)
        old = "WARNING: CPU: 0 PID: 41 at kernel/foo.c:12 foo+0x1a/0x40"
        before = state("before", [old])
        again = state("after", ["WARNING: CPU: 0 PID: 57 at kernel/foo.c:12 foo+0x1a/0x44"])
        self.assertEqual(outcome.new_reports([before], [again]), [])
        uaf = "BUG: KASAN: slab-use-after-free in slip_close+0x2c/0x90"
        worse = state("after", [old, uaf, uaf])
        self.assertEqual(outcome.new_reports([before], [worse]),
                         [f"x86_64: new after the series: {uaf}"])

    def test_a_test_that_crashed_before_its_subtests_lost_them(self) -> None:
        boot = BootResult("", 1.0, "", Path("console.log"))
        before = outcome.Outcome("before", X86_64, [ktap.Result("slip", ktap.Status.PASS, [
            ktap.Result("loads", ktap.Status.PASS), ktap.Result("pings", ktap.Status.PASS)])],
            [], boot)
        crashed = outcome.Outcome("after", X86_64, [ktap.Result("slip", ktap.Status.CRASHED)],
                              ["Oops"], boot)
        self.assertEqual([w for _, _, w in outcome.regressions([before], [crashed])],
                         ["x86_64 slip: loads: ok before, crashed after",
                          "x86_64 slip: pings: ok before, crashed after"])
        gone = outcome.Outcome("after", X86_64, [], [], boot)
        self.assertEqual(len(outcome.regressions([before], [gone])), 2)


if __name__ == "__main__":
    unittest.main()
