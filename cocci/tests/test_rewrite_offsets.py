# SPDX-License-Identifier: GPL-2.0
"""rewrite/offsets.py: the members of a struct whose offsets move."""

from __future__ import annotations

import unittest

from demagic.rewrite import offsets as layout


class LayoutTest(unittest.TestCase):
    def test_members_in_order(self) -> None:
        header = "typedef struct kv {\n\tint\t\tkv_magic;\n\ts16\t\tkv_ro;\n} kv_t;\n"
        self.assertEqual(layout.members(header, "kv"), [("int", "kv_magic"), ("s16", "kv_ro")])


if __name__ == "__main__":
    unittest.main()
