# SPDX-License-Identifier: GPL-2.0
"""The content caches (memo): each result is served again only for the same input, and
the answer served is the one the tool would give."""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
import unittest
from pathlib import Path
from typing import List
from unittest import mock

from demagic.scan import discover
from demagic.series import mail as export
from demagic.core import memo
from demagic.rewrite import apply as rewrite
from demagic.model.candidate import Verdict
from demagic.core.proc import Progress, run

from tests.test_rewrite import DEFINES, DRIVER, HEADER


class CacheDir(unittest.TestCase):
    """Each test has an empty cache of its own."""

    def setUp(self) -> None:
        self.tmp = Path(tempfile.mkdtemp())
        self.addCleanup(shutil.rmtree, self.tmp)
        patcher = mock.patch.dict(os.environ, {"DEMAGIC_CACHE": str(self.tmp / "cache")})
        patcher.start()
        self.addCleanup(patcher.stop)


class MemoTest(CacheDir):
    def test_an_entry_comes_back_and_a_damaged_one_is_absent(self) -> None:
        memo.put("k", "n", b"data")
        self.assertEqual(memo.get("k", "n"), b"data")
        (self.tmp / "cache" / "k" / "n").write_bytes(b"not zlib")
        self.assertIsNone(memo.get("k", "n"))
        self.assertIsNone(memo.get("k", "other"))

    def test_parts_do_not_run_together(self) -> None:
        self.assertNotEqual(memo.key("ab", "c"), memo.key("a", "bc"))
        self.assertEqual(memo.key("a", b"b"), memo.key("a", "b"))


def git(root: Path, *args: str) -> str:
    return run(["git", "-C", str(root), "-c", "user.name=t", "-c", "user.email=t@t", *args]).stdout


@unittest.skipUnless(shutil.which("spatch"), "spatch not installed")
class SpatchCacheTest(CacheDir):
    FILES = ["foo.h", "d0.c", "d1.c"]

    def tree(self, name: str) -> Path:
        root = self.tmp / name
        root.mkdir()
        (root / "foo.h").write_text(HEADER)
        for i in range(2):
            (root / f"d{i}.c").write_text(DRIVER.format(n=i))
        return root

    def spatch_runs(self, root: Path, rule: Path = rewrite.RULE_OF[Verdict.REMOVE],
                    defines: dict = DEFINES) -> List[str]:
        """_spatch on root; the files spatch itself was given."""
        given: List[str] = []
        real = rewrite.run

        def spy(argv, *args, **kwargs):  # type: ignore
            if "--file-groups" in argv:
                given.extend(Path(argv[-1]).read_text().split())
            else:
                given.append(argv[-1])
            return real(argv, *args, **kwargs)
        with mock.patch.object(rewrite, "run", spy):
            rewrite._spatch(rule, defines, root, self.FILES)
        return sorted(given)

    def test_the_same_input_is_served_and_gives_the_same_tree(self) -> None:
        first = self.tree("first")
        self.assertEqual(self.spatch_runs(first), sorted(self.FILES))
        again = self.tree("again")
        self.assertEqual(self.spatch_runs(again), [])
        for rel in self.FILES:
            self.assertEqual((again / rel).read_text(), (first / rel).read_text(), rel)
        self.assertNotIn("FOO_MAGIC", (again / "d0.c").read_text())

    def test_a_changed_file_rule_or_option_misses(self) -> None:
        self.spatch_runs(self.tree("first"))
        changed = self.tree("file")
        (changed / "d1.c").write_text(DRIVER.format(n=1) + "/* changed */\n")
        self.assertEqual(self.spatch_runs(changed), ["d1.c"])
        rule = self.tmp / "rule.cocci"
        rule.write_text(rewrite.RULE_OF[Verdict.REMOVE].read_text() + "// changed\n")
        self.assertEqual(self.spatch_runs(self.tree("rule"), rule), sorted(self.FILES))
        self.assertEqual(self.spatch_runs(self.tree("define"), defines={**DEFINES, "x": "y"}),
                         sorted(self.FILES))

    def test_a_timeout_is_not_kept(self) -> None:
        def fake(argv, cwd=None, check=True, timeout=None, **_):  # type: ignore
            return subprocess.CompletedProcess(argv, 0, "", "timeout (we abort): d0.c\n")
        with mock.patch.object(rewrite, "run", fake):
            rewrite._spatch(rewrite.RULE_OF[Verdict.REMOVE], DEFINES, self.tree("t"), self.FILES)
        self.assertFalse((self.tmp / "cache" / "spatch").exists())


