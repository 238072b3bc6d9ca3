# SPDX-License-Identifier: GPL-2.0
"""apt-get as a mirror in mid-sync leaves it: update tried again, then said; install decides."""

from __future__ import annotations

import io
import subprocess
import unittest
from contextlib import redirect_stderr
from unittest import mock

from demagic.core import deps
from demagic.core.proc import CommandError


def _done(argv, rc, out=""):
    return subprocess.CompletedProcess(argv, rc, out, "")


class Update(unittest.TestCase):
    def setUp(self) -> None:
        self.calls = []
        sleep = mock.patch("demagic.core.deps.time.sleep", lambda _: None)
        sleep.start()
        self.addCleanup(sleep.stop)

    def fake(self, update_rcs, install_ok=True):
        rcs = list(update_rcs)

        def run(argv, env=None, check=True, **_):
            self.calls.append(argv[1])
            if argv[1] == "update":
                rc = rcs.pop(0)
                return _done(argv, rc, "" if rc == 0 else
                             "E: Failed to fetch http://m/Packages.xz  File has unexpected size\n")
            if not install_ok:
                raise CommandError(argv, 100, "E: Unable to locate package foo")
            return _done(argv, 0)
        return mock.patch("demagic.core.deps.run", run)

    def test_retried_until_it_works(self) -> None:
        err = io.StringIO()
        with self.fake([100, 0]), redirect_stderr(err):
            deps.update()
        self.assertEqual(self.calls, ["update", "update"])
        self.assertEqual(err.getvalue(), "")

    def test_still_failing_is_said_and_install_goes_on(self) -> None:
        err = io.StringIO()
        with self.fake([100] * 6), mock.patch("demagic.core.deps.have_lists", lambda: False), \
                redirect_stderr(err):
            deps.install(["foo"])
        self.assertEqual(self.calls, ["update"] * deps.UPDATE_TRIES + ["install"])
        self.assertIn("Failed to fetch http://m/Packages.xz", err.getvalue())
        self.assertEqual(len(err.getvalue().splitlines()), 1)

    def test_install_failing_after_is_the_error(self) -> None:
        with self.fake([100] * 6, install_ok=False), \
                mock.patch("demagic.core.deps.have_lists", lambda: True), \
                redirect_stderr(io.StringIO()), self.assertRaises(CommandError):
            deps.install(["foo"])
        self.assertEqual(self.calls, ["install"] + ["update"] * deps.UPDATE_TRIES + ["install"])


if __name__ == "__main__":
    unittest.main()
