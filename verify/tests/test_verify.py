# SPDX-License-Identifier: GPL-2.0
"""Unit tests of verify that need no kernel build: parsing, comparison, rendering."""

from __future__ import annotations

import json
import os
import tempfile
import unittest
from pathlib import Path
from typing import Tuple
from unittest import mock

from demagic.kernel import leftovers
from demagic.model import patches as patch
from demagic.model.reports import CHECKS, Cell, Row, Status, VerifyReport, failed, passed
from verify import arches, checkpatch, kbuild, layout, matrix, reference

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


class ReferenceTest(unittest.TestCase):
    def test_whitespace_does_not_matter(self) -> None:
        ours = load("remove-foo-magic.patch")
        text = (DATA / "remove-foo-magic.patch").read_text().replace(
            "-\tint magic;", "-        int   magic;")
        theirs = patch.parse_text(text, Path("upstream.patch"))
        self.assertEqual(reference.differences(ours, theirs), [])
        self.assertEqual(reference.compare(ours, [theirs], "ref").status, Status.PASS)

    def test_blanks_around_punctuation(self) -> None:
        self.assertEqual(reference.normalise("\tcp -> busy  = false ;"), "cp->busy=false;")
        self.assertNotEqual(reference.normalise("int a;"), reference.normalise("inta;"))

    def test_a_trailing_comment_difference_is_listed(self) -> None:
        ours = load("remove-foo-magic.patch")
        text = (DATA / "remove-foo-magic.patch").read_text().replace(
            "+\t(void)magic;", "+\t(void)magic; /* other */")
        cell = reference.compare(ours, [patch.parse_text(text, Path("u.patch"))], "ref")
        self.assertEqual(cell.status, Status.PASS)
        self.assertIn("differ in a trailing comment only", cell.reason)

    def test_a_code_difference_fails(self) -> None:
        ours = load("remove-foo-magic.patch")
        text = (DATA / "remove-foo-magic.patch").read_text().replace(
            "+\t(void)magic;", "+\t(void)(magic + 1);")
        theirs = patch.parse_text(text, Path("upstream.patch"))
        diffs = reference.differences(ours, theirs)
        self.assertEqual(len(diffs), 2)
        self.assertTrue(diffs[0].startswith("drivers/foo/foo.c: ours only: +"))
        self.assertEqual(reference.compare(ours, [theirs], "ref").status, Status.FAIL)

    def test_doc_difference_only_listed(self) -> None:
        ours = load("remove-foo-magic.patch")
        text = (DATA / "remove-foo-magic.patch").read_text().replace(
            "-FOO_MAGIC             0x4242", "-FOO_MAGIC             0x4243")
        cell = reference.compare(ours, [patch.parse_text(text, Path("u.patch"))], "ref")
        self.assertEqual(cell.status, Status.PASS)
        self.assertEqual(len(cell.details), 2)

    def test_no_counterpart_and_no_directory(self) -> None:
        ours = load("remove-foo-magic.patch")
        other = patch.parse_text((DATA / "remove-foo-magic.patch").read_text().replace(
            "remove FOO_MAGIC and\n QUEUE_MAGIC_{FREE,USED}", "remove BAR_MAGIC"), Path("b.patch"))
        self.assertIsNone(reference.counterpart(ours, [other]))
        self.assertEqual(reference.compare(ours, [other], "ref").status, Status.NA)
        self.assertEqual(reference.compare(ours, None, "ref").status, Status.NA)


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


