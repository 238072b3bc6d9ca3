# SPDX-License-Identifier: GPL-2.0
"""The command line: bad input is one line and a non-zero status; the report."""

import contextlib
import errno
import io
import tempfile
import threading
import time
import unittest
from pathlib import Path
from unittest import mock

from demagic.core.errors import DemagicError
from demagic.core.proc import Progress
from demagic.kernel.tree import Tree
from qemu import builds, cli, kernel, ktap, outcome, report, session
from qemu.archs import I386, X86_64, Flavour, GuestTest
from qemu.boot import BootResult

def approx(value: float) -> object:
    """Equal to any float within 1e-9 of value."""
    class Approx:
        def __eq__(self, other: object) -> bool:
            return isinstance(other, float) and abs(other - value) < 1e-9
    return Approx()


QUIET = Progress(quiet=True)
FAKE_TREE = Tree("linux-test", Path("/nonexistent"), "0" * 40, "6.1.0", False)


def quiet_main(argv: list) -> tuple:
    err = io.StringIO()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
        with mock.patch("qemu.suite.dtree.pristine", return_value=FAKE_TREE):
            rc = cli.main(argv)
    return rc, err.getvalue()


class BadInputTest(unittest.TestCase):
    def test_missing_series(self) -> None:
        rc, err = quiet_main(["run", "--series", "/nonexistent/series"])
        self.assertEqual(rc, 2)
        self.assertEqual(len(err.strip().splitlines()), 1)
        self.assertIn("no such directory", err)

    def test_empty_series(self) -> None:
        with tempfile.TemporaryDirectory() as tmp:
            rc, err = quiet_main(["mutant", "--series", tmp])
        self.assertEqual(rc, 2)
        self.assertIn("no numbered patches", err)

    def test_a_full_disk_is_one_line(self) -> None:
        full = OSError(errno.ENOSPC, "No space left on device", "/nonexistent/build/log")
        with mock.patch.dict(cli.HANDLERS, {"run": mock.Mock(side_effect=full)}), \
                mock.patch("qemu.cli.lock.holding"), mock.patch("qemu.cli.given_series"), \
                mock.patch("qemu.cli.tree_name"), mock.patch("qemu.cli.resolve"):
            rc, err = quiet_main(["run", "--series", "/nonexistent/series"])
        self.assertEqual(rc, 1)
        self.assertEqual(len(err.strip().splitlines()), 1)
        self.assertIn("the disk is full: cannot write /nonexistent/build/log", err)

    def test_unknown_command(self) -> None:
        with self.assertRaises(SystemExit):
            with contextlib.redirect_stderr(io.StringIO()):
                cli.main(["frobnicate"])


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

    def test_mutant_boots_are_paced_by_the_pristine_one(self) -> None:
        console = "ok 1 - slip\r\n# slip: 1.50 s to 3.50 s since boot\r\n# coda: 4.00 s to 4.10 s since boot\n"
        pristine = outcome.Outcome("before", X86_64, [], [], BootResult(console, 5.0, "", Path("c")))
        self.assertEqual(pristine.durations(), {"slip": 2.0, "coda": approx(0.1)})
        built = kernel.Build(X86_64, Path("k"), Path("bz"), Path("m"), "6.1", (
            GuestTest("slip", ()), GuestTest("coda", ()), GuestTest("new", ())))
        self.assertEqual(session._paced(built, pristine.durations()),
                         {"slip": 2 * session.PACE_FACTOR + session.PACE_SLACK, "coda": session.PACE_SLACK})

    def test_report_names_the_failing_log(self) -> None:
        text = report.report([self.outcome(ktap.Status.FAIL, [])], [], Path("series"))
        self.assertIn("| after | x86_64 | slip | not ok |", text)
        self.assertIn("console.log", text)

    def test_report_names_a_series_of_the_repository_relatively(self) -> None:
        text = report.report([], [], report.REPO / "generated-patches" / "linux-6.1")
        self.assertIn("Series: `generated-patches/linux-6.1`", text)


if __name__ == "__main__":
    unittest.main()


def fake_build(arch, label: str) -> kernel.Build:
    out = Path(f"/nonexistent/{arch.name}-{label}")
    return kernel.Build(arch, out, out / "image", out / "modroot", "6.1.0")


