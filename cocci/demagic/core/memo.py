# SPDX-License-Identifier: GPL-2.0
"""Results kept by the exact content they were made from, under build/cache/<kind>/.

An entry's name is a digest of everything its result depends on (a commit's
content, a file's bytes, a rule's text, a tool's version), so a changed input
is a different name and misses: nothing is ever invalidated, only not found.
An entry is written to a temporary name and renamed, so a run that is
interrupted, or one beside it, never sees half of one.  $DEMAGIC_CACHE moves
the whole cache (make bench times runs with an empty one).
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import os
import pickle
import shutil
import tempfile
import zlib
from pathlib import Path
from typing import Iterator, List, Optional, Type, TypeVar, Union

from demagic.core.files import write_atomic
from demagic.core.proc import run
from demagic.core import paths


def root() -> Path:
    return Path(os.environ.get("DEMAGIC_CACHE") or paths.BUILD / "cache")


@contextlib.contextmanager
def isolated() -> Iterator[None]:
    """An empty cache of its own while it lasts, removed after: the test runners, so that
    every case runs the tools themselves."""
    before = os.environ.get("DEMAGIC_CACHE")
    where = tempfile.mkdtemp(prefix="demagic-cache.")
    os.environ["DEMAGIC_CACHE"] = where
    try:
        yield
    finally:
        if before is None:
            os.environ.pop("DEMAGIC_CACHE", None)
        else:
            os.environ["DEMAGIC_CACHE"] = before
        shutil.rmtree(where, ignore_errors=True)


def directory(kind: str) -> Path:
    return root() / kind


def key(*parts: Union[str, bytes]) -> str:
    """A digest of parts, each length-prefixed so that no two lists of parts collide."""
    digest = hashlib.sha256()
    for part in parts:
        data = part.encode() if isinstance(part, str) else part
        digest.update(b"%d:" % len(data))
        digest.update(data)
    return digest.hexdigest()


def get(kind: str, name: str) -> Optional[bytes]:
    """The entry kind/name, or None (absent or damaged)."""
    try:
        return zlib.decompress((directory(kind) / name).read_bytes())
    except (OSError, zlib.error):
        return None


def put(kind: str, name: str, data: bytes) -> None:
    write_atomic(directory(kind) / name, zlib.compress(data, 1))


T = TypeVar("T")


def get_object(kind: str, name: str, cls: Type[T]) -> Optional[T]:
    """The entry kind/name as the object of class cls put_object kept, or None (absent,
    damaged, or made by code whose classes have changed)."""
    data = get(kind, name)
    if data is None:
        return None
    try:
        found = pickle.loads(data)
    except (pickle.UnpicklingError, EOFError, AttributeError, ImportError, TypeError):
        return None
    return found if isinstance(found, cls) else None


def put_object(kind: str, name: str, obj: object) -> None:
    put(kind, name, pickle.dumps(obj))


def spatch_inputs(root: Path) -> List[str]:
    """What any spatch run in root depends on besides its rule, options and files:
    spatch's version and the tree's .cocciconfig."""
    config = root / ".cocciconfig"
    return [version("spatch", "--version"),
            config.read_text(errors="replace") if config.exists() else ""]


@functools.lru_cache(maxsize=None)
def version(*argv: str) -> str:
    """What a tool says of its version (argv asks it), for the names of its results."""
    return run(list(argv)).stdout
