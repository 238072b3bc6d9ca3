# SPDX-License-Identifier: GPL-2.0
"""A user's own tree, used the way users use it: it moves on, it is dirty, it is a
worktree or a shallow clone, two runs overlap, a run is interrupted.  Each test makes
its small trees itself; build/ is a temporary directory."""

from __future__ import annotations

import contextlib
import errno
import io
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import unittest
from pathlib import Path
from unittest import mock

from demagic.model.series import Series
from demagic.core import paths
from demagic.core import lock, proc
from demagic.series import build as series
from demagic.kernel import tree as trees
from demagic.core.proc import CommandError, Progress, run
from demagic.core.errors import DemagicError, UsageError

ENV = {"GIT_AUTHOR_NAME": "u", "GIT_AUTHOR_EMAIL": "u@x.org", "GIT_COMMITTER_NAME": "u",
       "GIT_COMMITTER_EMAIL": "u@x.org"}
FILES = {"Makefile": "VERSION = 6\nPATCHLEVEL = 12\nSUBLEVEL = 0\n",
         "scripts/checkpatch.pl": "#!/usr/bin/perl\n", "include/linux/foo.h": "int x;\n",
         "drivers/foo/foo.c": "int foo;\n"}
QUIET = Progress(quiet=True)


def make_tree(top: Path, git: bool = True) -> Path:
    for rel, text in FILES.items():
        (top / rel).parent.mkdir(parents=True, exist_ok=True)
        (top / rel).write_text(text)
    if git:
        run(["git", "init", "-q", str(top)])
        run(["git", "-C", str(top), "add", "-A"])
        run(["git", "-C", str(top), "commit", "-q", "-m", "base"], env=ENV)
    return top


def commit(top: Path, rel: str, text: str) -> None:
    (top / rel).write_text(text)
    run(["git", "-C", str(top), "commit", "-q", "-am", "more"], env=ENV)


class TreeCase(unittest.TestCase):
    def setUp(self) -> None:
        self.tmp = Path(tempfile.mkdtemp())
        self.build = self.tmp / "build"
        patcher = mock.patch.object(paths, "BUILD", self.build)
        patcher.start()
        self.addCleanup(patcher.stop)
        self.addCleanup(shutil.rmtree, self.tmp)

    def user_tree(self, name: str = "linux", git: bool = True) -> Path:
        return make_tree(self.tmp / name, git)


class MovingTreeTest(TreeCase):
    def test_a_new_commit_in_kdir_gives_a_fresh_copy_and_work_copies(self) -> None:
        kdir = self.user_tree()
        first = trees.pristine(kdir, QUIET)
        trees.worktree(first)
        commit(kdir, "drivers/foo/foo.c", "int foo = 1;\n")
        second = trees.pristine(kdir, QUIET)
        self.assertNotEqual(first.base, second.base)
        work = trees.worktree(second)
        self.assertEqual((work / "drivers/foo/foo.c").read_text(), "int foo = 1;\n")

    def test_a_plain_tree_extracted_again_is_copied_again(self) -> None:
        kdir = self.user_tree(git=False)
        first = trees.pristine(kdir, QUIET)
        (kdir / "Makefile").write_text("VERSION = 6\nPATCHLEVEL = 12\nSUBLEVEL = 3\n")
        (kdir / "drivers/foo/foo.c").write_text("int foo = 2;\n")
        second = trees.pristine(kdir, QUIET)
        self.assertEqual((first.version, second.version), ("6.12.0", "6.12.3"))
        self.assertEqual((second.repo / "drivers/foo/foo.c").read_text(), "int foo = 2;\n")


class DirtyTreeTest(TreeCase):
    def test_uncommitted_changes_are_followed_and_said(self) -> None:
        kdir = self.user_tree()
        (kdir / "drivers/foo/foo.c").write_text("int foo = 3;\n")
        (kdir / "drivers/foo/new.c").write_text("int bar;\n")
        t = trees.pristine(kdir, QUIET)
        self.assertEqual((t.repo / "drivers/foo/foo.c").read_text(), "int foo = 3;\n")
        self.assertTrue((t.repo / "drivers/foo/new.c").exists())
        self.assertEqual(t.dirty, ("drivers/foo/foo.c", "drivers/foo/new.c"))
        self.assertIn("uncommitted changes to 2 files", t.origin)
        # a further change is a new snapshot
        (kdir / "drivers/foo/foo.c").write_text("int foo = 4;\n")
        self.assertNotEqual(trees.pristine(kdir, QUIET).base, t.base)


