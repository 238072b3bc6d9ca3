# SPDX-License-Identifier: GPL-2.0
"""verify/builddir.py: diagnostics, new warnings, dependencies."""

from __future__ import annotations

import tempfile
import unittest
from pathlib import Path

from demagic.model import patches as patch
from verify import builddir, targets

DATA = Path(__file__).resolve().parent / "test_data"
MODEL_DATA = Path(__file__).resolve().parents[2] / "cocci" / "tests" / "test_data"


def load(name: str) -> patch.Patch:
    return patch.parse_file(MODEL_DATA / name, 3)


class KbuildTest(unittest.TestCase):
    LOG = ("/w/t/drivers/a.c:10:5: warning: unused variable 'x' [-Wunused-variable]\n"
           "/w/t/drivers/a.c: In function 'f':\n"
           "drivers/a.c:12: error: expected ';' before '}' token\n")

    def test_diagnostics_drop_line_numbers_and_prefix(self) -> None:
        diags = builddir.parse_diagnostics(self.LOG, Path("/w/t"))
        self.assertEqual([str(d) for d in diags], [
            "drivers/a.c: warning: unused variable 'x' [-Wunused-variable]",
            "drivers/a.c: error: expected ';' before '}' token"])

    def test_new_warning_found_moved_one_not(self) -> None:
        before = builddir.parse_diagnostics(self.LOG, Path("/w/t"))
        moved = builddir.parse_diagnostics(self.LOG.replace(":10:5:", ":7:5:"), Path("/w/t"))
        self.assertEqual(builddir.new_warnings(before, moved), [])
        extra = moved + builddir.parse_diagnostics(
            "drivers/a.c:3:1: warning: no previous prototype [-Wmissing-prototypes]\n", Path("/"))
        self.assertEqual(len(builddir.new_warnings(before, extra)), 1)


    def test_deps_absolute_or_relative_to_the_build_directory(self) -> None:
        with tempfile.TemporaryDirectory() as tmp:
            root = Path(tmp)
            src, out = root / "work/tree", root / "verify/tree/x86_64"
            (out / "fs").mkdir(parents=True)
            arch = targets.by_name("x86_64")
            bdir = builddir.BuildDir(arch, src, out)
            for form in (f"{src}/", "../../../work/tree/"):
                (out / "fs/.fcntl.o.cmd").write_text(
                    f"savedcmd_fs/fcntl.o := gcc ...\n\nsource_fs/fcntl.o := {form}fs/fcntl.c\n\n"
                    f"deps_fs/fcntl.o := \\\n  {form}include/linux/fs.h \\\n"
                    "  include/generated/autoconf.h \\\n  $(wildcard include/config/X) \\\n\n"
                    "fs/fcntl.o: $(deps_fs/fcntl.o)\n")
                self.assertEqual(bdir.deps("fs/fcntl.o"), {
                    "fs/fcntl.c", "include/linux/fs.h", "include/generated/autoconf.h"}, form)


if __name__ == "__main__":
    unittest.main()
