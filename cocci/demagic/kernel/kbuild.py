# SPDX-License-Identifier: GPL-2.0
"""How kbuild pulls an object in: the CONFIG_ symbols each directory's Makefile gates it on,
and the module it is linked into.  verify (which arch builds an object) and the boot suite
(which module to load, which symbols to set) read Makefiles through it."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Dict, List, Optional, Sequence, Tuple

ASSIGN_RE = re.compile(r"^\s*([A-Za-z0-9_.-]+?)-(y|m|objs|\$\((CONFIG_[A-Za-z0-9_]+)\))"
                       r"\s*[:+]?=\s*(.*)$")
KBUILD_FILES = ("Kbuild", "Makefile", "Kbuild.platforms")
# Variables that name objects and directories to build (all other X-y are composites).
BUILD_VARS = ("obj", "lib", "platform", "core", "drivers", "libs-y")
# obj-$(subst y,$(CONFIG_A),$(CONFIG_B)): built as A is (y or m) when B is set; the
# directory's own gate already needs A, so B decides.
SUBST_RE = re.compile(r"\$\(subst y,\$\((CONFIG_\w+)\),\$\((CONFIG_\w+)\)\)")


def object_of(path: str) -> Optional[str]:
    """The object kbuild makes from a C or assembly source, else None."""
    for suffix in (".c", ".S"):
        if path.endswith(suffix):
            return path[: -len(suffix)] + ".o"
    return None


def kbuild_lines(directory: Path) -> List[str]:
    lines: List[str] = []
    for name in KBUILD_FILES:
        path = directory / name
        if path.is_file():
            text = path.read_text(errors="replace").replace("\\\n", " ")
            lines.extend(SUBST_RE.sub(r"$(\2)", text).splitlines())
    return lines


def gates(lines: Sequence[str], target: str) -> Tuple[bool, List[List[str]]]:
    """How target is pulled in by these kbuild lines: (found, alternatives of AND-lists).

    An empty AND-list means unconditionally (obj-y); composites are followed.
    """
    found = False
    alternatives: List[List[str]] = []
    for line in lines:
        match = ASSIGN_RE.match(line)
        if not match or target not in match.group(4).split():
            continue
        var, cond = match.group(1), match.group(3)
        need = [cond] if cond else []
        if var in BUILD_VARS or var.endswith("obj"):
            found = True
            alternatives.append(need)
        elif not var.startswith(("ccflags", "CFLAGS", "asflags", "subdir", "extra", "always")):
            sub_found, sub = gates(lines, f"{var}.o")
            if sub_found:
                found = True
                alternatives.extend(need + alt for alt in sub)
    return found, alternatives


@dataclass(frozen=True)
class Level:
    """One directory's say on an object: its path there and the AND-lists that build it."""
    path: str
    alternatives: Tuple[Tuple[str, ...], ...]


def levels(src: Path, obj: str) -> Optional[List[Level]]:
    """The gates on obj from its own Makefile up to the top; None when its Makefile does not
    name it.  A directory that does not name the next one down is skipped (arch Makefiles
    pull in their directories by other means)."""
    parts = obj.split("/")
    out: List[Level] = []
    for depth in range(len(parts) - 1, 0, -1):
        target = parts[depth] if depth == len(parts) - 1 else parts[depth] + "/"
        found, alternatives = gates(kbuild_lines(src.joinpath(*parts[:depth])), target)
        if not found:
            if depth == len(parts) - 1:
                return None
            continue
        out.append(Level("/".join(parts[:depth + 1]), tuple(tuple(a) for a in alternatives)))
    return out


def enabled(src: Path, obj: str, config: Dict[str, str]) -> Tuple[bool, str]:
    """Whether the .config builds obj, walking up its directories; (answer, why not)."""
    found = levels(src, obj)
    if found is None:
        return False, f"{obj}: not named in {obj.rsplit('/', 1)[0]}/Makefile"
    for level in found:
        if not any(all(config.get(sym, "n") in ("y", "m") for sym in alt)
                   for alt in level.alternatives):
            syms = sorted({s for alt in level.alternatives for s in alt})
            return False, f"{level.path}: needs {' or '.join(syms)}"
    return True, ""


def module_of(src: Path, obj: str) -> str:
    """The module name obj is linked into when built as a module: the composite that
    lists it (foo-y += bar.o gives foo), else its own stem."""
    directory, name = obj.rsplit("/", 1)
    for line in kbuild_lines(src / directory):
        match = ASSIGN_RE.match(line)
        if match and name in match.group(4).split():
            var = match.group(1)
            if var not in BUILD_VARS and not var.endswith("obj") and \
                    not var.startswith(("ccflags", "CFLAGS", "asflags", "subdir", "extra",
                                        "always")):
                return module_of(src, f"{directory}/{var}.o")
    return name[:-2].replace("-", "_")