REPORT = ("{f}:5:5-12: WARNING: magic set=assign const=FOO_MAGIC field=magic func=f type=foo "
          "expr=p->magic\n")


class FindCacheTest(CacheDir):
    def setUp(self) -> None:
        super().setUp()
        self.root = self.tmp / "tree"
        self.root.mkdir()
        self.files = ["b.c", "a.c", "c.c"]
        for f in self.files:
            (self.root / f).write_text(f"int {f[0]};\n")

    @staticmethod
    def spatch(given: List[str]):  # type: ignore
        """A spatch that reports one set in each file of its group, noting them in given."""
        def fake(argv, cwd=None, check=True, **_):  # type: ignore
            names = Path(argv[argv.index("--file-groups") + 1]).read_text().split()
            given.extend(names)
            return subprocess.CompletedProcess(argv, 0, "".join(REPORT.format(f=f) for f in names),
                                               "")
        return fake

    def chunk(self) -> "tuple[discover.Report, List[str]]":
        given: List[str] = []
        with mock.patch.object(discover, "run", self.spatch(given)):
            return discover._spatch_chunk(self.root, self.files, []), given

    def test_parts_come_back_in_the_order_of_the_files(self) -> None:
        first, given = self.chunk()
        self.assertEqual(given, self.files)
        (self.root / "a.c").write_text("int changed;\n")
        again, given = self.chunk()
        self.assertEqual(given, ["a.c"])                  # only the changed file runs
        self.assertEqual([r.file for r in again.records], self.files)
        self.assertEqual(again.records, first.records)
        _, given = self.chunk()
        self.assertEqual(given, [])

    def test_a_scan_answers_in_file_order_however_it_is_shared_out(self) -> None:
        files = [f"d{i}.c" for i in range(6)]
        for i, f in enumerate(files):      # the biggest last: runs go biggest first
            (self.root / f).write_text(f"int {f[:2]};\n" + "/* */\n" * i)
        reports = []
        for chunk in (1, 2, 100):
            with mock.patch.object(discover, "run", self.spatch([])), \
                    mock.patch.object(discover, "CHUNK", chunk), memo.isolated():
                reports.append(discover.run_rule(self.root, files, 2, Progress(quiet=True)))
        for report in reports:
            self.assertEqual([r.file for r in report.records], files)

    def test_a_failed_run_is_not_kept(self) -> None:
        def fake(argv, cwd=None, check=True, **_):  # type: ignore
            return subprocess.CompletedProcess(argv, 0, "", "EXN: Failure in a.c\n")
        with mock.patch.object(discover, "run", fake):
            report = discover._spatch_chunk(self.root, self.files, [])
        self.assertEqual(report.failed, ["a.c"])
        self.assertFalse((self.tmp / "cache" / "find").exists())


class ScriptCacheTest(CacheDir):
    def setUp(self) -> None:
        super().setUp()
        self.root = self.tmp / "tree"
        self.root.mkdir()
        (self.root / "f.c").write_text("int x;\n")
        git(self.root, "init", "-q")
        git(self.root, "add", "-A")
        git(self.root, "commit", "-q", "-m", "base")
        self.patch = self.tmp / "0001-x.patch"
        self.patch.write_text("Subject: [PATCH] x\n\n---\n")

    def test_same_tree_and_patch_are_served_until_either_changes(self) -> None:
        asked: List[Path] = []

        def fake(work, patch):  # type: ignore
            asked.append(patch)
            return export.Mailed(("m <m@x>",), ())
        with mock.patch.object(export, "maintainers", fake):
            state = export.tree_state(self.root)
            self.assertIsNotNone(state)
            first = export.mail_all(self.root, [self.patch], 1, state)
            self.assertEqual(export.mail_all(self.root, [self.patch], 1, state), first)
            self.assertEqual(len(asked), 1)
            self.patch.write_text("Subject: [PATCH] y\n\n---\n")
            export.mail_all(self.root, [self.patch], 1, state)
            self.assertEqual(len(asked), 2)
            git(self.root, "commit", "-q", "--allow-empty", "-m", "another")
            export.mail_all(self.root, [self.patch], 1, export.tree_state(self.root))
            self.assertEqual(len(asked), 3)
            (self.root / "f.c").write_text("int y;\n")      # a file differs: nothing is kept
            self.assertIsNone(export.tree_state(self.root))
            export.mail_all(self.root, [self.patch], 1, None)
            export.mail_all(self.root, [self.patch], 1, None)
            self.assertEqual(len(asked), 5)


if __name__ == "__main__":
    unittest.main()
