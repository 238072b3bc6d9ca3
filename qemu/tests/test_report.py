# SPDX-License-Identifier: GPL-2.0
"""qemu/report.py: boot-test.md names what failed and the series it speaks of."""

import unittest
from pathlib import Path

from qemu import ktap, outcome, report
from qemu.machines import X86_64
from qemu.boot import BootResult


def an_outcome(status: ktap.Status) -> outcome.Outcome:
    boot = BootResult("console", 1.0, "", Path("console.log"))
    return outcome.Outcome("after", X86_64, [ktap.Result("slip", status)], [], boot)


class ReportTest(unittest.TestCase):
    def test_report_names_the_failing_log(self) -> None:
        text = report.report([an_outcome(ktap.Status.FAIL)], [], Path("series"))
        self.assertIn("| after | x86_64 | slip | not ok |", text)
        self.assertIn("console.log", text)

    def test_report_names_a_series_of_the_repository_relatively(self) -> None:
        text = report.report([], [], report.REPO / "generated-patches" / "linux-6.1")
        self.assertIn("Series: `generated-patches/linux-6.1`", text)


if __name__ == "__main__":
    unittest.main()
