# SPDX-License-Identifier: GPL-2.0
"""Unit tests of what goes to the list: messages written from evidence, addresses, the
mail checks.  No kernel tree; the subprocess boundary is mocked where a helper runs."""

from __future__ import annotations

import dataclasses
import os
import subprocess
import tempfile
import unittest
from pathlib import Path
from unittest import mock

from demagic.model.reports import BootReport, Coverage, CoverageRow
from demagic.kernel import checkpatch
from demagic.series import cover, mail as export, mailcheck, message, proof
from demagic.model.candidate import (Candidate, CheckShape, Evidence, Finding, Role, Site,
                                     SiteKind, Verdict)
from demagic.scan.evidence import shapes
from demagic.model.patches import parse_text
from demagic.core.errors import DemagicError
from demagic.rewrite.apply import Result, Target
from demagic.kernel.source import Texts

TOOLS = message.Tools("spatch 1.1.1", "demagic 0.5", {"remove_magic.cocci": "0123456789ab"})
RULE = Path("remove_magic.cocci")
DIFF = ("diff --git a/drivers/foo/foo.c b/drivers/foo/foo.c\n--- a/drivers/foo/foo.c\n"
        "+++ b/drivers/foo/foo.c\n@@ -1,3 +1,2 @@\n-#define FOO_MAGIC 1\n int a;\n int b;\n")


def candidate(**ev: object) -> Candidate:
    c = Candidate("FOO_MAGIC", "1", Site("drivers/foo/foo.c", 1), "foo", "magic",
                  "drivers/foo/foo.c", sets=[Site("drivers/foo/foo.c", 20, "foo_probe", "assign")],
                  evidence=Evidence(**ev))   # type: ignore[arg-type]
    c.verdict = Verdict.REMOVE
    return c


def write(c: Candidate, diff: str = DIFF) -> str:
    target = Target(("FOO_MAGIC",), "foo", "magic", "drivers/foo/foo.c", Verdict.REMOVE)
    result = Result(files=["drivers/foo/foo.c"],
                    defines={"magic": "FOO_MAGIC", "member": "magic", "sname": "foo"})
    change = message.Change(parse_text(diff, Path("x")), [], [])
    return " ".join(message.body(target, [c], result, change, TOOLS, RULE).split())


def shape(line: int, func: str, kind: str, mismatch: str, **kw: str) -> CheckShape:
    return CheckShape(Site("drivers/foo/foo.c", line, func, SiteKind.CONDITION), Role.DEBUG, kind,
                      mismatch, **kw)


