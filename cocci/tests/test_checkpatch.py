# SPDX-License-Identifier: GPL-2.0
"""kernel/checkpatch.py: the one wrapper of the tree's checkpatch.pl."""

from __future__ import annotations

import tempfile
import unittest
from pathlib import Path

from demagic.core.errors import DemagicError
from demagic.kernel import checkpatch

# prints what it is told for the last patch it was given, and exits as told
FAKE = ('my ($say, $code) = @ENV{"FAKE_SAY", "FAKE_EXIT"};\n'
        'my $patch = $ARGV[-1];\n'
        'print "$patch:$_\\n" for grep { length } split /\\|/, $say;\n'
        'exit $code;\n')


class CheckTest(unittest.TestCase):
    def setUp(self) -> None:
        self.tmp = Path(tempfile.mkdtemp(prefix="demagic-checkpatch."))
        self.addCleanup(lambda: __import__("shutil").rmtree(self.tmp))
        (self.tmp / "scripts").mkdir()
        (self.tmp / "scripts" / "checkpatch.pl").write_text(FAKE)
        self.patch = self.tmp / "series" / "0003-x.patch"
        self.patch.parent.mkdir()
        self.patch.write_text("Subject: x\n")

    def run_fake(self, say: str, code: int) -> list:
        import os
        from unittest import mock
        with mock.patch.dict(os.environ, {"FAKE_SAY": say, "FAKE_EXIT": str(code)}):
            return checkpatch.check(self.tmp, [self.patch])[self.patch]

    def test_findings_name_the_patch_file_not_its_checkout(self) -> None:
        found = self.run_fake("107: WARNING:AVOID_BUG: Do not crash|20: ERROR:SPACING: space", 1)
        self.assertEqual([str(f) for f in found],
                         ["0003-x.patch:107: WARNING:AVOID_BUG: Do not crash",
                          "0003-x.patch:20: ERROR:SPACING: space"])
        self.assertEqual([f.error for f in found], [False, True])

    def test_a_clean_patch_has_no_finding(self) -> None:
        self.assertEqual(self.run_fake("", 0), [])

    def test_a_script_that_fails_is_named(self) -> None:
        with self.assertRaisesRegex(DemagicError, r"checkpatch.pl exited 2 on 0003-x.patch"):
            self.run_fake("", 2)

    def test_findings_said_but_none_read_is_a_failure(self) -> None:
        with self.assertRaisesRegex(DemagicError, r"exited 1"):
            self.run_fake("garbled line", 1)

    def test_a_tree_without_the_script_reports_nothing(self) -> None:
        (self.tmp / "scripts" / "checkpatch.pl").unlink()
        self.assertEqual(checkpatch.check(self.tmp, [self.patch]), {self.patch: []})

    def test_a_finding_survives_the_cache_format(self) -> None:
        f = checkpatch.Finding("0001-a.patch", 3, "CHECK", "LINE_SPACING", "blank line")
        self.assertEqual(checkpatch.Finding.from_json(f.to_json()), f)


if __name__ == "__main__":
    unittest.main()
