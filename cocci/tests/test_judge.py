# SPDX-License-Identifier: GPL-2.0
"""Unit tests of the scan's judging and evidence: small records in judge_data/,
small C texts written here; no kernel tree.  The rule test runs spatch when it
is installed."""

from __future__ import annotations

import json
import shutil
import subprocess
import tempfile
import unittest
from unittest import mock
from pathlib import Path
from typing import Any, Dict, List

from demagic.scan import discover, structs
from demagic.judge import verdicts as judge
from demagic.kernel import source as dtexts
from demagic.kernel.grep import Grep
from demagic.scan.evidence import formats, guards, offsets
from demagic.model.candidate import Candidate, Site, Verdict
from demagic.core.errors import DemagicError
from demagic.core.proc import Progress

DATA = Path(__file__).resolve().parent / "judge_data"


def assigned(path: str, line: int, func: str, obj: str, struct: str = "") -> list:
    """One magic assignment at path:line in func, to obj (of struct), as facts takes them."""
    return [(Site(path, line, func, "assign"), obj, struct)]


def mismatches(case: Dict[str, Any]) -> List[str]:
    """What differs between a case's expectation and the judge's verdict."""
    verdict, reason, _against = judge.judge(Candidate.from_json(case["candidate"]))
    out = []
    if verdict.value != case["verdict"]:
        out.append(f"verdict {verdict.value}, expected {case['verdict']} ({reason})")
    out += [f"reason lacks {word!r}: {reason}" for word in case["reason_has"] if word not in reason]
    return out


class JudgeDataTest(unittest.TestCase):
    """Each judge_data/NAME.json: a candidate, its verdict and words its reason names.
    NAME_wrong.json holds a deliberately wrong expectation, which must be reported: the
    check of the others can fail.  (A name ending in _failure means what it means in
    Coccinelle's tests and the rule cases: a known failure that must keep failing.)"""

    def test_cases(self) -> None:
        cases = sorted(DATA.glob("*.json"))
        self.assertGreater(len(cases), 10)
        for path in cases:
            with self.subTest(case=path.stem):
                found = mismatches(json.loads(path.read_text()))
                if path.stem.endswith("_wrong"):
                    self.assertTrue(found, f"{path.name}: wrong expectation not caught")
                else:
                    self.assertEqual(found, [])

    def test_every_verdict_and_negative_is_covered(self) -> None:
        names = {p.stem for p in DATA.glob("*.json")}
        for prefix in ("remove_", "flag_", "keep_uapi", "keep_superblock", "keep_ethtool",
                       "keep_wake_magic", "keep_fixed_address", "keep_endian", "keep_packed"):
            self.assertTrue(any(n.startswith(prefix) for n in names), prefix)

    def test_reason_is_one_line(self) -> None:
        for path in DATA.glob("*.json"):
            _v, reason, _a = judge.judge(Candidate.from_json(json.loads(path.read_text())["candidate"]))
            self.assertNotIn("\n", reason)
            self.assertTrue(reason)


class ReportParseTest(unittest.TestCase):
    LINE = ("drivers/foo/foo.c:773:5-10: WARNING: magic set=assign const=FOO_MAGIC field=magic "
            "func=foo_alloc type=struct foo expr=bc -> hdrv")

    def test_parses_a_report_line(self) -> None:
        (rec,) = discover.parse_report(self.LINE + "\nnoise\n")
        self.assertEqual((rec.file, rec.line, rec.what, rec.kind, rec.const, rec.field),
                         ("drivers/foo/foo.c", 773, "set", "assign", "FOO_MAGIC", "magic"))
        self.assertEqual((rec.type, rec.expr, rec.func), ("struct foo", "bc -> hdrv", "foo_alloc"))

    def test_dash_is_empty(self) -> None:
        (rec,) = discover.parse_report(self.LINE.replace("type=struct foo", "type=-"))
        self.assertEqual(rec.type, "")

    def test_rule_options_come_from_its_header(self) -> None:
        self.assertIn("--no-includes", discover.rule_options(discover.RULE))


