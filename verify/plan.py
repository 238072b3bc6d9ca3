# SPDX-License-Identifier: GPL-2.0
"""Which objects prove a patch, and on which architecture each is built."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Dict, List, Sequence, Tuple

from demagic.core.proc import run
from demagic.kernel.kbuild import enabled, object_of
from verify.targets import Target, candidates
from demagic.model.patches import Patch

# A header-only patch is proved by this many of the sources that include it.
INCLUDERS = 3


@dataclass
class ObjectPlan:
    """The objects of one patch, by architecture, and those no architecture builds."""
    objects: Dict[str, List[str]] = field(default_factory=dict)   # arch name -> objects
    configured_out: List[str] = field(default_factory=list)       # "obj: why"
    sources: List[str] = field(default_factory=list)               # what the patch builds from

    def all(self) -> List[Tuple[str, str]]:
        return [(arch, obj) for arch, objs in self.objects.items() for obj in objs]


def includers(wt: Path, header: str, limit: int = INCLUDERS) -> List[str]:
    """Up to limit C sources that #include header, nearest to it first."""
    base = header.split("/")[-1]
    res = run(["git", "-C", str(wt), "grep", "-l", "-E",
               rf"#\s*include\s*[<\"]([^>\"]*/)?{base.replace('.', '[.]')}[>\"]", "--", "*.c"],
              check=False)
    found = res.stdout.split()
    parts = header.split("/")
    include_path = "/".join(parts[parts.index("include") + 1:]) if "include" in parts else base

    def affinity(src: str) -> Tuple[int, str]:
        text = (wt / src).read_text(errors="replace")
        named = include_path in text
        near = src.startswith("/".join(parts[:-1]) + "/")
        same_arch = parts[0] != "arch" or src.startswith("/".join(parts[:2]) + "/")
        return (0 if near else 1 if (named and same_arch) else 2 if named else 3, src)

    ranked = sorted(found, key=affinity)
    return [src for src in ranked if affinity(src)[0] < 3][:limit]


def sources_of(wt: Path, patch: Patch) -> List[str]:
    """The C and assembly files the patch touches, or includers of its headers."""
    direct = [f.path for f in patch.files if object_of(f.path) and not f.deleted]
    if direct:
        return direct
    out: List[str] = []
    for fdiff in patch.files:
        if fdiff.path.endswith(".h") and not fdiff.deleted:
            out += [s for s in includers(wt, fdiff.path) if s not in out]
    return out


def plan(wt: Path, patch: Patch, config_of: Callable[[Target], Dict[str, str]]) -> ObjectPlan:
    """Each source's object on the first candidate architecture whose .config builds it."""
    result = ObjectPlan(sources=sources_of(wt, patch))
    for src in result.sources:
        obj = object_of(src)
        assert obj is not None
        reasons = []
        for arch in candidates(src):
            ok, why = enabled(wt, obj, config_of(arch))
            if ok:
                result.objects.setdefault(arch.name, []).append(obj)
                break
            reasons.append(f"{arch.name}: {why}")
        else:
            result.configured_out.append(f"{obj}: configured out ({'; '.join(reasons)})")
    return result


def union(plans: Sequence[ObjectPlan]) -> Dict[str, List[str]]:
    out: Dict[str, List[str]] = {}
    for item in plans:
        for arch, objs in item.objects.items():
            have = out.setdefault(arch, [])
            have += [o for o in objs if o not in have]
    return out