class KindsOfTreeTest(TreeCase):
    def test_a_git_worktree(self) -> None:
        kdir = self.user_tree()
        wt = self.tmp / "wt"
        run(["git", "-C", str(kdir), "worktree", "add", "-q", str(wt)])
        self.assertTrue(trees.pristine(wt, QUIET).has_history)

    def test_a_shallow_clone(self) -> None:
        kdir = self.user_tree()
        commit(kdir, "drivers/foo/foo.c", "int foo = 5;\n")
        shallow = self.tmp / "shallow"
        run(["git", "clone", "-q", "--depth", "1", f"file://{kdir}", str(shallow)])
        t = trees.pristine(shallow, QUIET)
        self.assertEqual((t.repo / "drivers/foo/foo.c").read_text(), "int foo = 5;\n")

    def test_a_path_with_spaces(self) -> None:
        kdir = make_tree(self.tmp / "my linux tree")
        t = trees.pristine(kdir, QUIET)
        self.assertEqual(t.name, "my linux tree")
        self.assertTrue((trees.worktree(t) / "Makefile").exists())

    def test_a_tree_with_a_submodule(self) -> None:
        kdir = self.user_tree()
        sub = make_tree(self.tmp / "sub")
        run(["git", "-C", str(kdir), "-c", "protocol.file.allow=always", "submodule", "add",
             "-q", str(sub), "vendor/sub"], env=ENV)
        run(["git", "-C", str(kdir), "commit", "-q", "-m", "sub"], env=ENV)
        self.assertTrue(trees.pristine(kdir, QUIET).has_history)


class DebianTreeTest(TreeCase):
    def test_a_missing_package_is_installed_or_named(self) -> None:
        with mock.patch.object(trees, "tarball", return_value=self.tmp / "none.tar.xz"), \
                mock.patch("demagic.core.deps.ensure_packages") as ensure:
            with self.assertRaisesRegex(DemagicError, r"none.tar.xz missing after installing "
                                                      r"linux-source-6.12"):
                trees.pristine(None, QUIET, "linux-6.12")
        ensure.assert_called_once_with(["linux-source-6.12"], "TREE=linux-6.12")

    def test_an_unknown_tree_name_is_refused(self) -> None:
        with self.assertRaisesRegex(UsageError, r"TREE=linux-5.10: not a tree demagic provides"):
            trees.pristine(None, QUIET, "linux-5.10")


class RefusalsTest(TreeCase):
    def test_out_inside_kdir_is_refused(self) -> None:
        kdir = self.user_tree()
        with self.assertRaisesRegex(UsageError, r"OUT=.* is inside KDIR=.*never writes"):
            series.check_out(kdir, kdir / "patches")
        series.check_out(kdir, self.tmp / "patches")

    def test_an_incomplete_tree_is_named_so(self) -> None:
        kdir = self.user_tree(git=False)
        shutil.rmtree(kdir / "scripts")
        with self.assertRaisesRegex(UsageError, r"an incomplete kernel tree \(no scripts/"):
            trees.check_kdir(kdir)

    def test_j_above_the_cpus_is_capped(self) -> None:
        cpus = os.cpu_count() or 1
        self.assertEqual(proc.cap_jobs(cpus + 62), cpus)
        self.assertEqual(proc.cap_jobs(1), 1)

    def test_a_full_disk_is_named_and_earlier_output_kept(self) -> None:
        exc = CommandError(["make"], 2, "cc1: fatal error: foo.o: No space left on device\n")
        self.assertIn("the disk is full", str(exc))
        self.assertIn("earlier results are kept", str(exc))

    def test_a_full_disk_under_python_is_one_line_naming_the_file(self) -> None:
        def body() -> int:
            raise OSError(errno.ENOSPC, "No space left on device", str(self.tmp / "a" / "log"))
        err = io.StringIO()
        with contextlib.redirect_stderr(err):
            rc = proc.guarded("demagic", body, "")
        self.assertEqual(rc, 1)
        (line,) = err.getvalue().splitlines()
        self.assertRegex(line, r"^demagic: the disk is full: cannot write .*/a/log "
                         r"\(\d+ MiB left on its file system\); free some space")

    def test_any_other_os_error_keeps_its_traceback(self) -> None:
        def body() -> int:
            raise OSError(errno.EACCES, "Permission denied", "x")
        with self.assertRaises(PermissionError):
            proc.guarded("demagic", body, "")


