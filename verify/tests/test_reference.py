# SPDX-License-Identifier: GPL-2.0
"""verify/reference.py, the reference comparison."""

from __future__ import annotations

import unittest
from pathlib import Path

from demagic.model import patches as patch
from demagic.model.reports import Status
from verify import reference

DATA = Path(__file__).resolve().parent / "test_data"
MODEL_DATA = Path(__file__).resolve().parents[2] / "cocci" / "tests" / "test_data"


def load(name: str) -> patch.Patch:
    return patch.parse_file(MODEL_DATA / name, 3)


class ReferenceTest(unittest.TestCase):
    def test_whitespace_does_not_matter(self) -> None:
        ours = load("remove-foo-magic.patch")
        text = (MODEL_DATA / "remove-foo-magic.patch").read_text().replace(
            "-\tint magic;", "-        int   magic;")
        theirs = patch.parse_text(text, Path("upstream.patch"))
        self.assertEqual(reference.differences(ours, theirs), [])
        self.assertEqual(reference.compare(ours, [theirs], "ref").status, Status.PASS)

    def test_blanks_around_punctuation(self) -> None:
        self.assertEqual(reference.normalise("\tcp -> busy  = false ;"), "cp->busy=false;")
        self.assertNotEqual(reference.normalise("int a;"), reference.normalise("inta;"))

    def test_a_trailing_comment_difference_is_listed(self) -> None:
        ours = load("remove-foo-magic.patch")
        text = (MODEL_DATA / "remove-foo-magic.patch").read_text().replace(
            "+\t(void)magic;", "+\t(void)magic; /* other */")
        cell = reference.compare(ours, [patch.parse_text(text, Path("u.patch"))], "ref")
        self.assertEqual(cell.status, Status.PASS)
        self.assertIn("differ in a trailing comment only", cell.reason)

    def test_a_code_difference_fails(self) -> None:
        ours = load("remove-foo-magic.patch")
        text = (MODEL_DATA / "remove-foo-magic.patch").read_text().replace(
            "+\t(void)magic;", "+\t(void)(magic + 1);")
        theirs = patch.parse_text(text, Path("upstream.patch"))
        diffs = reference.differences(ours, theirs)
        self.assertEqual(len(diffs), 2)
        self.assertTrue(diffs[0].startswith("drivers/foo/foo.c: ours only: +"))
        self.assertEqual(reference.compare(ours, [theirs], "ref").status, Status.FAIL)

    def test_doc_difference_only_listed(self) -> None:
        ours = load("remove-foo-magic.patch")
        text = (MODEL_DATA / "remove-foo-magic.patch").read_text().replace(
            "-FOO_MAGIC             0x4242", "-FOO_MAGIC             0x4243")
        cell = reference.compare(ours, [patch.parse_text(text, Path("u.patch"))], "ref")
        self.assertEqual(cell.status, Status.PASS)
        self.assertEqual(len(cell.details), 2)

    def test_no_counterpart_and_no_directory(self) -> None:
        ours = load("remove-foo-magic.patch")
        other = patch.parse_text((MODEL_DATA / "remove-foo-magic.patch").read_text().replace(
            "remove FOO_MAGIC and\n QUEUE_MAGIC_{FREE,USED}", "remove BAR_MAGIC"), Path("b.patch"))
        self.assertIsNone(reference.counterpart(ours, [other]))
        self.assertEqual(reference.compare(ours, [other], "ref").status, Status.NA)
        self.assertEqual(reference.compare(ours, None, "ref").status, Status.NA)


if __name__ == "__main__":
    unittest.main()
