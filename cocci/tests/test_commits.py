# SPDX-License-Identifier: GPL-2.0
"""series/commits.py: the commits git add and git commit would make."""

from __future__ import annotations

import shutil
import tempfile
import unittest
from pathlib import Path

from demagic.core.proc import run
from demagic.kernel.tree import GIT_ENV
from demagic.series import commits


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


if __name__ == "__main__":
    unittest.main()