class OverlapTest(TreeCase):
    def test_a_second_run_waits_for_the_first(self) -> None:
        (self.build / "locks").mkdir(parents=True)
        holder = subprocess.Popen([sys.executable, "-c", (
            "import fcntl, os, sys, time\n"
            f"fd = os.open({str(self.build / 'locks' / 'linux.lock')!r}, os.O_RDWR | os.O_CREAT)\n"
            "fcntl.flock(fd, fcntl.LOCK_EX)\n"
            "os.pwrite(fd, b'demagic make spatch (pid 1)', 0)\n"
            "print('held', flush=True)\ntime.sleep(1.5)\n")], stdout=subprocess.PIPE, text=True)
        self.assertEqual(holder.stdout.readline().strip(), "held") if holder.stdout else None
        said = []
        progress = Progress(quiet=True)
        progress.step = said.append   # type: ignore[method-assign]
        start = time.monotonic()
        with lock.holding("linux", "make verify", progress):
            waited = time.monotonic() - start
        holder.wait()
        if holder.stdout:
            holder.stdout.close()
        self.assertGreater(waited, 0.5)
        self.assertEqual(len(said), 1)
        self.assertIn("demagic make spatch (pid 1) is using linux", said[0])


class ReadsBesideWritesTest(TreeCase):
    """A read of the pristine copy goes on beside a run that writes the work copy; a run
    that must make the copy again waits until the reads of the old one end."""

    def hold(self, script: str) -> "subprocess.Popen[str]":
        """A process that holds locks as script says, until its stdin closes."""
        (self.build / "locks").mkdir(parents=True, exist_ok=True)
        proc = subprocess.Popen([sys.executable, "-c", (
            "import fcntl, os, sys\n"
            f"locks = {str(self.build / 'locks')!r}\n"
            "def take(name, mode):\n"
            "    fd = os.open(os.path.join(locks, name), os.O_RDWR | os.O_CREAT)\n"
            "    fcntl.flock(fd, mode)\n"
            "    os.pwrite(fd, b'demagic boot-test run (pid 1)', 0)\n"
            f"{script}\n"
            "print('held', flush=True)\nsys.stdin.read()\n")],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        assert proc.stdout is not None
        self.assertEqual(proc.stdout.readline().strip(), "held")
        return proc

    def release(self, proc: "subprocess.Popen[str]") -> None:
        for stream in (proc.stdin, proc.stdout):
            if stream:
                stream.close()
        proc.wait()

    def test_a_read_does_not_wait_for_a_write(self) -> None:
        kdir = self.user_tree()
        trees.pristine(kdir, QUIET)                       # the copy is ready
        writer = self.hold("take('linux.tree.lock', fcntl.LOCK_SH)\n"
                           "take('linux.lock', fcntl.LOCK_EX)")
        said: list = []
        progress = Progress(quiet=True)
        # a read that waited would be let go here, and fail below rather than hang
        progress.step = lambda line: (said.append(line), self.release(writer))  # type: ignore
        with trees.opened(kdir, "linux", "make scan", progress, work=False) as tree:
            self.assertTrue((tree.repo / "Makefile").is_file())
        self.assertEqual(said, [])
        self.release(writer)

    def test_a_write_waits_for_a_write_and_says_whose_turn(self) -> None:
        kdir = self.user_tree()
        trees.pristine(kdir, QUIET)
        writer = self.hold("take('linux.tree.lock', fcntl.LOCK_SH)\n"
                           "take('linux.lock', fcntl.LOCK_EX)")
        said: list = []
        progress = Progress(quiet=True)
        progress.step = lambda line: (said.append(line), self.release(writer))  # type: ignore
        with trees.opened(kdir, "linux", "make verify", progress):
            pass
        self.assertEqual(len(said), 1)
        self.assertIn("demagic boot-test run (pid 1) is using linux", said[0])

    def test_a_copy_made_again_waits_for_the_reads_of_the_old_one(self) -> None:
        kdir = self.user_tree()
        trees.pristine(kdir, QUIET)
        commit(kdir, "drivers/foo/foo.c", "int foo2;\n")      # the copy is now stale
        reader = self.hold("take('linux.tree.lock', fcntl.LOCK_SH)")
        said: list = []
        progress = Progress(quiet=True)
        progress.step = lambda line: (said.append(line), self.release(reader)  # type: ignore
                                      if "waiting" in line else None)
        with trees.opened(kdir, "linux", "make scan", progress, work=False) as tree:
            self.assertEqual((tree.repo / "drivers/foo/foo.c").read_text(), "int foo2;\n")
        waits = [line for line in said if "waiting" in line]
        self.assertEqual(len(waits), 1)
        self.assertIn("is using the pristine copy of linux", waits[0])


class InterruptTest(unittest.TestCase):
    def test_an_interrupt_leaves_no_process_behind(self) -> None:
        with tempfile.TemporaryDirectory() as tmp:
            pidfile = Path(tmp) / "pid"
            # a shell's background job starts with SIGINT ignored: take it as a terminal would
            previous = signal.signal(signal.SIGINT, signal.default_int_handler)
            self.addCleanup(signal.signal, signal.SIGINT, previous)
            timer = threading.Timer(0.5, lambda: os.kill(os.getpid(), signal.SIGINT))
            timer.start()
            with self.assertRaises(KeyboardInterrupt):
                run(["bash", "-c", f"sleep 60 & echo $! > {pidfile}; wait"])
            grandchild = int(pidfile.read_text())
            time.sleep(0.2)
            state = Path(f"/proc/{grandchild}/stat")
            alive = state.exists() and state.read_text().split()[2] != "Z"
            self.assertFalse(alive, "the grandchild of an interrupted run is still running")


if __name__ == "__main__":
    unittest.main()


class WorktreeSeriesTest(TreeCase):
    """A series is applied to a worktree whole, or the patch that does not apply is named."""

    def series(self, kdir: Path, break_at: int = 0) -> Path:
        dev = self.tmp / "dev"
        run(["git", "clone", "-q", str(kdir), str(dev)])
        for n, text in enumerate(["int foo = 1;\n", "int foo = 2;\n", "int foo = 3;\n"], 1):
            commit(dev, "drivers/foo/foo.c", text)
        out = self.tmp / "series"
        run(["git", "-C", str(dev), "format-patch", "-q", "-o", str(out), "HEAD~3"])
        if break_at:
            patch = sorted(out.glob(f"{break_at:04d}-*.patch"))[0]
            patch.write_text(patch.read_text().replace(f"-int foo = {break_at - 1};",
                                                       "-int foo = 9;"))
        return Series.load(out)

    def test_the_whole_series_applies(self) -> None:
        kdir = self.user_tree()
        t = trees.pristine(kdir, QUIET)
        series_dir = self.series(kdir)
        work = trees.worktree(t, series_dir)
        self.assertEqual((work / "drivers/foo/foo.c").read_text(), "int foo = 3;\n")
        self.assertEqual(run(["git", "-C", str(work), "rev-list", "--count", f"{t.base}..HEAD"])
                         .stdout.strip(), "3")
        work = trees.worktree(t, series_dir, upto=1)
        self.assertEqual((work / "drivers/foo/foo.c").read_text(), "int foo = 1;\n")

    def test_the_patch_that_does_not_apply_is_named(self) -> None:
        kdir = self.user_tree()
        t = trees.pristine(kdir, QUIET)
        series_dir = self.series(kdir, break_at=2)
        with self.assertRaisesRegex(DemagicError, r"^0002-more\.patch: does not apply to linux$"):
            trees.worktree(t, series_dir)
        # the worktree is left usable: the next run applies what it is given
        work = trees.worktree(t, series_dir, upto=1)
        self.assertEqual((work / "drivers/foo/foo.c").read_text(), "int foo = 1;\n")

    def test_one_work_copy_per_tree_replaces_the_copies_of_each_command(self) -> None:
        kdir = self.user_tree()
        t = trees.pristine(kdir, QUIET)
        old = paths.BUILD / "work" / t.name / "verify"
        old.parent.mkdir(parents=True)
        run(["git", "-C", str(t.repo), "worktree", "add", "-q", "--detach", str(old), t.base])
        series_dir = self.series(kdir)
        work = trees.worktree(t, series_dir)
        self.assertEqual(work, paths.BUILD / "work" / t.name)
        self.assertFalse(old.exists())
        listed = run(["git", "-C", str(t.repo), "worktree", "list", "--porcelain"]).stdout
        self.assertEqual([l.split(" ", 1)[1] for l in listed.splitlines()
                          if l.startswith("worktree ")], [str(t.repo), str(work)])
        # the next command finds it pristine, whatever the last one left
        (work / "drivers/foo/stray.o").write_text("")
        self.assertEqual(trees.worktree(t), work)
        self.assertEqual((work / "drivers/foo/foo.c").read_text(), "int foo;\n")
        self.assertFalse((work / "drivers/foo/stray.o").exists())
