# SPDX-License-Identifier: GPL-2.0
"""Each command line run as the Makefile runs it (python3 -m ...): it runs, and bad input
is one line on stderr and exit status 2.  build/ is a temporary directory."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path
from typing import Tuple

REPO = Path(__file__).resolve().parents[2]


class EntryTest(unittest.TestCase):
    def setUp(self) -> None:
        self.tmp = Path(tempfile.mkdtemp())
        self.addCleanup(shutil.rmtree, self.tmp)

    def module(self, *argv: str) -> Tuple[int, str]:
        env = {**os.environ, "PYTHONPATH": f"{REPO / 'cocci'}:{REPO}",
               "DEMAGIC_BUILD": str(self.tmp / "build"), "DEMAGIC_CACHE": str(self.tmp / "cache")}
        res = subprocess.run([sys.executable, "-m", *argv], cwd=REPO, env=env, text=True,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=60)
        self.assertEqual(res.stdout, "")
        return res.returncode, res.stderr

    def test_demagic_without_a_command_says_its_usage(self) -> None:
        rc, err = self.module("demagic")
        self.assertEqual(rc, 2)
        self.assertRegex(err, r"^usage: python3 -m demagic \{deps,tree,scan,.*\} \.\.\.\n$")

    def test_each_command_line_names_a_wrong_path_in_one_line(self) -> None:
        gone = self.tmp / "gone"
        for argv, line in (
                (("demagic", "tree", "--kdir", str(gone)), f"demagic: KDIR={gone}: no such directory"),
                (("verify", "run", "--series", str(gone)), f"verify: SERIES={gone}: no such directory"),
                (("qemu", "run", "--series", str(gone)), f"qemu: SERIES={gone}: no such directory")):
            with self.subTest(argv[0]):
                rc, err = self.module(*argv)
                self.assertEqual((rc, err), (2, line + "\n"))
        self.assertFalse((self.tmp / "build" / "trees").exists())


if __name__ == "__main__":
    unittest.main()
