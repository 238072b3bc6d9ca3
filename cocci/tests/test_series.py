# SPDX-License-Identifier: GPL-2.0
"""Unit tests of the series writer: its pure parts, then a tiny git tree."""

from __future__ import annotations

import shutil
import tempfile
import unittest
from pathlib import Path

from demagic.series import (cover, message, build as series, plan as series_plan,
                            write as series_write, commits)
from demagic.rewrite import targets
from demagic.rewrite import offsets as layout, preproc, apply as rewrite
from demagic.kernel import registry, source as dtexts, tree as trees
from demagic.judge import scans
from demagic.cli import scan as scan_cli
from demagic.scan import report as scan_report
from demagic.model.candidate import Candidate, Verdict
from demagic.core.proc import Progress, run
from demagic.core.errors import UsageError
from demagic.kernel.tree import GIT_ENV
from demagic.rewrite.tidy import realign, tidy

TABLE = """\
===================== ================ ======================== ==========================================
Magic Name            Number           Structure                File
===================== ================ ======================== ==========================================
PG_MAGIC              'P'              pg_{read,write}_hdr      ``include/linux/pg.h``
QUEUE_MAGIC_FREE      0xf7e1c9a3       queue_entry              ``drivers/scsi/arm/queue.c``
QUEUE_MAGIC_USED      0xf7e1cc33       queue_entry              ``drivers/scsi/arm/queue.c``
===================== ================ ======================== ==========================================
"""


class RealignTest(unittest.TestCase):
    def test_keeps_alignment_of_the_old_line(self) -> None:
        self.assertEqual(realign("\tcp->magic\t\t= CCB_MAGIC;\n", "\tcp->busy = true;\n"),
                         "\tcp->busy\t\t= true;\n")

    def test_spatch_spacing_after_a_removed_operand(self) -> None:
        self.assertEqual(realign("\tif (!s || s->magic != M) \n", "\tif (!s) \n"), "\tif (!s)\n")

    def test_no_blanks_around_member_access(self) -> None:
        self.assertEqual(realign("\tcp -> magic = 0;\n", "\tcp->busy = false;\n"),
                         "\tcp->busy = false;\n")


class TidyTest(unittest.TestCase):
    def test_removal_leaves_no_double_blank_line(self) -> None:
        old = "a;\n\nif (x->magic != M)\n\treturn;\n\nb;\n"
        new = "a;\n\nb;\n"
        self.assertEqual(tidy(old, new), "a;\n\nb;\n")

    def test_comment_moved_by_spatch_goes_back(self) -> None:
        old = "/* head */\n#define M 1\nstruct s {\n\tint m;\t/* magic */\n\tint n;\n};\n"
        new = "struct s {\t/* magic */\n\tint n;\n};\n"
        self.assertEqual(tidy(old, new), "/* head */\nstruct s {\n\tint n;\n};\n")

    def test_empty_section_comment_goes(self) -> None:
        old = "x;\n\n/*\n * Misc.\n */\n\n#define M 1\n\n/*\n * Next.\n */\ny;\n"
        new = "x;\n\n/*\n * Next.\n */\ny;\n"
        self.assertEqual(tidy(old, new), "x;\n\n/*\n * Next.\n */\ny;\n")

    def test_a_wrong_expectation_is_not_met(self) -> None:
        self.assertNotEqual(tidy("a;\n\nb;\n", "a;\n\nb;\n"), "a;\nb;\n")


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


class LayoutTest(unittest.TestCase):
    def test_members_in_order(self) -> None:
        header = "typedef struct kv {\n\tint\t\tkv_magic;\n\ts16\t\tkv_ro;\n} kv_t;\n"
        self.assertEqual(layout.members(header, "kv"), [("int", "kv_magic"), ("s16", "kv_ro")])



class RegistryTest(unittest.TestCase):
    OLD = "Documentation/process/magic-number.rst"

    def test_rows_parsed_and_dropped(self) -> None:
        with tempfile.TemporaryDirectory() as tmp:
            top = Path(tmp)
            doc = top / self.OLD
            doc.parent.mkdir(parents=True)
            doc.write_text(TABLE)
            self.assertEqual([e.macro for e in registry.entries(top)],
                             ["PG_MAGIC", "QUEUE_MAGIC_FREE", "QUEUE_MAGIC_USED"])
            self.assertEqual(registry.drop_rows(top, ["QUEUE_MAGIC_FREE", "QUEUE_MAGIC_USED"]),
                             [self.OLD])
            self.assertEqual([e.macro for e in registry.entries(top)], ["PG_MAGIC"])

    def test_found_wherever_the_tree_keeps_it(self) -> None:
        """6.12 moved the registry to Documentation/staging/; translations stay in process/."""
        with tempfile.TemporaryDirectory() as tmp:
            top = Path(tmp)
            paths = ["Documentation/staging/magic-number.rst",
                     "Documentation/translations/sp_SP/process/magic-number.rst",
                     "Documentation/translations/it_IT/process/magic-number.rst"]
            for rel in paths:
                (top / rel).parent.mkdir(parents=True)
                (top / rel).write_text(TABLE)
                (top / rel).with_name("index.rst").write_text("   other\n   magic-number\n")
            self.assertEqual(registry.files(top), [paths[0], paths[2], paths[1]])
            self.assertEqual(registry.drop_rows(top, ["PG_MAGIC"]), [paths[0], paths[2], paths[1]])
            removed = registry.remove_all(top)
            self.assertEqual(sorted(removed), sorted(paths + [str(Path(p).with_name("index.rst"))
                                                              for p in paths]))
            self.assertEqual((top / "Documentation/staging/index.rst").read_text(), "   other\n")

    def test_no_registry(self) -> None:
        with tempfile.TemporaryDirectory() as tmp:
            self.assertEqual(registry.entries(Path(tmp)), [])
            self.assertEqual(registry.files(Path(tmp)), [])