class ArchTest(unittest.TestCase):
    def test_candidates(self) -> None:
        self.assertEqual([a.name for a in arches.candidates("arch/x86/kernel/apm_32.c")],
                         ["x86_64", "i386"])
        self.assertEqual([a.name for a in arches.candidates("arch/mips/sgi-ip27/x.c")], ["mips"])
        self.assertEqual(len(arches.candidates("drivers/scsi/ncr53c8xx.c")), len(arches.ARCHES))
        self.assertIsNone(arches.object_of("include/linux/fs.h"))
        self.assertEqual(arches.object_of("arch/mips/kernel/head.S"), "arch/mips/kernel/head.o")

    def test_every_arch_has_a_fragment_and_a_defconfig_name(self) -> None:
        for arch in arches.ARCHES:
            for frag in arch.fragments():
                self.assertTrue(frag.is_file(), frag)
                first = frag.read_text().splitlines()[0]
                self.assertEqual(first, "# SPDX-License-Identifier: GPL-2.0")
            self.assertTrue(arch.defconfig.endswith("defconfig"))

    def fake_tree(self, root: Path) -> None:
        (root / "drivers/scsi/arm").mkdir(parents=True)
        (root / "drivers/scsi/Makefile").write_text(
            "obj-$(CONFIG_SCSI_ZALON)\t+= zalon7xx.o\nobj-$(CONFIG_ARM) += arm/\n"
            "zalon7xx-objs\t:= zalon.o \\\n\tncr53c8xx.o\n")
        (root / "drivers/scsi/arm/Makefile").write_text(
            "obj-$(CONFIG_SCSI_CUMANA_2)\t+= cumana_2.o fas216.o queue.o\n")
        (root / "drivers/Makefile").write_text("obj-$(CONFIG_SCSI) += scsi/\n")

    def test_enabled_follows_composites_and_directories(self) -> None:
        with tempfile.TemporaryDirectory() as tmp:
            root = Path(tmp)
            self.fake_tree(root)
            on = {"CONFIG_SCSI": "y", "CONFIG_SCSI_ZALON": "y"}
            self.assertTrue(arches.enabled(root, "drivers/scsi/ncr53c8xx.o", on)[0])
            ok, why = arches.enabled(root, "drivers/scsi/ncr53c8xx.o", {"CONFIG_SCSI": "y"})
            self.assertFalse(ok)
            self.assertIn("CONFIG_SCSI_ZALON", why)
            arm = {"CONFIG_SCSI": "y", "CONFIG_SCSI_CUMANA_2": "m"}
            self.assertFalse(arches.enabled(root, "drivers/scsi/arm/queue.o", arm)[0])
            arm["CONFIG_ARM"] = "y"
            self.assertTrue(arches.enabled(root, "drivers/scsi/arm/queue.o", arm)[0])
            self.assertFalse(arches.enabled(root, "drivers/scsi/arm/nothere.o", arm)[0])


class ConfigTest(unittest.TestCase):
    def test_parse_and_subset(self) -> None:
        config = arches.parse_config("CONFIG_A=y\n# CONFIG_B is not set\nCONFIG_C=\"x\"\n")
        self.assertEqual(config, {"CONFIG_A": "y", "CONFIG_B": "n", "CONFIG_C": '"x"'})
        self.assertEqual(arches.config_missing({"CONFIG_A": "y", "CONFIG_B": "n"}, config), [])

    def test_missing_setting_is_reported(self) -> None:
        config = arches.parse_config("CONFIG_A=m\n")
        self.assertEqual(arches.config_missing({"CONFIG_A": "y", "CONFIG_D": "y"}, config),
                         ["CONFIG_A=y (got m)", "CONFIG_D=y (got not set)"])


class KbuildTest(unittest.TestCase):
    LOG = ("/w/t/drivers/a.c:10:5: warning: unused variable 'x' [-Wunused-variable]\n"
           "/w/t/drivers/a.c: In function 'f':\n"
           "drivers/a.c:12: error: expected ';' before '}' token\n")

    def test_diagnostics_drop_line_numbers_and_prefix(self) -> None:
        diags = kbuild.parse_diagnostics(self.LOG, Path("/w/t"))
        self.assertEqual([str(d) for d in diags], [
            "drivers/a.c: warning: unused variable 'x' [-Wunused-variable]",
            "drivers/a.c: error: expected ';' before '}' token"])

    def test_new_warning_found_moved_one_not(self) -> None:
        before = kbuild.parse_diagnostics(self.LOG, Path("/w/t"))
        moved = kbuild.parse_diagnostics(self.LOG.replace(":10:5:", ":7:5:"), Path("/w/t"))
        self.assertEqual(kbuild.new_warnings(before, moved), [])
        extra = moved + kbuild.parse_diagnostics(
            "drivers/a.c:3:1: warning: no previous prototype [-Wmissing-prototypes]\n", Path("/"))
        self.assertEqual(len(kbuild.new_warnings(before, extra)), 1)


    def test_deps_absolute_or_relative_to_the_build_directory(self) -> None:
        with tempfile.TemporaryDirectory() as tmp:
            root = Path(tmp)
            src, out = root / "work/tree", root / "verify/tree/x86_64"
            (out / "fs").mkdir(parents=True)
            arch = arches.by_name("x86_64")
            bdir = kbuild.BuildDir(arch, src, out)
            for form in (f"{src}/", "../../../work/tree/"):
                (out / "fs/.fcntl.o.cmd").write_text(
                    f"savedcmd_fs/fcntl.o := gcc ...\n\nsource_fs/fcntl.o := {form}fs/fcntl.c\n\n"
                    f"deps_fs/fcntl.o := \\\n  {form}include/linux/fs.h \\\n"
                    "  include/generated/autoconf.h \\\n  $(wildcard include/config/X) \\\n\n"
                    "fs/fcntl.o: $(deps_fs/fcntl.o)\n")
                self.assertEqual(bdir.deps("fs/fcntl.o"), {
                    "fs/fcntl.c", "include/linux/fs.h", "include/generated/autoconf.h"}, form)


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


