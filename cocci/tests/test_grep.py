# SPDX-License-Identifier: GPL-2.0
"""kernel/grep.py: a grep of a work tree answered from its pristine commit's is the grep of
the tree; PCRE and ERE agree; a word index answers as a fresh grep would."""

from __future__ import annotations

import tempfile
import unittest
from pathlib import Path
from typing import List
from unittest import mock

from demagic.kernel import grep
from demagic.kernel.grep import Grep, WordIndex

from tests.test_memo import CacheDir, git
from tests.test_rewrite import DRIVER, HEADER

# grep options demagic uses, each with the globs and dirs it goes with
GREPS = [
    (["-n", "-w", "-e", "magic", "-e", "FOO_MAGIC"], ["*"], ["."]),
    (["-l", "-w", "-e", "FOO_MAGIC"], ["*.c", "*.h"], ["."]),
    (["-h", "-E", r"int\s+\w+;"], ["*.h"], ["."]),
    (["-o", "-E", r"(->|\.)\s*magic"], ["*.c", "*.h"], ["."]),
    (["-nwE", "magic|val"], ["*.[ch]"], ["drivers", "include"]),
    (["-n", "-P", r"(?<![\w])(?:FOO_MAGIC|val)(?![\w])"], ["*.c"], ["drivers"]),
    (["-h", "-A", "1", "-E", "magic"], ["*.c"], ["."]),     # context: always a whole grep
]



class PristineGrepTest(CacheDir):
    def setUp(self) -> None:
        super().setUp()
        self.root = self.tmp / "tree"
        for i in range(4):
            path = self.root / "drivers" / f"d{i}.c"
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(DRIVER.format(n=i))
        (self.root / "include").mkdir()
        (self.root / "include" / "foo.h").write_text(HEADER)
        (self.root / "README").write_text("magic numbers: FOO_MAGIC\n")
        git(self.root, "init", "-q")
        git(self.root, "add", "-A")
        git(self.root, "commit", "-q", "-m", "base")
        self.base = git(self.root, "rev-parse", "HEAD").strip()

    def change(self, step: int) -> None:
        """The tree as a series leaves it: a commit, then files changed, gone and new."""
        if step == 0:
            (self.root / "drivers" / "d1.c").write_text(DRIVER.format(n=1).replace(
                "p->magic != FOO_MAGIC", "p->val"))
            git(self.root, "commit", "-q", "-a", "-m", "one")
            (self.root / "include" / "foo.h").write_text(HEADER.replace("\tint magic;\n", ""))
        else:
            git(self.root, "rm", "-q", "drivers/d2.c")
            (self.root / "drivers" / "d0.c").write_text("int magic;\nint val;\n")

    def both(self) -> None:
        """Every grep gives, in the pristine context, what a grep of the tree gives."""
        for options, globs, dirs in GREPS:
            plain = Grep(self.root).tree(options, globs, dirs)
            served = Grep(self.root, self.base).tree(options, globs, dirs)
            self.assertEqual(served, plain, options)
            self.assertTrue(plain or options[0] == "-h", options)    # the cases find something

    def test_cached_greps_answer_as_the_tree(self) -> None:
        self.both()                 # the base itself: fills the cache
        for step in (0, 1):
            self.change(step)
            self.both()             # from the cache, the changed files grepped again

    def test_a_first_grep_of_a_changed_tree_keeps_the_base(self) -> None:
        self.change(0)
        self.both()                 # misses: the base's grep is made from the tree's
        self.change(1)
        self.both()

    def test_a_hit_greps_only_the_changed_files(self) -> None:
        options, globs, dirs = GREPS[0]
        Grep(self.root, self.base).tree(options, globs, dirs)
        self.change(0)
        argvs: List[List[str]] = []
        real = grep.run

        def spy(argv, *args, **kwargs):  # type: ignore
            argvs.append([str(a) for a in argv])
            return real(argv, *args, **kwargs)
        with mock.patch.object(grep, "run", spy):
            Grep(self.root, self.base).tree(options, globs, dirs)
        greps = [a[a.index("--") + 1:] for a in argvs if "grep" in a]
        self.assertEqual(greps, [["drivers/d1.c", "include/foo.h"]])

    def test_frozen_finds_the_changes_once(self) -> None:
        self.change(0)
        calls = []
        real = grep._changed
        with mock.patch.object(grep, "_changed", lambda *a: calls.append(a) or real(*a)):
            frozen = Grep(self.root, self.base, frozen=True)
            for options, globs, dirs in GREPS:
                frozen.tree(options, globs, dirs)
        self.assertEqual(len(calls), 1)


