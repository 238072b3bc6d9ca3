# SPDX-License-Identifier: GPL-2.0
"""kernel/offsets.py: which offset macro names which member, and its value."""

from __future__ import annotations

import unittest

from demagic.kernel.offsets import eval_c_int, member_of, offset_macros

HEADER = """struct kern_vars_s {
	int kv_magic;
	nasid_t kv_ro_nasid;
};
#define KV_MAGIC_OFFSET		0x0
#define KV_OFF_RO_NASID		(0x4)	/* the read-only copy */
#define KV_RW_NASID_OFFSET	(KV_OFF_RO_NASID + 2)	/* built on a macro: not read */
#define KV_RO_NASID_OFS		(2 + 2)
#define KV_BACKOFF		3
"""


class MemberTest(unittest.TestCase):
    def test_the_offset_word_may_stand_anywhere(self) -> None:
        members = ["kv_magic", "kv_ro_nasid", "kv_rw_nasid"]
        self.assertEqual([member_of(n, members) for n in
                          ("KV_MAGIC_OFFSET", "KV_OFF_RO_NASID", "KV_RW_NASID_OFS")],
                         ["kv_magic", "kv_ro_nasid", "kv_rw_nasid"])

    def test_the_offset_word_in_the_middle(self) -> None:
        self.assertEqual(member_of("NMI_OFF_MAGIC", ["magic", "flags"]), "magic")
        self.assertIsNone(member_of("KV_SIZE", ["kv_magic", "kv_size"]))

    def test_the_longest_member_that_ends_the_name_wins(self) -> None:
        self.assertEqual(member_of("X_RO_NASID_OFFSET", ["nasid", "ro_nasid"]), "ro_nasid")

    def test_a_name_without_an_offset_word_is_not_one(self) -> None:
        self.assertIsNone(member_of("KV_MAGIC", ["kv_magic"]))
        self.assertIsNone(member_of("KV_BACKOFF", ["kv_backoff", "backoff"]))


class MacrosTest(unittest.TestCase):
    def test_macros_values_and_spans(self) -> None:
        found = offset_macros(HEADER, ["kv_magic", "kv_ro_nasid", "kv_rw_nasid"])
        self.assertEqual([(m.name, m.member, m.value, m.literal) for m in found],
                         [("KV_MAGIC_OFFSET", "kv_magic", 0, True),
                          ("KV_OFF_RO_NASID", "kv_ro_nasid", 4, True),
                          ("KV_RO_NASID_OFS", "kv_ro_nasid", 4, False)])
        self.assertEqual(HEADER[found[1].start:found[1].end], "(0x4)")

    def test_an_expression_of_numbers_is_read_but_not_literal(self) -> None:
        found = offset_macros("#define KV_RO_NASID_OFS\t(2 + 2)\n", ["kv_ro_nasid"])
        self.assertEqual([(m.value, m.literal) for m in found], [(4, False)])

    def test_eval_c_int(self) -> None:
        self.assertEqual(eval_c_int("(0x10UL << 2)"), 64)
        self.assertEqual(eval_c_int("010"), 8)
        self.assertIsNone(eval_c_int("sizeof(struct x)"))


if __name__ == "__main__":
    unittest.main()
