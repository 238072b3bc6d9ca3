# SPDX-License-Identifier: GPL-2.0
"""Mutants made from patch text: only magic assignments removed, NULL tests dropped."""

import shutil
import tempfile
import unittest
from pathlib import Path

from demagic.model.patches import parse_file, parse_text
from demagic.core.errors import DemagicError
from demagic.core.proc import run
from qemu import mutant

DATA = Path(__file__).resolve().parent / "test_data"
FAKE = DATA / "test_mutant_fake.patch"


def applied(patch_text: str) -> str:
    """widget.c after patch_text, applied by patch(1) in a scratch directory."""
    with tempfile.TemporaryDirectory() as tmp:
        shutil.copy(DATA / "test_mutant_widget.c", Path(tmp) / "widget.c")
        (Path(tmp) / "m.patch").write_text(patch_text)
        run(["patch", "-s", "-p1", "--fuzz=0", "-i", "m.patch"], cwd=Path(tmp))
        return (Path(tmp) / "widget.c").read_text()


class RegexTest(unittest.TestCase):
    def test_assignment(self) -> None:
        for line in ("\tsl->magic       = SLIP_MAGIC;", "\tbc->hdrv.magic = HDLCDRV_MAGIC;",
                     "\tcfi->cfi_magic = CODA_MAGIC;", "\t.magic = FOO_MAGIC,"):
            self.assertTrue(mutant.MAGIC_ASSIGNMENT.match(line), line)

    def test_not_assignment(self) -> None:
        for line in ("\tif (sl->magic == SLIP_MAGIC)", "\tint magic;",
                     "#define SLIP_MAGIC 0x5302", "\tx = magic_count;"):
            self.assertFalse(mutant.MAGIC_ASSIGNMENT.match(line), line)

    def test_drop_null_test(self) -> None:
        self.assertEqual(mutant.drop_null_test("if (!s || s->magic != M)"), "if (s->magic != M)")
        self.assertEqual(mutant.drop_null_test("if (as == NULL || as->magic != M)"),
                         "if (as->magic != M)")
        self.assertEqual(mutant.drop_null_test("if (!dev || !bc || bc->hdrv.magic != M)"),
                         "if (!dev || bc->hdrv.magic != M)")
        # a NULL test of another variable stays
        self.assertEqual(mutant.drop_null_test("if (!tty || sl->magic != M)"),
                         "if (!tty || sl->magic != M)")


class RewriteTest(unittest.TestCase):
    def setUp(self) -> None:
        self.patch = parse_file(FAKE)

    def test_touched(self) -> None:
        self.assertEqual(self.patch.paths(), ["widget.c"])

    def test_assignments_only(self) -> None:
        text = mutant.rewrite(self.patch, mutant.assignments_only)
        assert text is not None
        out = applied(text)
        self.assertNotIn("w->magic = WIDGET_MAGIC;", out)
        self.assertIn("w->magic != WIDGET_MAGIC", out)
        self.assertIn("int magic;", out)

    def test_no_null_test(self) -> None:
        text = mutant.rewrite(self.patch, mutant.no_null_test)
        assert text is not None
        out = applied(text)
        self.assertNotIn("w->magic = WIDGET_MAGIC;", out)
        self.assertIn("if (w->magic != WIDGET_MAGIC)", out)

    def test_the_real_patch_applies_too(self) -> None:
        out = applied(FAKE.read_text())
        self.assertNotIn("magic", out.replace("WIDGET_MAGIC", ""))

    def test_no_signature(self) -> None:
        bare = FAKE.read_text().split("\n-- \n")[0] + "\n"
        text = mutant.rewrite(parse_text(bare, FAKE), mutant.assignments_only)
        assert text is not None
        self.assertNotIn("w->magic = WIDGET_MAGIC;", applied(text))

    def test_hunk_cut_short(self) -> None:
        cut = FAKE.read_text().replace(" \tw->count++;\n", "")
        with self.assertRaises(DemagicError):
            parse_text(cut.split("\n-- \n")[0].rsplit("\n", 3)[0] + "\nfoo\n", FAKE)

    def test_nothing_to_mutate(self) -> None:
        doc = FAKE.read_text().replace("w->magic = WIDGET_MAGIC;", "w->count = 1;")
        text = mutant.rewrite(parse_text(doc, FAKE), mutant.assignments_only)
        self.assertIsNone(text)

    def test_make_refuses_a_series_without_assignments(self) -> None:
        with tempfile.TemporaryDirectory() as tmp:
            p = Path(tmp) / "0001-x.patch"
            p.write_text(FAKE.read_text().replace("w->magic = WIDGET_MAGIC;", "w->count = 1;"))
            with self.assertRaises(DemagicError):
                mutant.make([parse_file(p)], "assignments-only", Path(tmp) / "out")

    def test_not_a_patch(self) -> None:
        with self.assertRaises(DemagicError):
            parse_text("just a mail\n", FAKE)


if __name__ == "__main__":
    unittest.main()
