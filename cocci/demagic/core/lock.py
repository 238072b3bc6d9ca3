# SPDX-License-Identifier: GPL-2.0
"""One run at a time per tree: spatch, scan, verify, boot-test and check-mail share
build/trees/<tree>, its work copies and their build directories.

A second run on the same tree waits for the first, saying whose turn it
is; runs on different trees go side by side.  The lock is an flock on
build/locks/<tree>.lock, so it goes with its process however that ends.
"""

from __future__ import annotations

import fcntl
import os
from contextlib import contextmanager
from typing import Iterator, Optional

from demagic.core import paths
from demagic.core.proc import Progress


@contextmanager
def holding(name: str, what: str, progress: Optional[Progress] = None) -> Iterator[None]:
    """Hold the lock of tree name while the block runs (what: the command, for others)."""
    path = paths.BUILD / "locks" / f"{name}.lock"
    path.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = os.pread(fd, 200, 0).decode(errors="replace").strip() or "another run"
            (progress or Progress()).step(f"waiting: {holder} is using {name}; this run goes "
                                          "on when it ends")
            fcntl.flock(fd, fcntl.LOCK_EX)
        os.ftruncate(fd, 0)
        os.pwrite(fd, f"demagic {what} (pid {os.getpid()})\n".encode(), 0)
        yield
    finally:
        os.close(fd)
