# SPDX-License-Identifier: GPL-2.0
"""The series writer on a tiny git tree: what it commits, what it leaves for a manual fix,
and make scan's modes."""

from __future__ import annotations

import shutil
import tempfile
import unittest
from pathlib import Path

from demagic.series import build as series, cover, plan as series_plan, proof, write as series_write
from demagic.rewrite import apply as rewrite
from demagic.kernel import source as dtexts, tree as trees
from demagic.judge import scans
from demagic.cli import scan as scan_cli
from demagic.scan import report as scan_report
from demagic.model.candidate import Verdict
from demagic.core.proc import Progress, run
from demagic.core.errors import UsageError
from demagic.kernel.tree import GIT_ENV


if __name__ == "__main__":
    unittest.main()


class DiscoveryTest(unittest.TestCase):
    """On a tree without a registry, a discovered candidate the rules cannot
    fully rewrite is named for a manual fix; a named target fails the run."""

    FILES = {
        "Makefile": "VERSION = 6\nPATCHLEVEL = 12\nSUBLEVEL = 0\n",
        "drivers/foo/foo.c": (
            "#define FOO_MAGIC 0x4242\n\nstruct foo {\n\tint magic;\n\tint up;\n};\n\n"
            "int foo_open(struct foo *p)\n{\n\tp->magic = FOO_MAGIC;\n\treturn 0;\n}\n\n"
            "int foo_xmit(struct foo *p)\n{\n\tif (!p || p->magic != FOO_MAGIC)\n\t\treturn -EINVAL;\n"
            "\treturn p->up;\n}\n"),
        "drivers/bar/bar.c": (
            "#define BAR_MAGIC 0x4343\n\nstruct bar {\n\tint magic;\n\tint up;\n};\n\n"
            "int bar_open(struct bar *p)\n{\n\tp->magic = BAR_MAGIC;\n\treturn 0;\n}\n\n"
            "int bar_kind(struct bar *p)\n{\n\tif (p->magic != BAR_MAGIC && p->up)\n"
            "\t\treturn -EINVAL;\n\treturn 0;\n}\n"),
    }
    WHO = ("A Tester", "tester@example.org")

    def setUp(self) -> None:
        self.root = Path(tempfile.mkdtemp())
        for rel, text in self.FILES.items():
            (self.root / rel).parent.mkdir(parents=True, exist_ok=True)
            (self.root / rel).write_text(text)
        run(["git", "init", "-q", str(self.root)])
        run(["git", "-C", str(self.root), "add", "-A"])
        run(["git", "-C", str(self.root), "commit", "-q", "-m", "base"], env=GIT_ENV)
        self.tree = trees.Tree("t", self.root, "HEAD", "6.12.0", False)

    def tearDown(self) -> None:
        shutil.rmtree(self.root)

    def cands(self) -> list:
        return [c for c in scans.judged(self.root, jobs=1).cands
                if c.verdict in (Verdict.REMOVE, Verdict.FLAG)]

    def test_discovered_candidate_is_skipped_and_named(self) -> None:
        summary = series_write.write_commits(self.tree, self.root, self.cands(), self.WHO, 1, None,
                                       Progress(quiet=True), discovered=True)
        self.assertEqual([e.subject for e in summary.entries], ["foo: remove FOO_MAGIC"])
        self.assertEqual(len(summary.skipped), 1)
        self.assertRegex(summary.skipped[0], r"^BAR_MAGIC: needs a manual fix: .*bar\.c:16")
        facts = series.cover_facts(self.tree, summary, "all", None, "out", proof.Proof(None, None))
        self.assertIn("Not in this series, for a manual fix", cover.blurb(facts))
        status = run(["git", "-C", str(self.root), "status", "--porcelain"]).stdout
        self.assertEqual(status, "")

    def test_parallel_rewrite_commits_what_the_sequential_one_does(self) -> None:
        # FOO and GIZMO share foo.c (one after the other), BAZ stands alone
        with open(self.root / "drivers/foo/foo.c", "a") as fh:
            fh.write("\n#define GIZMO_MAGIC 0x4444\n\nstruct gizmo {\n\tint magic;\n};\n\n"
                     "void gizmo_init(struct gizmo *g)\n{\n\tg->magic = GIZMO_MAGIC;\n}\n\n"
                     "int gizmo_use(struct gizmo *g)\n{\n\tif (g->magic != GIZMO_MAGIC)\n"
                     "\t\treturn -EINVAL;\n\treturn 0;\n}\n")
        (self.root / "drivers/baz").mkdir()
        (self.root / "drivers/baz/baz.c").write_text(
            self.FILES["drivers/foo/foo.c"].replace("FOO", "BAZ").replace("foo", "baz"))
        run(["git", "-C", str(self.root), "add", "-A"])
        run(["git", "-C", str(self.root), "commit", "-q", "-m", "more"], env=GIT_ENV)
        logs = []
        for parallel in (False, True):
            copy = Path(tempfile.mkdtemp())
            self.addCleanup(shutil.rmtree, copy)
            run(["git", "clone", "-q", str(self.root), str(copy)])
            tree = trees.Tree("t", copy, "HEAD", "6.12.0", False)
            cands = [c for c in scans.judged(copy, jobs=1).cands
                     if c.verdict in (Verdict.REMOVE, Verdict.FLAG)]
            series_write.write_commits(tree, copy, cands, self.WHO, 2, None, Progress(quiet=True),
                                 discovered=True, parallel=parallel)
            logs.append(run(["git", "-C", str(copy), "log", "-p", "--format=%s%n%b"]).stdout)
        for subject in ("foo: remove FOO_MAGIC", "foo: remove GIZMO_MAGIC", "baz: remove BAZ_MAGIC"):
            self.assertIn(subject, logs[0])
        self.assertEqual(logs[1], logs[0])

    def test_scan_mode_patch_prints_the_diff_spatch_would_apply(self) -> None:
        text = scan_cli.patch(self.cands(), self.root, 1, Progress(quiet=True))
        self.assertIn("-\tp->magic = FOO_MAGIC;\n", text)
        self.assertIn("-\tif (!p || p->magic != FOO_MAGIC)\n+\tif (!p)\n", text)
        self.assertIn("// BAR_MAGIC: needs a manual fix:", text)
        status = run(["git", "-C", str(self.root), "status", "--porcelain"]).stdout
        self.assertEqual(status, "")

    def test_scan_mode_context_marks_the_matched_lines(self) -> None:
        text = scan_report.context(self.cands(), dtexts.Texts(self.root))
        self.assertIn("*\tp->magic = FOO_MAGIC;\n", text)
        self.assertIn("*\tif (!p || p->magic != FOO_MAGIC)\n \t\treturn -EINVAL;\n", text)
        self.assertIn("--- drivers/foo/foo.c\n+++ drivers/foo/foo.c\n@@ -", text)

    def test_targets_none_of_which_is_in_the_tree_fail(self) -> None:
        with self.assertRaisesRegex(UsageError, r"TARGETS: NOPE_MAGIC, GONE_MAGIC not found"):
            series_plan.plan(self.tree, self.root, ["NOPE_MAGIC", "GONE_MAGIC"], None, 1,
                        Progress(quiet=True), "all")
        found = series_plan.plan(self.tree, self.root, ["NOPE_MAGIC", "FOO_MAGIC"], None, 1,
                            Progress(quiet=True), "all")
        self.assertEqual([c.macro for c in found.cands], ["FOO_MAGIC"])

    def test_named_target_fails(self) -> None:
        with self.assertRaisesRegex(rewrite.ResidueError, "BAR_MAGIC is still used at drivers/bar/bar.c:16"):
            series_write.write_commits(self.tree, self.root, self.cands(), self.WHO, 1, None,
                                 Progress(quiet=True), discovered=False)