class TreeTest(unittest.TestCase):
    """Evidence read from small source texts in a temporary tree."""

    FILES = {
        "drivers/foo/foo.h": (
            "#define FOO_MAGIC 0x4242\n"
            "#define FOO_MAGIC_OFFSET 0x0\n#define FOO_RO_NASID_OFFSET 0x4\n"
            "typedef struct foo_s {\n\tint foo_magic;\n\tshort foo_ro_nasid;\n} foo_t;\n"
            "struct bar {\n\tint magic;\n} __packed;\n"),
        "drivers/foo/foo.c": (
            '#include "foo.h"\n'
            "#define SET_MAGIC(q,m)\t((q)->magic = (m))\n"
            "#define BAD_MAGIC(q,m)\t((q)->magic != (m))\n"
            "void a(int n)\n{\n\tfoo_t *p;\n\n\tp = (foo_t *)FOO_ADDR(n, 1);\n"
            "\tp->foo_magic = FOO_MAGIC;\n}\n"
            "void b(int n)\n{\n\tfoo_t *k;\n\n\tk = &node(n)->vars;\n\tk->foo_magic = FOO_MAGIC;\n}\n"
            "#ifdef FOO_PARANOIA\nint c(foo_t *p)\n{\n\treturn p->foo_magic != FOO_MAGIC;\n}\n#endif\n"
            "int d(struct bar *b)\n{\n\tSET_MAGIC(b, BAR_MAGIC);\n\treturn BAD_MAGIC(b, BAR_MAGIC);\n}\n"
            "int e(int x)\n{\n\tx = ONLY_STORED_MAGIC;\n\treturn x;\n}\n"),
    }

    def setUp(self) -> None:
        self.root = Path(tempfile.mkdtemp())
        for rel, text in self.FILES.items():
            (self.root / rel).parent.mkdir(parents=True, exist_ok=True)
            (self.root / rel).write_text(text)
        self.texts = dtexts.Texts(self.root)

    def tearDown(self) -> None:
        shutil.rmtree(self.root)

    def texts_with(self, rel: str, text: str) -> dtexts.Texts:
        """The tree's texts after adding rel."""
        (self.root / rel).write_text(text)
        return dtexts.Texts(self.root)

    def test_setter_macros(self) -> None:
        self.assertEqual(structs.setter_macros(self.texts, ["drivers/foo/foo.c"]),
                         {"SET_MAGIC": ("magic", "="), "BAD_MAGIC": ("magic", "!=")})

    def test_prefilter_wants_names_stored_and_compared(self) -> None:
        files = sorted(self.FILES)
        self.assertEqual(discover.prefilter(files, self.texts), ["drivers/foo/foo.c"])
        (self.root / "drivers/foo/only.c").write_text("void f(struct s *p) { p->m = ONLY_MAGIC; }\n")
        (self.root / "drivers/foo/var.c").write_text("void f(void) { int x = VAR_MAGIC; }\n")
        more = files + ["drivers/foo/only.c", "drivers/foo/var.c"]
        # stored into a field and never compared: a write-only candidate, parsed
        self.assertIn("drivers/foo/only.c", discover.prefilter(more, self.texts))
        # stored into a plain variable: no candidate, unless the macro is asked for
        self.assertNotIn("drivers/foo/var.c", discover.prefilter(more, self.texts))
        self.assertIn("drivers/foo/var.c", discover.prefilter(more, self.texts, every=True))

    def test_stores_and_compares_through_macros(self) -> None:
        setters = structs.setter_macros(self.texts, ["drivers/foo/foo.c"])
        uses = set(discover.uses(self.texts.raw("drivers/foo/foo.c"), setters))
        self.assertEqual(uses, {("FOO_MAGIC", "field"), ("FOO_MAGIC", "compare"),
                                ("BAR_MAGIC", "field"), ("BAR_MAGIC", "compare"),
                                ("ONLY_STORED_MAGIC", "store")})

    def test_typedef_struct_resolves_to_its_tag(self) -> None:
        s = structs.resolve_struct(self.texts, "drivers/foo/foo.c", "foo_t", "foo_magic", False)
        assert s is not None
        self.assertEqual((s.tag, s.file, s.member("foo_magic")),
                         ("foo_s", "drivers/foo/foo.h", "int foo_magic;"))
        self.assertIsNone(structs.resolve_struct(self.texts, "drivers/foo/foo.c", "foo_t", "nope",
                                               False))

    def test_offset_macros_map_to_members(self) -> None:
        c = Candidate("FOO_MAGIC", "", None, "foo_s", "foo_magic", "drivers/foo/foo.h")
        self.assertEqual(offsets.offset_macros_of(self.texts, c, ["foo_magic", "foo_ro_nasid"]),
                         {"FOO_MAGIC_OFFSET": "foo_magic", "FOO_RO_NASID_OFFSET": "foo_ro_nasid"})

    def test_pointer_sources(self) -> None:
        fixed = formats.pointer_sources(self.texts, assigned("drivers/foo/foo.c", 9, "a", "p", "foo_t"))
        self.assertEqual(fixed, {"fixed_address": "FOO_ADDR(n, 1)"})
        kernel = formats.pointer_sources(self.texts, assigned("drivers/foo/foo.c", 16, "b", "k", "foo_t"))
        self.assertEqual(kernel, {"kernel_address": "&node(n)->vars"})

    def test_guard_symbols(self) -> None:
        lines = self.texts.lines("drivers/foo/foo.c")
        self.assertEqual(dtexts.guards_at(lines, 21), ["FOO_PARANOIA"])
        self.assertEqual(dtexts.guards_at(lines, 25), [])

    def test_record_measured_against_a_length(self) -> None:
        text = ("int save(void *addr, unsigned int max)\n{\n\tstruct rec *r = addr;\n\n"
                "\tif (max < sizeof(struct rec))\n\t\treturn -EOVERFLOW;\n\tr->magic = REC_MAGIC;\n"
                "\treturn 0;\n}\n"
                "int grow(unsigned int size)\n{\n\tstruct rec *r;\n\n"
                "\tif (size < sizeof(struct rec))\n\t\tsize = sizeof(struct rec);\n"
                "\tr = alloc(size);\n\tr->magic = REC_MAGIC;\n\treturn 0;\n}\n")
        texts = self.texts_with("drivers/foo/rec.c", text)
        sized = formats.sized_records(texts, assigned("drivers/foo/rec.c", 7, "save", "r"), "rec")
        self.assertEqual([s.line for s in sized], [5])
        clamp = formats.sized_records(texts, assigned("drivers/foo/rec.c", 17, "grow", "r"), "rec")
        self.assertEqual(clamp, [])

    def test_copy_of_the_object_that_embeds_the_struct(self) -> None:
        text = ("int send(struct msg *m)\n{\n\tm->h.magic = MSG_MAGIC;\n"
                "\treturn queue_kernel_message(svc, m, sizeof(*m));\n}\n"
                "int load(struct file *f, char __user *buf)\n{\n\tf->data.magic = F_MAGIC;\n"
                "\treturn copy_to_user(buf, (void *)&f->data + 4, 8);\n}\n"
                "int keep(struct port *p)\n{\n\tp->cfg->magic = P_MAGIC;\n"
                "\treturn send_it(p);\n}\n")
        texts = self.texts_with("drivers/foo/msg.c", text)
        msg = formats.user_copies(texts, assigned("drivers/foo/msg.c", 3, "send", "m -> h"), "magic")
        self.assertEqual([s.line for s in msg], [4])
        data = formats.user_copies(texts, assigned("drivers/foo/msg.c", 8, "load", "f -> data"), "magic")
        self.assertEqual([s.line for s in data], [9])
        # p->cfg is a pointer: sending p does not send the struct it points to
        ptr = formats.user_copies(texts, assigned("drivers/foo/msg.c", 13, "keep", "p -> cfg"), "magic")
        self.assertEqual(ptr, [])

    def test_never_defined_in_a_plain_tree(self) -> None:
        (self.root / "drivers/foo/on.c").write_text("#define FOO_DEBUG 1\n")
        self.assertEqual(guards.never_defined(Grep(self.root), ["FOO_PARANOIA", "FOO_DEBUG"], ["drivers"]),
                         {"FOO_PARANOIA"})

    def test_packed_struct_is_seen(self) -> None:
        c = Candidate("BAR_MAGIC", "", None, "", "magic", "")
        structs.place_struct(self.texts, c, [(Site("drivers/foo/foo.c", 26, "d", "macro"),
                                              "b", "struct bar")], search=False)
        self.assertEqual((c.struct, c.evidence.packed), ("bar", True))
        self.assertEqual(judge.judge(c)[0], Verdict.KEEP)


