# SPDX-License-Identifier: GPL-2.0
"""verify/layout.py: pahole layouts and the offsets that must agree."""

from __future__ import annotations

import unittest
from pathlib import Path
from typing import Tuple

from demagic.model import patches as patch
from verify import layout

DATA = Path(__file__).resolve().parent / "test_data"
MODEL_DATA = Path(__file__).resolve().parents[2] / "cocci" / "tests" / "test_data"


def load(name: str) -> patch.Patch:
    return patch.parse_file(MODEL_DATA / name, 3)


class LayoutTest(unittest.TestCase):
    def layouts(self) -> Tuple[layout.Layout, layout.Layout]:
        return (layout.parse_pahole("kern_vars_s", (DATA / "kern_vars_s-before.pahole").read_text()),
                layout.parse_pahole("kern_vars_s", (DATA / "kern_vars_s-after.pahole").read_text()))

    def test_parse(self) -> None:
        before, after = self.layouts()
        self.assertEqual(before.names()[:2], ["kv_magic", "kv_ro_nasid"])
        self.assertEqual((before.size, after.offset("kv_rw_nasid")), (24, 2))

    def test_only_the_removed_member_went(self) -> None:
        before, after = self.layouts()
        self.assertEqual(layout.compare(before, after, {"kv_magic"}, set()), [])
        self.assertTrue(layout.compare(before, after, {"kv_ro_nasid"}, set()))

    def test_offset_macros_must_follow(self) -> None:
        _, after = self.layouts()
        good = "#define KV_RO_NASID_OFFSET\t0x0\n#define KV_RW_NASID_OFFSET\t(0x1 + 1)\n"
        macros = layout.offsets_of(good, after, {"kv_magic"})
        self.assertEqual([(m.name, m.value) for m in macros],
                         [("KV_RO_NASID_OFFSET", 0), ("KV_RW_NASID_OFFSET", 2)])
        self.assertEqual(layout.check_offsets(macros, after, {"kv_magic"}), [])
        stale = "#define KV_MAGIC_OFFSET 0x0\n#define KV_RO_NASID_OFFSET 0x4\n"
        problems = layout.check_offsets(layout.offsets_of(stale, after, {"kv_magic"}),
                                        after, {"kv_magic"})
        self.assertEqual(len(problems), 2)

    def test_an_off_macro_is_checked_too(self) -> None:
        """Macros named FOO_OFF (or with OFF inside) are the rewrite's too: verify checks them."""
        _, after = self.layouts()
        stale = "#define KV_OFF_RO_NASID 0x4\n#define KV_RW_NASID_OFF 0x2\n"
        problems = layout.check_offsets(layout.offsets_of(stale, after, {"kv_magic"}),
                                        after, {"kv_magic"})
        self.assertEqual(problems, ["KV_OFF_RO_NASID = 0x4 but kern_vars_s.kv_ro_nasid is at 0x0"])


if __name__ == "__main__":
    unittest.main()
