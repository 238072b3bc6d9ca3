# SPDX-License-Identifier: GPL-2.0
"""qemu/cli.py: bad input is one line and a non-zero status."""

import contextlib
import errno
import io
import tempfile
import unittest
from pathlib import Path
from unittest import mock

from demagic.core.proc import Progress
from demagic.kernel.tree import Tree
from qemu import cli

QUIET = Progress(quiet=True)
FAKE_TREE = Tree("linux-test", Path("/nonexistent"), "0" * 40, "6.1.0", False)


def quiet_main(argv: list) -> tuple:
    err = io.StringIO()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
        with mock.patch("qemu.suite.dtree.pristine", return_value=FAKE_TREE):
            rc = cli.main(argv)
    return rc, err.getvalue()


class BadInputTest(unittest.TestCase):
    def test_missing_series(self) -> None:
        rc, err = quiet_main(["run", "--series", "/nonexistent/series"])
        self.assertEqual(rc, 2)
        self.assertEqual(len(err.strip().splitlines()), 1)
        self.assertIn("no such directory", err)

    def test_empty_series(self) -> None:
        with tempfile.TemporaryDirectory() as tmp:
            rc, err = quiet_main(["mutant", "--series", tmp])
        self.assertEqual(rc, 2)
        self.assertIn("no numbered patches", err)

    def test_a_full_disk_is_one_line(self) -> None:
        full = OSError(errno.ENOSPC, "No space left on device", "/nonexistent/build/log")
        with mock.patch.dict(cli.HANDLERS, {"run": mock.Mock(side_effect=full)}), \
                mock.patch("qemu.cli.dtree.opened"), mock.patch("qemu.cli.given_series"), \
                mock.patch("qemu.cli.tree_name"), mock.patch("qemu.cli.resolve"):
            rc, err = quiet_main(["run", "--series", "/nonexistent/series"])
        self.assertEqual(rc, 1)
        self.assertEqual(len(err.strip().splitlines()), 1)
        self.assertIn("the disk is full: cannot write /nonexistent/build/log", err)

    def test_unknown_command(self) -> None:
        with self.assertRaises(SystemExit):
            with contextlib.redirect_stderr(io.StringIO()):
                cli.main(["frobnicate"])


if __name__ == "__main__":
    unittest.main()
