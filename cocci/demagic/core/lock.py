# SPDX-License-Identifier: GPL-2.0
"""Runs side by side on one tree: reads beside anything, writes one at a time.

Each tree has two locks, flocks under build/locks/, so each goes with its
process however that ends:

- <tree>.tree.lock guards the pristine copy (build/trees/<tree>).  Every
  run holds it shared while it reads the copy, so a scan goes on beside a
  boot test; only a run that must make the copy again (its source changed)
  takes it alone, after the others are done.
- <tree>.lock guards the tree's work copy and build directories.  A run that
  writes there (spatch, verify, boot-test, check-mail) holds it alone; a
  second such run waits for the first, saying whose turn it is.

Runs on different trees never wait for each other.
"""

from __future__ import annotations

import fcntl
import os
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator, Optional

from demagic.core import paths
from demagic.core.proc import Progress


def _path(name: str) -> Path:
    path = paths.BUILD / "locks" / name
    path.parent.mkdir(parents=True, exist_ok=True)
    return path


def _take(fd: int, mode: int, name: str, progress: Optional[Progress]) -> None:
    """flock fd in mode, saying whose turn it is when it must wait."""
    try:
        fcntl.flock(fd, mode | fcntl.LOCK_NB)
    except BlockingIOError:
        holder = os.pread(fd, 200, 0).decode(errors="replace").strip() or "another run"
        (progress or Progress()).step(f"waiting: {holder} is using {name}; this run goes on "
                                      "when it ends")
        fcntl.flock(fd, mode)


def _sign(fd: int, what: str) -> None:
    os.ftruncate(fd, 0)
    os.pwrite(fd, f"demagic {what} (pid {os.getpid()})\n".encode(), 0)


@contextmanager
def holding(name: str, what: str, progress: Optional[Progress] = None) -> Iterator[None]:
    """Hold the work lock of tree name while the block runs (what: the command, for others)."""
    fd = os.open(_path(f"{name}.lock"), os.O_RDWR | os.O_CREAT, 0o644)
    try:
        _take(fd, fcntl.LOCK_EX, name, progress)
        _sign(fd, what)
        yield
    finally:
        os.close(fd)


class TreeLock:
    """The lock of a tree's pristine copy, held shared; exclusive() while it is made again."""

    def __init__(self, fd: int, name: str, what: str, progress: Optional[Progress]) -> None:
        self.fd, self.name, self.what, self.progress = fd, name, what, progress

    def shared(self) -> None:
        _take(self.fd, fcntl.LOCK_SH, f"the pristine copy of {self.name}", self.progress)

    def exclusive(self) -> None:
        """Alone: every other run that reads the copy has ended (flock lets the shared lock go
        first, so two runs that both want it alone do not wait for each other)."""
        _take(self.fd, fcntl.LOCK_EX, f"the pristine copy of {self.name}", self.progress)
        _sign(self.fd, self.what)


@contextmanager
def tree_lock(name: str, what: str, progress: Optional[Progress] = None) -> Iterator[TreeLock]:
    """Hold the lock of tree name's pristine copy, shared, while the block runs."""
    fd = os.open(_path(f"{name}.tree.lock"), os.O_RDWR | os.O_CREAT, 0o644)
    try:
        held = TreeLock(fd, name, what, progress)
        held.shared()
        yield held
    finally:
        os.close(fd)