class BootsTest(unittest.TestCase):
    """Each kernel boots while the next one builds, one boot at a time, in order."""

    def test_a_boot_runs_while_the_main_thread_goes_on(self) -> None:
        started, go_on = threading.Event(), threading.Event()
        order = []

        def boot_kernel(tr, built, label, progress, pace=None):
            order.append(label)
            started.set()
            self.assertTrue(go_on.wait(10), "the main thread was not running meanwhile")
            return label

        with mock.patch.object(session, "boot_kernel", side_effect=boot_kernel):
            with session.Boots(FAKE_TREE, QUIET) as boots:
                first = boots.boot(fake_build(X86_64, "before"), "before")
                second = boots.boot(fake_build(X86_64, "after"), "after")
                self.assertTrue(started.wait(10))
                go_on.set()          # only reached while the first boot waits for it
                self.assertEqual([first.result(10), second.result(10)], ["before", "after"])
        self.assertEqual(order, ["before", "after"])

    def test_a_mutant_boot_is_paced_by_the_pristine_ones(self) -> None:
        paces = []

        def boot_kernel(tr, built, label, progress, pace=None):
            paces.append(pace)
            return f"{label}-outcome"

        with mock.patch.object(session, "boot_kernel", side_effect=boot_kernel):
            with session.Boots(FAKE_TREE, QUIET) as boots:
                pristine = [boots.boot(fake_build(X86_64, "before"), "before")]
                boots.boot(fake_build(X86_64, "mutant"), "mutant", pace=pristine).result(10)
        self.assertEqual(paces, [None, ["before-outcome"]])

    def test_an_error_drops_the_boots_not_started(self) -> None:
        release = threading.Event()
        ran = []

        def boot_kernel(tr, built, label, progress, pace=None):
            ran.append(label)
            release.wait(10)
            return label

        with mock.patch.object(session, "boot_kernel", side_effect=boot_kernel):
            with self.assertRaisesRegex(DemagicError, "build failed"):
                with session.Boots(FAKE_TREE, QUIET) as boots:
                    boots.boot(fake_build(X86_64, "before"), "before")
                    boots.boot(fake_build(X86_64, "after"), "after")
                    while not ran:
                        time.sleep(0.01)
                    release.set()
                    raise DemagicError("build failed")
        self.assertEqual(ran, ["before"])

    def test_without_overlap_the_boot_is_over_on_return(self) -> None:
        threads = []

        def boot_kernel(tr, built, label, progress, pace=None):
            threads.append(threading.current_thread())
            return label

        with mock.patch.object(session, "boot_kernel", side_effect=boot_kernel):
            with session.Boots(FAKE_TREE, QUIET, overlap=False) as boots:
                done = boots.boot(fake_build(X86_64, "before"), "before")
                self.assertTrue(done.done())
        self.assertEqual(threads, [threading.current_thread()])
        self.assertEqual(done.result(), "before")


class BuildKernelsTest(unittest.TestCase):
    """Each arch's kernel is handed on as soon as it is there, kept or built."""

    def run_build(self, kept: set) -> tuple:
        flavour = Flavour("plain", (X86_64, I386))
        events = []
        cached = lambda arch, dest, key: fake_build(arch, "kept") if arch.name in kept else None

        def build(src, out, arch, jobs, dest, key, plan, frag):
            events.append(f"build {arch.name}")
            return fake_build(arch, "built")

        with mock.patch.object(builds.kernel, "inputs_key", return_value="k"), \
                mock.patch.object(builds.kernel, "cached", side_effect=cached), \
                mock.patch.object(builds.kernel, "build", side_effect=build), \
                mock.patch.object(builds.trees, "sync",
                                  side_effect=lambda *a: events.append("sync") or Path("/wt")):
            got = builds.build_kernels(FAKE_TREE, None, "before", 2, QUIET, None, flavour,
                                    ready=lambda b: events.append(f"ready {b.out.name}"))
        return events, [b.out.name for b in got]

    def test_built_and_kept_kernels_in_the_flavours_order(self) -> None:
        events, got = self.run_build(kept={"x86_64"})
        self.assertEqual(events, ["sync", "ready x86_64-kept", "build i386", "ready i386-built"])
        self.assertEqual(got, ["x86_64-kept", "i386-built"])

    def test_nothing_to_build_touches_no_worktree(self) -> None:
        events, _ = self.run_build(kept={"x86_64", "i386"})
        self.assertEqual(events, ["ready x86_64-kept", "ready i386-kept"])
