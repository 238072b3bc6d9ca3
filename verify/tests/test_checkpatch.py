# SPDX-License-Identifier: GPL-2.0
"""verify/checkpatch.py: the checkpatch cell."""

from __future__ import annotations

import os
import tempfile
import unittest
from pathlib import Path
from unittest import mock

from demagic.model import patches as patch
from demagic.model.reports import Status
from verify import checkpatch

DATA = Path(__file__).resolve().parent / "test_data"
MODEL_DATA = Path(__file__).resolve().parents[2] / "cocci" / "tests" / "test_data"


def load(name: str) -> patch.Patch:
    return patch.parse_file(MODEL_DATA / name, 3)


class CheckpatchTest(unittest.TestCase):
    def test_errors_fail_and_warnings_are_listed(self) -> None:
        with tempfile.TemporaryDirectory() as tmp:
            tree = Path(tmp)
            (tree / "scripts").mkdir()
            (tree / "scripts" / "checkpatch.pl").write_text(
                'print "$ARGV[-1]:7: WARNING:AVOID_BUG: a\\n";\n'
                'print "$ARGV[-1]:9: ERROR:SPACING: b\\n" if $ENV{FAKE_ERROR}; exit 1;\n')
            patch = tree / "0001-x.patch"
            patch.write_text("Subject: x\n")
            cell, findings = checkpatch.check(tree, patch)
            self.assertEqual((cell.status, cell.reason), (Status.PASS, "no error, 1 warnings"))
            self.assertEqual([(f.type, f.reason) for f in findings],
                             [("AVOID_BUG", "new in this patch")])
            with mock.patch.dict(os.environ, {"FAKE_ERROR": "1"}):
                cell, findings = checkpatch.check(tree, patch)
            self.assertEqual(cell.status, Status.FAIL)
            self.assertEqual(cell.details, ["0001-x.patch:9: ERROR:SPACING: b",
                                            "0001-x.patch:7: WARNING:AVOID_BUG: a "
                                            "(new in this patch)"])


if __name__ == "__main__":
    unittest.main()
