# SPDX-License-Identifier: GPL-2.0
"""The coverage table: tests per patch, or why a patch is compile-only."""

import unittest

from qemu import coverage


def patch(*paths: str) -> str:
    body = "Subject: [PATCH 1/2] x: remove X_MAGIC\n\n---\n"
    return body + "".join(f"diff --git a/{p} b/{p}\n--- a/{p}\n+++ b/{p}\n" for p in paths)


class RowTest(unittest.TestCase):
    def test_tested(self) -> None:
        r = coverage.row("0004.patch", patch("drivers/net/slip/slip.c",
                                             "Documentation/process/magic-number.rst"))
        self.assertEqual(r.tests, ["slip (x86_64)"])
        self.assertEqual(r.subject, "x: remove X_MAGIC")

    def test_both_archs(self) -> None:
        r = coverage.row("p", patch("fs/fcntl.c", "include/linux/fs.h"))
        self.assertEqual(r.tests, ["fasync (x86_64, i386)"])

    def test_documentation_only(self) -> None:
        r = coverage.row("p", patch("Documentation/process/magic-number.rst"))
        self.assertEqual(r.tests, [])
        self.assertTrue(r.note.startswith("compile-only: documentation"))

    def test_not_emulated(self) -> None:
        r = coverage.row("p", patch("drivers/scsi/arm/queue.c"))
        self.assertIn("RiscPC", r.note)
        self.assertTrue(r.note.startswith("compile-only:"))

    def test_unknown_code_is_named(self) -> None:
        r = coverage.row("p", patch("drivers/misc/widget.c"))
        self.assertEqual(r.note, "compile-only: no boot test runs drivers/misc/widget.c")


if __name__ == "__main__":
    unittest.main()