class SpatchFailureTest(unittest.TestCase):
    """A file spatch gives up on fails the run, by name (subprocess layer mocked)."""

    def fake(self, stderr: str, returncode: int = 0) -> "subprocess.CompletedProcess[str]":
        return subprocess.CompletedProcess([], returncode, "", stderr)

    def test_timeout_names_the_file(self) -> None:
        err = "EXN: Coccinelle_modules.Common.Timeout in drivers/foo/big.c\n"
        with mock.patch.object(discover, "run", return_value=self.fake(err)), \
                tempfile.TemporaryDirectory() as tmp:
            (Path(tmp) / "drivers/foo").mkdir(parents=True)
            for name in ("big.c", "small.c"):
                (Path(tmp) / "drivers/foo" / name).write_text("int x;\n")
            with self.assertRaisesRegex(DemagicError, r"1 file\(s\): drivers/foo/big.c$"):
                discover.run_rule(Path(tmp), ["drivers/foo/big.c", "drivers/foo/small.c"], 1,
                                  Progress(quiet=True))

    def test_clean_run_passes(self) -> None:
        with mock.patch.object(discover, "run", return_value=self.fake("")):
            report = discover._spatch_chunk(Path("."), ["a.c"], [])
        self.assertEqual((report.records, report.unparsed, report.failed), ([], [], []))

    def test_source_echoed_by_verbose_parsing_is_no_failure(self) -> None:
        err = "HANDLING: a.c\nbad: \tif (Timeout) return;\n  whole content = Fatal error here\n"
        with mock.patch.object(discover, "run", return_value=self.fake(err)):
            self.assertEqual(discover._spatch_chunk(Path("."), ["a.c"], []).failed, [])


