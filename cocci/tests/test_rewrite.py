# SPDX-License-Identifier: GPL-2.0
"""spatch runs of the rewrite: several files to a run, each named when one fails."""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
import unittest
from pathlib import Path
from unittest import mock

from demagic.rewrite import apply as rewrite
from demagic.model.candidate import Verdict

DRIVER = """\
#include "foo.h"

int foo_use{n}(struct foo *p)
{{
\tif (!p || p->magic != FOO_MAGIC)
\t\treturn -1;
\treturn p->val;
}}
"""

HEADER = """\
#define FOO_MAGIC 0x1234

struct foo {
\tint magic;
\tint val;
};
"""

DEFINES = {"magic": "FOO_MAGIC", "member": "magic", "sname": "foo"}


class ChunksTest(unittest.TestCase):
    def tree(self, sizes):
        tmp = Path(tempfile.mkdtemp())
        self.addCleanup(shutil.rmtree, tmp)
        for i, size in enumerate(sizes):
            (tmp / f"f{i}.c").write_text("x" * size)
        return tmp, [f"f{i}.c" for i in range(len(sizes))]

    def test_a_run_has_several_files_and_runs_end_together(self) -> None:
        tree, files = self.tree([100, 90, 80, 70, 60, 50, 40, 30, 20])
        parts = rewrite.chunks(tree, files, 2)
        self.assertEqual(len(parts), 2)
        self.assertEqual(sorted(f for p in parts for f in p), sorted(files))
        self.assertTrue(all(len(p) >= rewrite.FILES_PER_RUN for p in parts))

    def test_few_files_make_one_run(self) -> None:
        tree, files = self.tree([10] * (2 * rewrite.FILES_PER_RUN - 1))
        self.assertEqual(rewrite.chunks(tree, files, 8), [sorted(files)])
        tree, files = self.tree([10])
        self.assertEqual(rewrite.chunks(tree, files, 2), [files])


class SpatchTest(unittest.TestCase):
    def setUp(self) -> None:
        self.tmp = Path(tempfile.mkdtemp())
        self.addCleanup(shutil.rmtree, self.tmp)
        self.empty_cache("first")

    def empty_cache(self, name: str) -> None:
        """spatch's results are kept: each run that must really run gets an empty cache."""
        patcher = mock.patch.dict(os.environ, {"DEMAGIC_CACHE": str(self.tmp / f"cache-{name}")})
        patcher.start()
        self.addCleanup(patcher.stop)

    def driver_tree(self, name: str, n: int) -> Path:
        root = self.tmp / name
        root.mkdir()
        (root / "foo.h").write_text(HEADER)
        for i in range(n):
            (root / f"d{i}.c").write_text(DRIVER.format(n=i))
        return root

    def test_one_run_rewrites_as_one_run_per_file(self) -> None:
        rule = rewrite.RULE_OF[Verdict.REMOVE]
        files = ["foo.h"] + [f"d{i}.c" for i in range(5)]
        together, alone = self.driver_tree("together", 5), self.driver_tree("alone", 5)
        rewrite._spatch(rule, DEFINES, together, files)
        for rel in files:
            self.empty_cache(rel)
            rewrite._spatch(rule, DEFINES, alone, [rel])
        for rel in files:
            self.assertEqual((together / rel).read_text(), (alone / rel).read_text(), rel)
        self.assertNotIn("FOO_MAGIC", (together / "d3.c").read_text())
        self.assertNotIn("magic", (together / "foo.h").read_text())

    def test_a_failing_run_names_the_file_and_leaves_no_half_rewrite(self) -> None:
        root = self.driver_tree("t", 3)
        files = ["d0.c", "d1.c", "d2.c"]
        seen = []

        def fake(argv, cwd=None, check=True, timeout=None, **_):
            if "--file-groups" in argv:     # rewrites d0.c, then dies on d1.c
                (Path(cwd) / "d0.c").write_text("half\n")
                return subprocess.CompletedProcess(argv, 1, "", "EXN: Failure\n")
            rel = argv[-1]
            seen.append((rel, (Path(cwd) / "d0.c").read_text()))
            if rel == "d1.c":
                return subprocess.CompletedProcess(argv, 1, "", "d1.c: parse error\n")
            return subprocess.CompletedProcess(argv, 0, "", "")

        with mock.patch("demagic.rewrite.apply.run", fake), \
                self.assertRaisesRegex(rewrite.SpatchError, r"^d1\.c: spatch failed: d1\.c: parse"):
            rewrite._spatch(rewrite.RULE_OF[Verdict.REMOVE], DEFINES, root, files)
        self.assertEqual(seen[0], ("d0.c", DRIVER.format(n=0)))
        self.assertEqual([rel for rel, _ in seen], ["d0.c", "d1.c"])


if __name__ == "__main__":
    unittest.main()
