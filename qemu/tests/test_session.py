# SPDX-License-Identifier: GPL-2.0
"""qemu/session.py: boots paced by the pristine ones, one at a time, while the next kernel
builds."""

import threading
import time
import unittest
from pathlib import Path
from unittest import mock

from demagic.core.errors import DemagicError
from demagic.core.proc import Progress
from demagic.kernel.tree import Tree
from qemu import kernel, outcome, session
from qemu.machines import X86_64, GuestTest
from qemu.boot import BootResult

QUIET = Progress(quiet=True)
FAKE_TREE = Tree("linux-test", Path("/nonexistent"), "0" * 40, "6.1.0", False)


def approx(value: float) -> object:
    """Equal to any float within 1e-9 of value."""
    class Approx:
        def __eq__(self, other: object) -> bool:
            return isinstance(other, float) and abs(other - value) < 1e-9
    return Approx()


def fake_build(arch, label: str) -> kernel.Build:
    out = Path(f"/nonexistent/{arch.name}-{label}")
    return kernel.Build(arch, out, out / "image", out / "modroot", "6.1.0")


class PacedTest(unittest.TestCase):
    def test_mutant_boots_are_paced_by_the_pristine_one(self) -> None:
        console = "ok 1 - slip\r\n# slip: 1.50 s to 3.50 s since boot\r\n# coda: 4.00 s to 4.10 s since boot\n"
        pristine = outcome.Outcome("before", X86_64, [], [], BootResult(console, 5.0, "", Path("c")))
        self.assertEqual(pristine.durations(), {"slip": 2.0, "coda": approx(0.1)})
        built = kernel.Build(X86_64, Path("k"), Path("bz"), Path("m"), "6.1", (
            GuestTest("slip", ()), GuestTest("coda", ()), GuestTest("new", ())))
        self.assertEqual(session._paced(built, pristine.durations()),
                         {"slip": 2 * session.PACE_FACTOR + session.PACE_SLACK, "coda": session.PACE_SLACK})


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


if __name__ == "__main__":
    unittest.main()
