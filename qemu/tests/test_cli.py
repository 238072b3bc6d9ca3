# SPDX-License-Identifier: GPL-2.0
"""The command line: bad input is one line and a non-zero status; the report."""

import contextlib
import io
import tempfile
import unittest
from pathlib import Path
from unittest import mock

from demagic.tree import Tree
from qemu import cli, ktap
from qemu.archs import X86_64
from qemu.boot import BootResult

FAKE_TREE = Tree("linux-test", Path("/nonexistent"), "0" * 40, "6.1.0", False)


def quiet_main(argv: list) -> tuple:
    err = io.StringIO()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
        with mock.patch("qemu.cli.dtree.pristine", return_value=FAKE_TREE):
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

    def test_unknown_command(self) -> None:
        with self.assertRaises(SystemExit):
            with contextlib.redirect_stderr(io.StringIO()):
                cli.main(["frobnicate"])


class OutcomeTest(unittest.TestCase):
    def outcome(self, status: ktap.Status, crashes: list) -> cli.Outcome:
        boot = BootResult("", 1.0, "", Path("console.log"))
        return cli.Outcome("after", X86_64, [ktap.Result("slip", status)], crashes, boot)

    def test_ok(self) -> None:
        self.assertTrue(self.outcome(ktap.Status.PASS, []).ok)

    def test_failure_or_crash_is_not_ok(self) -> None:
        self.assertFalse(self.outcome(ktap.Status.FAIL, []).ok)
        self.assertFalse(self.outcome(ktap.Status.PASS, ["Oops: 0000"]).ok)

    def test_report_names_the_failing_log(self) -> None:
        text = cli.report([self.outcome(ktap.Status.FAIL, [])], [], Path("series"))
        self.assertIn("| after | x86_64 | slip | not ok |", text)
        self.assertIn("console.log", text)

    def test_report_names_a_series_of_the_repository_relatively(self) -> None:
        text = cli.report([], [], cli.REPO / "generated-patches" / "linux-6.1")
        self.assertIn("Series: `generated-patches/linux-6.1`", text)


if __name__ == "__main__":
    unittest.main()