class MessageTest(unittest.TestCase):
    """Each sentence follows from the magic's own evidence."""

    def test_write_only_mentions_no_compare(self) -> None:
        text = write(candidate(write_only=True, written_into=[
            Finding(Site("drivers/foo/foo.c", 20), "owned: f = kzalloc(sizeof(*f), GFP_KERNEL)")]))
        self.assertIn("Nothing compares or reads the field", text)
        self.assertIn("It only costs the field and the store.", text)
        self.assertNotIn("a compare on", text)
        self.assertNotIn("debug check", text)

    def test_never_compiled_checks_are_dead_code(self) -> None:
        text = write(candidate(guard="FOO_PARANOIA", shapes=[
            shape(30, "foo_check", "dead", "printk(bad); return 1")]))
        self.assertIn("only compiled with FOO_PARANOIA defined, and nothing in the tree "
                      "defines it", text)
        self.assertIn("The check is dead code", text)
        self.assertNotIn("KASAN", text)

    def test_an_early_exit_that_skipped_cleanup_says_so(self) -> None:
        text = write(candidate(shapes=[shape(
            40, "foo_cleanup", "else-error", "printk(paranoia_str)",
            match="unregister_netdev(dev); free_netdev(dev);")]))
        self.assertIn("In foo_cleanup(), a match calls unregister_netdev() and free_netdev(); "
                      "a mismatch only prints a message.", text)
        self.assertIn("foo_cleanup() used to skip unregister_netdev() and free_netdev() on a "
                      "mismatch; it now always calls them.", text)

    def test_a_kept_null_test_is_named(self) -> None:
        text = write(candidate(shapes=[shape(50, "foo_get", "assert",
                                             "BUG_ON(!f || f->magic != FOO_MAGIC)", kept="!f")]))
        self.assertIn("In foo_get(), BUG_ON() crashes the machine on a mismatch.", text)
        self.assertIn("foo_get() no longer crashes on a mismatch.", text)
        self.assertIn("The test of !f stays.", text)

    def test_an_early_exit_names_what_it_returned(self) -> None:
        text = write(candidate(shapes=[shape(60, "foo_ioctl", "early-exit", "return -EINVAL")]))
        self.assertIn("In foo_ioctl() a mismatch returns -EINVAL.", text)
        self.assertIn("Where a mismatch made foo_ioctl() return -EINVAL, it goes on now.", text)

    def test_a_warn_on_condition_warns_then_exits(self) -> None:
        with tempfile.TemporaryDirectory() as tmp:
            src = Path(tmp) / "drivers/foo/foo.c"
            src.parent.mkdir(parents=True)
            src.write_text("int foo_op(struct foo *f)\n{\n\tif (WARN_ON(f->magic != FOO_MAGIC))\n"
                           "\t\treturn -EIDRM;\n\treturn 0;\n}\n")
            got = shapes.classify(Texts(Path(tmp)), Site("drivers/foo/foo.c", 3, "foo_op"),
                                  src.read_text().split("\n")[2].index("magic"), "FOO_MAGIC")
        self.assertEqual((got.kind, got.mismatch), ("warn", "WARN_ON(...); return -EIDRM"))
        text = write(candidate(shapes=[got]))
        self.assertIn("In foo_op() a mismatch warns (WARN_ON()) and returns -EIDRM.", text)
        self.assertIn("Where a mismatch made foo_op() return -EIDRM, it goes on now.", text)

    def test_the_tool_line_names_versions_and_the_rule_digest(self) -> None:
        text = write(candidate(write_only=True))
        self.assertIn("Coccinelle (spatch 1.1.1) and demagic 0.5's remove_magic.cocci "
                      "(sha256 0123456789ab, in demagic's cocci/ directory)", text)
        self.assertNotIn("cocci/remove_magic.cocci", text)


class AddressTest(unittest.TestCase):
    def fake(self, returncode: int, stdout: str = "", stderr: str = "") -> "subprocess.CompletedProcess[str]":
        return subprocess.CompletedProcess([], returncode, stdout, stderr)

    def tree(self, script: str) -> Path:
        top = Path(tempfile.mkdtemp())
        (top / "scripts").mkdir()
        (top / "scripts" / "get_maintainer.pl").write_text(script)
        return top

    def patch(self, top: Path) -> Path:
        path = top / "p.patch"
        path.write_text("From: x\nSubject: [PATCH] foo: remove FOO_MAGIC\n\nbody\n---\n"
                        "diff --git a/drivers/foo.c b/drivers/foo.c\n--- a/drivers/foo.c\n"
                        "+++ b/drivers/foo.c\n@@ -1 +1 @@\n-a\n+b\n")
        return path

    def test_a_failing_get_maintainer_stops_the_run(self) -> None:
        top = self.tree("'git!' => \\$email_git,\n")
        with mock.patch.object(export, "run", return_value=self.fake(2, "", "Unknown option: x")):
            with self.assertRaisesRegex(DemagicError, r"get_maintainer.pl failed on p.patch "
                                                      r"\(exit 2\): Unknown option: x"):
                export.maintainers(top, self.patch(top))

    def test_only_the_options_the_script_has(self) -> None:
        top = self.tree("'git!' => \\$email_git,\n'git-fallback!' => \\$email_git_fallback,\n")
        self.assertEqual(export.gm_options(top / "scripts" / "get_maintainer.pl"),
                         ["--no-git", "--no-git-fallback"])

    def test_a_long_subject_stays_on_one_line(self) -> None:
        head = ("From: x\nSubject: [PATCH 14/21] netxen_nic: replace FOO_MAGIC with bool\n"
                " is_up\nDate: now")
        self.assertEqual(export.unfold_subject(head).split("\n"), [
            "From: x", "Subject: [PATCH 14/21] netxen_nic: replace FOO_MAGIC with bool is_up",
            "Date: now"])

    def test_roles_split_to_and_cc(self) -> None:
        out = ("A B <a@b.org> (maintainer:FOO)\nlist@vger.kernel.org (open list:FOO)\n"
               "C D <c@d.org> (reviewer:FOO)\n")
        top = self.tree("'tree!' => \\$tree,\n")
        with mock.patch.object(export, "run", return_value=self.fake(0, out)):
            mailed = export.maintainers(top, self.patch(top))
        self.assertEqual(mailed.to, ("A B <a@b.org>",))
        self.assertEqual(mailed.cc, ("list@vger.kernel.org", "C D <c@d.org>"))


