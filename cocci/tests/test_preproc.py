# SPDX-License-Identifier: GPL-2.0
"""rewrite/preproc.py: preprocessor scaffolding a removal leaves behind."""

from __future__ import annotations

import unittest

from demagic.rewrite import preproc


class PreprocTest(unittest.TestCase):
    def test_empty_conditional_and_its_enabler_go(self) -> None:
        old = "#define DEBUG\n#ifdef DEBUG\n#define SET(q) ((q)->m = 1)\n#endif\nint x;\n"
        new = "#define DEBUG\n#ifdef DEBUG\n#define SET(q) ((q)->m = 1)\n#endif\nint x;\n"
        self.assertEqual(preproc.clean(old, new, ["SET"]), "int x;\n")

    def test_debug_kept_while_pr_debug_needs_it(self) -> None:
        text = "#define DEBUG\n#ifdef DEBUG\n#define SET(q) 1\n#endif\nvoid f(void) { pr_debug(\"x\"); }\n"
        self.assertIn("#define DEBUG", preproc.clean(text, text, ["SET"]))

    def test_conditional_empty_before_stays(self) -> None:
        text = "#ifdef A\n#endif\nint x;\n"
        self.assertEqual(preproc.clean(text, text, []), text)


if __name__ == "__main__":
    unittest.main()