class GrepEreTest(unittest.TestCase):
    """Grep.ere answers with PCRE what grep -E answers: the same lines, the same parts."""
    LINES = ("\tp->magic = FOO_MAGIC;\n\tq.magic\t=\tBAR_MAGIC;\n\tif (p->magic == X) {}\n"
             "\tp->magic_end = 1;\n\tr->data = s->data; t . data=2;\n\tu->magicx = 3;\n")

    def test_pcre_and_ere_agree(self) -> None:
        pattern = r"(->|\.)\s*(magic|magic_end|data)\s*=[^=]"
        with tempfile.TemporaryDirectory() as tmp:
            root = Path(tmp)
            (root / "a").mkdir()
            (root / "a" / "x.c").write_text(self.LINES)
            (root / "a" / "y.h").write_text(self.LINES[::-1])
            want = Grep(root).tree(["-o", "-E", pattern], ["*.c", "*.h"])
            git(root, "init", "-q")
            git(root, "add", "-A")
            argvs: List[List[str]] = []
            real = grep.run

            def spy(argv, *args, **kwargs):  # type: ignore
                argvs.append([str(a) for a in argv])
                return real(argv, *args, **kwargs)
            with mock.patch.object(grep, "run", spy):
                got = Grep(root).ere(pattern, ["*.c", "*.h"], options=["-o"])
        self.assertEqual(got, want)
        self.assertEqual(len(want.splitlines()), 5, want)
        self.assertTrue(any("-P" in a and "grep" in a for a in argvs), argvs)


class WordIndexTest(unittest.TestCase):
    """WordIndex, one grep for a whole run, answers as a fresh git grep would."""

    def setUp(self) -> None:
        self._tmp = tempfile.TemporaryDirectory()
        self.addCleanup(self._tmp.cleanup)
        self.wt = Path(self._tmp.name)
        from demagic.core.proc import run
        (self.wt / "a.c").write_text("int FOO_MAGIC;\nint x = FOO_MAGIC;\n")
        (self.wt / "b.c").write_text("int BAR_MAGIC;\nint FOO_MAGICAL;\n")
        run(["git", "init", "-q", str(self.wt)])
        run(["git", "-C", str(self.wt), "add", "-A"])

    def test_answers_as_git_grep_after_the_tree_changes(self) -> None:
        grep = WordIndex(Grep(self.wt), ["BAR_MAGIC", "FOO_MAGIC"])
        (self.wt / "a.c").write_text("int y;\n")
        (self.wt / "b.c").write_text("int BAR_MAGIC, FOO_MAGIC;\n")
        grep.touched(["a.c", "b.c"])
        for words in (["FOO_MAGIC"], ["BAR_MAGIC", "FOO_MAGIC"], ["FOO_MAGICAL"]):
            with self.subTest(words=words):
                self.assertEqual(grep(words), sorted(Grep(self.wt).word_lines(words)))
        self.assertEqual(grep(["FOO_MAGIC"]), [("b.c", 1, "int BAR_MAGIC, FOO_MAGIC;")])

    def test_untouched_files_come_from_the_first_grep(self) -> None:
        grep = WordIndex(Grep(self.wt), ["FOO_MAGIC"])
        self.assertEqual(grep(["FOO_MAGIC"]), [("a.c", 1, "int FOO_MAGIC;"),
                                               ("a.c", 2, "int x = FOO_MAGIC;")])


if __name__ == "__main__":
    unittest.main()
