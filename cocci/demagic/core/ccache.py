# SPDX-License-Identifier: GPL-2.0
"""The compiler cache every kernel build of demagic shares (verify's and the boot suite's).

It lives outside the repository, so that it outlives make clean and a fresh
clone: $DEMAGIC_CCACHE, else $XDG_CACHE_HOME/demagic/ccache, else
~/.cache/demagic/ccache.  ccache keys each compile on the preprocessed
source and the command line, so a hit gives the very object a compile would;
paths under build/ are hashed relative to it, so that two clones share it.

Depend mode: a miss compiles once and takes the included files from the
dependency file kbuild asks gcc for (-Wp,-MMD), instead of running the
preprocessor as well; a hit is looked up by the contents of the source and
of every file it included, as in direct mode.  On an empty cache that is
most of ccache's cost: compiling fs/proc and kernel/time of a 6.12 kernel
here took 88 CPU-seconds through ccache's default mode, 64 in depend mode
and 51 without ccache, and 19 again from the cache, giving the same objects.

The inode cache: ccache keeps each file's hash, keyed on its inode, size and
times, in a table every compile shares, so the few hundred headers each
object includes are hashed once per build instead of once per compile.  Three
cold compiles of fs/ and kernel/ of the 6.1 x86_64 kernel each way,
interleaved: without ccache 169 CPU-seconds, depend mode 180, depend mode with
the inode cache 167 (medians).
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path
from typing import Dict

from demagic.core import paths

MAXSIZE = "8G"


def directory() -> Path:
    if os.environ.get("DEMAGIC_CCACHE"):
        return Path(os.environ["DEMAGIC_CCACHE"])
    xdg = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(xdg) / "demagic" / "ccache"


def available() -> bool:
    return shutil.which("ccache") is not None


def env() -> Dict[str, str]:
    """The environment of a build through ccache ({} when it is not installed)."""
    if not available():
        return {}
    return {"CCACHE_DIR": str(directory()), "CCACHE_MAXSIZE": MAXSIZE,
            "CCACHE_BASEDIR": str(paths.BUILD.resolve()), "CCACHE_NOHASHDIR": "1",
            "CCACHE_DEPEND": "1", "CCACHE_INODECACHE": "1"}
