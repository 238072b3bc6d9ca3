# SPDX-License-Identifier: GPL-2.0
"""verify/matrix.py renders the VerifyReport."""

from __future__ import annotations

import json
import unittest
from pathlib import Path

from demagic.model import patches as patch
from demagic.model.reports import CHECKS, Row, VerifyReport, failed, passed
from verify import matrix

DATA = Path(__file__).resolve().parent / "test_data"
MODEL_DATA = Path(__file__).resolve().parents[2] / "cocci" / "tests" / "test_data"


def load(name: str) -> patch.Patch:
    return patch.parse_file(MODEL_DATA / name, 3)


class MatrixTest(unittest.TestCase):
    def sample(self) -> VerifyReport:
        row = Row(1, "0001-x.patch", "x: remove X_MAGIC | pipe")
        row.cells["applies"] = passed("git am")
        row.cells["builds"] = failed("1 problems", ["x86_64 a.o: new warning"])
        return VerifyReport("linux-6.1 (6.1.192)", "series", "none", "full", ["note"], [row])

    def test_any_fail_fails_the_matrix(self) -> None:
        m = self.sample()
        self.assertTrue(m.failed())
        m.rows[0].cells["builds"] = passed("ok")
        self.assertFalse(m.failed())

    def test_text_explains_failures(self) -> None:
        text = matrix.render_text(self.sample())
        self.assertIn("x86_64 a.o: new warning", text)
        self.assertIn("result: FAIL", text)
        self.assertIn("n.a.", text)   # unrun checks are n.a., never pass

    def test_markdown_table_is_well_formed(self) -> None:
        md = matrix.render_markdown(self.sample())
        rows = [ln for ln in md.splitlines() if ln.startswith("| 01")]
        self.assertEqual(len(rows), 1)
        self.assertEqual(rows[0].count(" | ") + 2, len(CHECKS) + 3)   # pipe escaped
        self.assertIn("Result: **FAIL**", md)

    def test_json_round_trip(self) -> None:
        data = json.loads(matrix.render_json(self.sample()))
        self.assertEqual(data["result"], "fail")
        self.assertEqual(data["patches"][0]["cells"]["builds"]["status"], "FAIL")
        self.assertEqual(set(data["patches"][0]["cells"]), set(CHECKS))


if __name__ == "__main__":
    unittest.main()