class CheckpatchTest(unittest.TestCase):
    def test_errors_fail_and_warnings_are_listed(self) -> None:
        with tempfile.TemporaryDirectory() as tmp:
            tree = Path(tmp)
            (tree / "scripts").mkdir()
            (tree / "scripts" / "checkpatch.pl").write_text(
                'print "$ARGV[-1]:7: WARNING:AVOID_BUG: a\\n";\n'
                'print "$ARGV[-1]:9: ERROR:SPACING: b\\n" if $ENV{FAKE_ERROR}; exit 1;\n')
            patch = tree / "0001-x.patch"
            patch.write_text("Subject: x\n")
            cell = checkpatch.check(tree, patch)
            self.assertEqual((cell.status, cell.reason), (Status.PASS, "no error, 1 warnings"))
            with mock.patch.dict(os.environ, {"FAKE_ERROR": "1"}):
                cell = checkpatch.check(tree, patch)
            self.assertEqual(cell.status, Status.FAIL)
            self.assertEqual(cell.details, ["0001-x.patch:9: ERROR:SPACING: b",
                                            "0001-x.patch:7: WARNING:AVOID_BUG: a"])


DELETE_DOC = """Subject: [PATCH] Documentation: remove foo.rst

diff --git a/Documentation/process/foo.rst b/Documentation/process/foo.rst
deleted file mode 100644
index 1111111..0000000
--- a/Documentation/process/foo.rst
+++ /dev/null
@@ -1,3 +0,0 @@
-.. _foolabel:
-
-FOO_MAGIC   0x1   foo   ``foo.c``
"""


class LeftoversTest(unittest.TestCase):
    def test_deleted_document_label_and_row(self) -> None:
        doc = patch.parse_text(DELETE_DOC, Path("d.patch"))
        got = {(r.kind, r.name) for r in patch.removed_identifiers(doc, lambda p: "")}
        self.assertEqual(got, {("document", "process/foo"), ("label", "foolabel"),
                               ("docrow", "FOO_MAGIC")})

    def test_document_and_label_references(self) -> None:
        doc = patch.parse_text(DELETE_DOC, Path("d.patch"))
        removed = {r.kind: r for r in patch.removed_identifiers(doc, lambda p: "")}
        hits = [("Documentation/process/index.rst", 3, "   foo"),
                ("Documentation/process/index.rst", 4, "   foobar"),
                ("Documentation/x.rst", 9, "see :ref:`the rules <foolabel>`"),
                ("Documentation/y.rst", 2, "see Documentation/process/foo.rst"),
                ("Documentation/translations/it_IT/process/foo.rst", 1, "FOO_MAGIC  0x1")]
        self.assertEqual(len(leftovers.document_hits(hits, removed["document"])), 2)
        self.assertEqual(len(leftovers.label_hits(hits, removed["label"])), 1)
        self.assertEqual(len(leftovers.docrow_hits(hits, removed["docrow"])), 1)
        self.assertEqual(leftovers.label_hits(hits[:2], removed["label"]), [])

    def test_local_macro_searched_in_its_file_only(self) -> None:
        item = patch.Removed("macro", "DEBUG", "drivers/a.c")
        hits = [("drivers/a.c", 1, "#ifdef DEBUG"), ("drivers/b.c", 1, "#define DEBUG 1")]
        self.assertEqual(leftovers.macro_hits(hits, item), ["drivers/a.c:1: #ifdef DEBUG"])
        self.assertEqual(len(leftovers.macro_hits(hits[:1] + [("x.S", 2, "DEBUG")], item)), 2)

    def test_typed_names(self) -> None:
        text = ("static int f(struct foo_state *fs, const struct foo_state *const g)\n"
                "{ kern_vars_t *kvp; struct other *o; }\n")
        self.assertEqual(leftovers.typed_names(text, "foo_state", ""), {"fs", "g"})
        self.assertEqual(leftovers.typed_names(text, "kern_vars_s", "kern_vars_t"), {"kvp"})


if __name__ == "__main__":
    unittest.main()
