# SPDX-License-Identifier: GPL-2.0
"""KTAP parsing of guest consoles (golden logs in test_data/)."""

import unittest
from pathlib import Path

from qemu import ktap
from qemu.ktap import Status

DATA = Path(__file__).resolve().parent / "test_data"


def load(name: str) -> str:
    return (DATA / name).read_text()


class StripPrefixTest(unittest.TestCase):
    def test_timestamp(self) -> None:
        self.assertEqual(ktap.strip_prefix("[    1.234567] ok 1 - x\n"), "ok 1 - x")

    def test_caller_id(self) -> None:
        self.assertEqual(ktap.strip_prefix("[    1.2][    T1] Oops: 0000"), "Oops: 0000")

    def test_userspace_line_kept(self) -> None:
        self.assertEqual(ktap.strip_prefix("    ok 1 - x\r\n"), "    ok 1 - x")


class ParseTest(unittest.TestCase):
    def test_pass(self) -> None:
        results, crashes = ktap.parse(load("test_parse_pass.log"), ["fasync", "slip"])
        self.assertEqual([(r.name, r.status) for r in results],
                         [("fasync", Status.PASS), ("slip", Status.PASS)])
        self.assertEqual(len(results[0].subtests), 2)
        self.assertEqual(crashes, [])
        self.assertTrue(ktap.passed(results, crashes))

    def test_failure(self) -> None:
        results, crashes = ktap.parse(load("test_parse_failure.log"), ["yam", "fasync"])
        self.assertEqual(results[0].status, Status.FAIL)
        self.assertEqual(results[0].subtests[1].status, Status.FAIL)
        self.assertIn("Invalid argument", " ".join(results[0].diagnostics))
        self.assertEqual(results[1].status, Status.PASS)
        self.assertFalse(ktap.passed(results, crashes))

    def test_crashed_missing_results(self) -> None:
        results, crashes = ktap.parse(load("test_parse_crashed.log"),
                                      ["hdlcdrv", "slip", "yam"])
        self.assertEqual([(r.name, r.status) for r in results],
                         [("hdlcdrv", Status.PASS), ("slip", Status.CRASHED),
                          ("yam", Status.CRASHED)])
        self.assertTrue(any("Oops" in c for c in crashes))
        self.assertTrue(any("Kernel panic" in c for c in crashes))
        self.assertFalse(ktap.passed(results, crashes))

    def test_warning_marks_the_running_test(self) -> None:
        results, crashes = ktap.parse(load("test_parse_warning.log"), ["hdlcdrv"])
        self.assertEqual(results[0].status, Status.CRASHED)
        self.assertTrue(any("WARNING:" in c for c in crashes))
        self.assertFalse(ktap.passed(results, crashes))

    def test_real_console(self) -> None:
        names = ["slip", "hdlcdrv", "baycom", "yam", "fasync", "coda", "synclink_cs"]
        results, crashes = ktap.parse(load("test_parse_real_x86_64.log"), names)
        self.assertEqual([r.name for r in results], names)
        self.assertTrue(ktap.passed(results, crashes))
        self.assertEqual(len(results[0].subtests), 17)

    def test_real_console_cut_short(self) -> None:
        names = ["slip", "hdlcdrv", "baycom", "yam", "fasync", "coda", "synclink_cs"]
        log = load("test_parse_real_x86_64.log")
        results, crashes = ktap.parse(log[:log.index("ok 3 - baycom")], names)
        self.assertEqual([r.status for r in results][2:], [Status.CRASHED] * 5)
        self.assertFalse(ktap.passed(results, crashes))

    def test_crlf_console(self) -> None:
        results, crashes = ktap.parse(load("test_parse_crlf.log"), ["apm"])
        self.assertEqual(results[0].status, Status.PASS)
        self.assertTrue(ktap.passed(results, crashes))

    def test_no_ktap_at_all_is_crashed(self) -> None:
        results, crashes = ktap.parse("[ 0.1] Kernel panic - not syncing: VFS\n", ["slip"])
        self.assertEqual(results[0].status, Status.CRASHED)
        self.assertFalse(ktap.passed(results, crashes))

    def test_no_verdict_directives(self) -> None:
        console = ("KTAP version 1\n1..4\nnot ok 1 - a # ERROR no host userland over 9p\n"
                   "not ok 2 - b # TIMEOUT after 240 s\nnot ok 3 - c # exit status 1\n"
                   "ok 4 - d # SKIP no modem\n")
        results, _ = ktap.parse(console, ["a", "b", "c", "d"])
        self.assertEqual([r.status for r in results],
                         [Status.ERROR, Status.TIMEOUT, Status.FAIL, Status.SKIP])
        self.assertEqual(results[0].directive, "ERROR no host userland over 9p")
        self.assertEqual(results[2].directive, "exit status 1")
        self.assertFalse(ktap.passed(results[:1], []))
        self.assertFalse(ktap.passed(results[1:2], []))

    def test_skip_directive(self) -> None:
        results, _ = ktap.parse("KTAP version 1\n1..1\nok 1 - coda # SKIP no module\n", ["coda"])
        self.assertEqual(results[0].status, Status.SKIP)

    def test_diagnostic_mentioning_bug_is_not_a_crash(self) -> None:
        log = "KTAP version 1\n1..1\n    # BUG: not really\nok 1 - x\n"
        results, crashes = ktap.parse(log, ["x"])
        self.assertEqual(crashes, [])
        self.assertEqual(results[0].status, Status.PASS)


if __name__ == "__main__":
    unittest.main()
