# SPDX-License-Identifier: GPL-2.0
"""Results of the build before the series, kept by content for re-runs.

The pristine tree never changes, so an object's W=1 diagnostics and the
pahole view of its structs, once taken, hold for as long as the pristine
commit, the architecture's defconfig and fragments, the compiler wrapper and
the compiler are the same: the key covers all of them.  A re-run reads them
instead of rebuilding the pristine objects.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any, Dict, Optional, Sequence, Set

from demagic.core.files import write_atomic
from demagic.core.proc import run
from verify.builddir import CCWRAP, BuildDir, Diagnostic, ObjectResult

NAME = "base-results.json"


def key(bdir: BuildDir, base: str) -> str:
    """What the pristine results depend on."""
    version = run([bdir.arch.compiler(), "--version"], check=False).stdout.splitlines()[:1]
    parts = [base, repr(bdir.arch), CCWRAP.read_text(), *version,
             *(p.read_text() for p in bdir.arch.fragments())]
    return hashlib.sha256("\0".join(parts).encode()).hexdigest()


def load(bdir: BuildDir, base: str) -> Dict[str, Any]:
    """obj -> {"ok", "diagnostics", "pahole": {struct: text or None}}, for this key only."""
    try:
        data = json.loads((bdir.out / NAME).read_text())
    except (OSError, ValueError):
        return {}
    if not isinstance(data, dict) or data.get("key") != key(bdir, base):
        return {}
    objects = data.get("objects", {})
    return objects if isinstance(objects, dict) else {}


def usable(cache: Dict[str, Any], objects: Sequence[str], structs: Dict[str, Set[str]]) -> bool:
    """Every object is there, built fine, with every struct it must describe."""
    return all(obj in cache and cache[obj].get("ok") and
               structs.get(obj, set()) <= set(cache[obj].get("pahole", {}))
               for obj in objects)


def result(entry: Dict[str, Any], obj: str) -> ObjectResult:
    return ObjectResult(obj, bool(entry["ok"]),
                        [Diagnostic(d["file"], d["kind"], d["message"]) for d in entry["diagnostics"]])


def save(bdir: BuildDir, base: str, results: Dict[str, ObjectResult],
         shapes: Dict[str, Dict[str, Optional[str]]]) -> None:
    """Write the cache whole (a temporary file renamed), only results that built."""
    objects = {obj: {"ok": res.ok, "pahole": shapes.get(obj, {}),
                     "diagnostics": [{"file": d.file, "kind": d.kind, "message": d.message}
                                     for d in res.diagnostics]}
               for obj, res in results.items() if res.ok}
    write_atomic(bdir.out / NAME, json.dumps({"key": key(bdir, base), "objects": objects},
                                             indent=1))


def path_of(bdir: BuildDir) -> Path:
    return bdir.out / NAME