@unittest.skipUnless(shutil.which("spatch"), "spatch not installed")
class RuleTest(unittest.TestCase):
    """find_magic.cocci on a small input: what it must report, by hand."""

    SOURCE = (
        "#define FOO_MAGIC 0x4242\n"                                      # 1
        "struct foo { int magic; int busy; };\n"                          # 2
        "int f(struct foo *p)\n{\n"                                       # 3-4
        "\tp->magic = FOO_MAGIC;\n"                                       # 5
        "\tif (!p || p->magic != FOO_MAGIC)\n\t\treturn -1;\n"            # 6-7
        "\tBUG_ON(p->magic != FOO_MAGIC);\n"                              # 8
        "\tif (p->magic)\n\t\tp->magic = 0;\n"                            # 9-10
        "\tp->busy = OTHER;\n"                                            # 11
        "\treturn 0;\n}\n")

    def test_reports(self) -> None:
        with tempfile.TemporaryDirectory() as tmp:
            src = Path(tmp) / "t.c"
            src.write_text(self.SOURCE)
            res = subprocess.run(["spatch", "--very-quiet", "-D", "report", *discover.rule_options(discover.RULE),
                                  "--sp-file", str(discover.RULE), str(src)],
                                 capture_output=True, text=True, check=True)
        got = {(r.line, r.what, r.kind) for r in discover.parse_report(res.stdout)}
        for want in [(5, "set", "assign"), (6, "check", "condition"), (6, "kind", "early-exit"),
                     (8, "check", "condition"), (8, "kind", "bug"), (9, "truth", "truth"),
                     (10, "store", "assign"), (5, "type", "set")]:
            self.assertIn(want, got)
        self.assertNotIn(11, {r.line for r in discover.parse_report(res.stdout)})


if __name__ == "__main__":
    unittest.main()
