# SPDX-License-Identifier: GPL-2.0
"""model/patches.py: a format-patch parsed once; what each patch retires."""

from __future__ import annotations

import unittest
from pathlib import Path

from demagic.model import patches as patch

DATA = Path(__file__).resolve().parent / "test_data"


def load(name: str) -> patch.Patch:
    return patch.parse_file(DATA / name, 3)


def old_foo(path: str) -> str:
    return (DATA / "foo.c").read_text() if path == "drivers/foo/foo.c" else ""


class PatchTest(unittest.TestCase):
    def test_subject_unfolded_without_tag(self) -> None:
        self.assertEqual(load("remove-foo-magic.patch").subject,
                         "drivers: foo: remove FOO_MAGIC and QUEUE_MAGIC_{FREE,USED}")

    def test_magic_names_expand_braces(self) -> None:
        names = patch.magic_names(load("remove-foo-magic.patch").subject)
        self.assertEqual(names, {"FOO_MAGIC", "QUEUE_MAGIC_FREE", "QUEUE_MAGIC_USED"})

    def test_line_numbers_follow_the_hunks(self) -> None:
        foo = load("remove-foo-magic.patch").files[1]
        self.assertEqual([(ln.tag, ln.number) for ln in foo.lines][:4],
                         [("-", 4), ("-", 5), ("-", 6), ("-", 8)])
        self.assertEqual(foo.added()[0].number, 19)

    def test_mail_signature_is_not_a_removed_line(self) -> None:
        foo = load("remove-foo-magic.patch").files[1]
        self.assertEqual(len(foo.removed()), 6)
        self.assertNotIn(" ", [ln.text for ln in foo.removed()])

    def test_removed_identifiers(self) -> None:
        got = {(r.kind, str(r)) for r in patch.removed_identifiers(
            load("remove-foo-magic.patch"), old_foo)}
        self.assertEqual(got, {("docrow", "FOO_MAGIC"), ("macro", "FOO_MAGIC"),
                               ("static", "paranoia_str"), ("field", "foo_state.magic")})

    def test_local_variable_is_not_a_field(self) -> None:
        text = "static int f(void)\n{\n\tint magic;\n\treturn 0;\n}\n".split("\n")
        self.assertEqual(patch.enclosing_struct(text, 2), ("", ""))

    def test_typedef_struct(self) -> None:
        text = "typedef struct kern_vars_s {\n\tint kv_magic;\n} kern_vars_t;\n".split("\n")
        self.assertEqual(patch.enclosing_struct(text, 1), ("kern_vars_s", "kern_vars_t"))

    def test_not_a_patch(self) -> None:
        with self.assertRaises(Exception):
            patch.parse_text("Subject: nothing\n\nno diff here\n", Path("x.patch"))


if __name__ == "__main__":
    unittest.main()