class GroupTest(unittest.TestCase):
    def cand(self, macro: str, field: str, verdict: Verdict = Verdict.REMOVE) -> Candidate:
        return Candidate(macro, "1", None, "queue_entry", field, "q.c", verdict=verdict)

    def test_shared_field_is_one_patch(self) -> None:
        groups = targets.group([self.cand("QUEUE_MAGIC_FREE", "magic"),
                               self.cand("QUEUE_MAGIC_USED", "magic"),
                               self.cand("OTHER_MAGIC", "other")])
        self.assertEqual([g[0] for g in groups],
                         [("QUEUE_MAGIC_FREE", "QUEUE_MAGIC_USED"), ("OTHER_MAGIC",)])

    def test_group_name(self) -> None:
        self.assertEqual(message.group_name(["QUEUE_MAGIC_FREE", "QUEUE_MAGIC_USED"]),
                         "QUEUE_MAGIC_{FREE,USED}")
        self.assertEqual(message.group_name(["YAM_MAGIC"]), "YAM_MAGIC")


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
        facts = series.cover_facts(self.tree, summary, "all", None, None, "", "out")
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
        with self.assertRaisesRegex(rewrite.ResidueError, "BAR_MAGIC still used at drivers/bar/bar.c:16"):
            series_write.write_commits(self.tree, self.root, self.cands(), self.WHO, 1, None,
                                 Progress(quiet=True), discovered=False)


class CommitTest(unittest.TestCase):
    """commits.commit (git's plumbing) makes the commit git add and git commit would."""

    WHO = ("A U Thor", "a@example.org")
    DATE = "2022-12-01T00:07:00+00:00"

    def repo(self, name: str) -> Path:
        root = self.tmp / name
        run(["git", "init", "-q", str(root)])
        (root / "a.c").write_text("int a;\n")
        (root / "b.h").write_text("int b;\n")
        run(["git", "-C", str(root), "add", "-A"])
        run(["git", "-C", str(root), "commit", "-q", "-m", "base"], env=GIT_ENV)
        (root / "a.c").write_text("int a2;\n")
        (root / "b.h").unlink()
        (root / "c.c").write_text("int c;\n")
        (root / "d.c").write_text("left alone\n")
        return root

    def setUp(self) -> None:
        self.tmp = Path(tempfile.mkdtemp())
        self.addCleanup(shutil.rmtree, self.tmp)

    def test_the_same_commit_as_git_commit(self) -> None:
        body = "Body line  \n\n\n\nafter three blank lines\t\n\n"
        plumbing, porcelain = self.repo("plumbing"), self.repo("porcelain")
        commits.commit(plumbing, "x: remove FOO_MAGIC", body, self.WHO, ["a.c", "b.h", "c.c"],
                      self.DATE)
        sob = f"Signed-off-by: {self.WHO[0]} <{self.WHO[1]}>"
        run(["git", "-C", str(porcelain), "add", "-f", "-A", "--", "a.c", "b.h", "c.c"])
        run(["git", "-C", str(porcelain), "commit", "-q", "--no-verify", "-F", "-"],
            env=commits.git_env(self.WHO, self.DATE),
            input_text=f"x: remove FOO_MAGIC\n\n{body}\n\n{sob}\n")

        def head(root: Path) -> str:
            return run(["git", "-C", str(root), "rev-parse", "HEAD"]).stdout

        self.assertEqual(head(plumbing), head(porcelain))
        status = run(["git", "-C", str(plumbing), "status", "--porcelain"]).stdout
        self.assertEqual(status, "?? d.c\n")

    def test_cleanup(self) -> None:
        self.assertEqual(commits.cleanup("\n\ns  \n\n\n\nb\t\nc\n\n\n"), "s\n\nb\nc\n")
        self.assertEqual(commits.cleanup("\n \n"), "")
