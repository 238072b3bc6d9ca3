# SPDX-License-Identifier: GPL-2.0
"""Files and directories written whole or not at all.

Each is written under a temporary name of its own (the process and thread in
it, so that runs side by side never share one) and renamed into place, so
that an interrupted run leaves the old one, and a reader beside it never
sees half of the new one.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import threading
from pathlib import Path
from typing import Iterator, Sequence, Union


def temporary(path: Path, suffix: str = "") -> Path:
    """A name beside path that no other run or thread uses."""
    return path.with_name(f".{path.name}.{os.getpid()}.{threading.get_ident()}{suffix}.tmp")


def write_atomic(path: Path, data: Union[str, bytes]) -> None:
    """Write path whole (its directory made first)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with replacing(path) as tmp:
        if isinstance(data, bytes):
            tmp.write_bytes(data)
        else:
            tmp.write_text(data)


@contextlib.contextmanager
def replacing(path: Path) -> Iterator[Path]:
    """A temporary file for a tool to write (gcc -o, an archive); renamed to path when the
    block ends, removed when it fails."""
    tmp = temporary(path)
    try:
        yield tmp
        os.replace(tmp, path)
    finally:
        tmp.unlink(missing_ok=True)


@contextlib.contextmanager
def replacing_dir(path: Path, keep: Sequence[str] = ()) -> Iterator[Path]:
    """A temporary directory to fill; it becomes path when the block ends (the old path
    removed, but for its files whose suffix is in keep and that the new one lacks), and
    is removed when the block fails."""
    tmp = temporary(path)
    shutil.rmtree(tmp, ignore_errors=True)
    tmp.mkdir(parents=True)
    try:
        yield tmp
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    swap_dir(tmp, path, keep)


def swap_dir(new: Path, path: Path, keep: Sequence[str] = ()) -> None:
    """Put the directory new in the place of path (see replacing_dir)."""
    if path.exists() and not path.is_dir():
        shutil.rmtree(new, ignore_errors=True)
        raise NotADirectoryError(f"{path}: not a directory")
    if path.exists():
        for old in path.iterdir():
            if old.suffix in keep and not (new / old.name).exists():
                shutil.copy2(old, new / old.name)
        trash = temporary(path, ".old")
        path.rename(trash)
        new.rename(path)
        shutil.rmtree(trash)
    else:
        path.parent.mkdir(parents=True, exist_ok=True)
        new.rename(path)
