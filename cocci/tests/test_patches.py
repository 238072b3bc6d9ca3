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

    def test_undef_of_a_retired_switch(self) -> None:
        text = ("Subject: [PATCH] keys: remove X\n\n---\n"
                "diff --git a/k.h b/k.h\n--- a/k.h\n+++ b/k.h\n@@ -1,3 +1,1 @@\n"
                "-#undef KEY_DEBUGGING\n-\n #define KEY_POS 1\n")
        got = {(r.kind, str(r)) for r in patch.removed_identifiers(
            patch.parse_text(text, Path("x.patch")), lambda _p: "")}
        self.assertEqual(got, {("macro", "KEY_DEBUGGING")})

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


HEADER = ("struct gate {\n\tu32 magic;\n\tint a;\n};\n\n"
          "/**\n * struct periph - a periph\n * @magic: the magic\n * @b: b\n */\n"
          "struct periph {\n\tu32 magic;\n\tint b;\n};\n")


def diff(old: str, new: str, number: int) -> patch.Patch:
    """The git diff of clk.h from old to new, as one patch of a series."""
    import subprocess
    import tempfile
    with tempfile.TemporaryDirectory() as tmp:
        a, b = Path(tmp) / "a", Path(tmp) / "b"
        a.write_text(old)
        b.write_text(new)
        out = subprocess.run(["git", "diff", "--no-index", "--", str(a), str(b)],
                             capture_output=True, text=True).stdout
    out = out.replace(str(Path(tmp) / "a").lstrip("/"), "clk.h").replace(
        str(Path(tmp) / "b").lstrip("/"), "clk.h")
    return patch.parse_text(f"Subject: [PATCH {number}/2] x\n\n---\n{out}", Path(f"{number}.patch"),
                            number)


class SeriesTest(unittest.TestCase):
    """A later patch's line numbers count in the file the earlier ones left."""

    def setUp(self) -> None:
        self.mid = HEADER.replace("\tu32 magic;\n\tint a;", "\tint a;")
        self.end = self.mid.replace(" * @magic: the magic\n", "").replace(
            "\tu32 magic;\n\tint b;", "\tint b;")
        self.series = [diff(HEADER, self.mid, 1), diff(self.mid, self.end, 2)]

    def test_hunks_applied_give_the_new_file(self) -> None:
        self.assertEqual(patch.applied(HEADER, self.series[0].files[0]), self.mid)
        self.assertEqual(patch.applied(self.mid, self.series[1].files[0]), self.end)

    def test_each_patch_is_read_against_the_file_the_earlier_left(self) -> None:
        removed = patch.removed_in_series(self.series, lambda _path: HEADER)
        self.assertEqual([[str(r) for r in rs] for rs in removed],
                         [["gate.magic"], ["periph.magic"]])