class MailCheckTest(unittest.TestCase):
    def test_a_patch_without_to_fails(self) -> None:
        with tempfile.TemporaryDirectory() as tmp:
            good = Path(tmp) / "0001-a.patch"
            bad = Path(tmp) / "0002-b.patch"
            good.write_text("From: x\nSubject: a\nTo: A <a@b.org>\n\nbody\n")
            bad.write_text("From: x\nSubject: b\nCc: list@x.org\n\nbody\n")
            report = mailcheck.Report()
            mailcheck.addressed([good, bad], report)
        self.assertEqual(report.failures, ["0002-b.patch: no To: address"])

    def test_checkpatch_reads_a_series_named_from_elsewhere(self) -> None:
        """SERIES= is relative to where make runs; checkpatch runs in the tree."""
        with tempfile.TemporaryDirectory() as tmp:
            work, here = Path(tmp) / "tree", Path(tmp) / "here"
            (work / "scripts").mkdir(parents=True)
            (here / "series").mkdir(parents=True)
            (work / "scripts" / "checkpatch.pl").write_text(
                'for (@ARGV) { next if /^--/; open(my $f, "<", $_) or '
                'do { print STDERR "$_: open failed\\n"; exit 2 }; }\n'
                'print "$ARGV[-1]:1: WARNING:X: x\\n"; exit 1;\n')
            (here / "series" / "0001-a.patch").write_text("Subject: a\n")
            report = mailcheck.Report()
            old = Path.cwd()
            os.chdir(here)
            try:
                mailcheck.checkpatch(work, [Path("series/0001-a.patch")], report)
            finally:
                os.chdir(old)
        self.assertIn("1 warnings or checks", report.notes[-1])

    def test_an_inherited_warning_is_told_from_a_new_one(self) -> None:
        text = ("@@ -1,2 +1,2 @@\n-\tif (as == NULL || as->magic != M) {\n+\tif (as == NULL) {\n"
                "+\tif (x == NULL)\n")
        self.assertEqual(checkpatch.reason(text, 3, "COMPARISON_TO_NULL", Path(".")),
                         "inherited: the line the patch changes had it already")
        text2 = "@@ -1,1 +1,2 @@\n-\tfoo();\n+\tif (x == NULL)\n"
        self.assertEqual(checkpatch.reason(text2, 3, "COMPARISON_TO_NULL", Path(".")),
                         "new in this patch")


class TestingLinesTest(unittest.TestCase):
    """The cover letter says a test exercises a patch only if it caught a broken variant."""

    REPORT = BootReport("d", "linux", True, coverage=[
        CoverageRow(1, "0001-a.patch", "a", Coverage.EXERCISED, ["slip (x86_64)"]),
        CoverageRow(2, "0002-b.patch", "b", Coverage.RAN, [], ["autofs (x86_64)"],
                    ["write-only field: no check a test could catch"]),
        CoverageRow(3, "0003-c.patch", "c", Coverage.COMPILED, notes=["needs a PCI device"])])

    def test_three_kinds(self) -> None:
        text = " ".join(" ".join(proof.boot_lines(self.REPORT)).split())
        self.assertIn("every test passes before and after", text)
        self.assertIn("patch): 01 slip (x86_64).", text)
        self.assertIn("no broken variant was caught: 02 autofs (x86_64) (write-only field", text)
        self.assertIn("not run: 03 (needs a PCI device).", text)
        self.assertNotIn("02", text.split("no broken variant")[0])

    def test_items_continue_under_their_text(self) -> None:
        for line in proof.boot_lines(self.REPORT):
            for cont in line.split("\n")[1:]:
                self.assertTrue(cont.startswith("  ") and not cont.startswith("   "), cont)

    def test_failure_is_said(self) -> None:
        text = " ".join(" ".join(proof.boot_lines(dataclasses.replace(self.REPORT, passed=False))).split())
        self.assertIn("some tests fail", text)


if __name__ == "__main__":
    unittest.main()
