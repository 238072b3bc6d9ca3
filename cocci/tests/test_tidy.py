# SPDX-License-Identifier: GPL-2.0
"""rewrite/tidy.py: the layout a reviewer expects after a removal."""

from __future__ import annotations

import unittest

from demagic.rewrite.tidy import realign, tidy


class RealignTest(unittest.TestCase):
    def test_keeps_alignment_of_the_old_line(self) -> None:
        self.assertEqual(realign("\tcp->magic\t\t= CCB_MAGIC;\n", "\tcp->busy = true;\n"),
                         "\tcp->busy\t\t= true;\n")

    def test_spatch_spacing_after_a_removed_operand(self) -> None:
        self.assertEqual(realign("\tif (!s || s->magic != M) \n", "\tif (!s) \n"), "\tif (!s)\n")

    def test_no_blanks_around_member_access(self) -> None:
        self.assertEqual(realign("\tcp -> magic = 0;\n", "\tcp->busy = false;\n"),
                         "\tcp->busy = false;\n")


class TidyTest(unittest.TestCase):
    def test_removal_leaves_no_double_blank_line(self) -> None:
        old = "a;\n\nif (x->magic != M)\n\treturn;\n\nb;\n"
        new = "a;\n\nb;\n"
        self.assertEqual(tidy(old, new), "a;\n\nb;\n")

    def test_comment_moved_by_spatch_goes_back(self) -> None:
        old = "/* head */\n#define M 1\nstruct s {\n\tint m;\t/* magic */\n\tint n;\n};\n"
        new = "struct s {\t/* magic */\n\tint n;\n};\n"
        self.assertEqual(tidy(old, new), "/* head */\nstruct s {\n\tint n;\n};\n")

    def test_empty_section_comment_goes(self) -> None:
        old = "x;\n\n/*\n * Misc.\n */\n\n#define M 1\n\n/*\n * Next.\n */\ny;\n"
        new = "x;\n\n/*\n * Next.\n */\ny;\n"
        self.assertEqual(tidy(old, new), "x;\n\n/*\n * Next.\n */\ny;\n")

    def test_a_wrong_expectation_is_not_met(self) -> None:
        self.assertNotEqual(tidy("a;\n\nb;\n", "a;\n\nb;\n"), "a;\nb;\n")


if __name__ == "__main__":
    unittest.main()
