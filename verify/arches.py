# SPDX-License-Identifier: GPL-2.0
"""Where code lives: the architectures verify builds on, and which one builds an object."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Dict, List, Optional, Sequence, Tuple

from demagic import kconfig

CONFIGS = Path(__file__).resolve().parent / "configs"


@dataclass(frozen=True)
class Arch:
    """One build target: kbuild ARCH, cross prefix, defconfig and the project's fragment."""
    name: str
    karch: str
    srcarch: str
    cross: str
    defconfig: str
    # (file, old, new) edits verify commits in its own worktree before the series,
    # because the architecture wants a compiler older than Debian ships.
    lifts: Tuple[Tuple[str, str, str], ...] = ()

    def fragments(self) -> List[Path]:
        return [CONFIGS / "common.config", CONFIGS / f"{self.name}.config"]

    def compiler(self) -> str:
        return f"{self.cross}gcc"

    def linker(self) -> str:
        return f"{self.cross}ld"


# In the order verify tries them for code outside arch/: the first that builds it wins.
ARCHES: Tuple[Arch, ...] = (
    Arch("x86_64", "x86_64", "x86", "", "x86_64_defconfig"),
    Arch("i386", "i386", "x86", "", "i386_defconfig"),
    # RiscPC (the only ARCH_ACORN machine) wants gcc < 9.1, the last with ARMv3: its
    # bus has no halfword access, so even the StrongARM is built -march=armv3m.  For
    # this compile test (objects never run) verify lifts the gate and builds ARMv4.
    Arch("arm", "arm", "arm", "arm-linux-gnueabi-", "rpc_defconfig", (
        ("arch/arm/mach-rpc/Kconfig",
         "\tdepends on !CC_IS_CLANG && GCC_VERSION < 90100 && GCC_VERSION >= 60000\n", ""),
        ("arch/arm/Makefile", "=-D__LINUX_ARM_ARCH__=3 -march=armv3m\n",
         "=-D__LINUX_ARM_ARCH__=3 -march=armv4\n"),
        # newer trees set -march on a line of its own
        ("arch/arm/Makefile", ":=-march=armv3m\n", ":=-march=armv4\n"))),
    Arch("parisc", "parisc", "parisc", "hppa-linux-gnu-", "generic-32bit_defconfig"),
    Arch("mips", "mips", "mips", "mips64-linux-gnuabi64-", "ip27_defconfig"),
    # Tegra's clock drivers (ARCH_TEGRA) are built only for ARM machines.
    Arch("tegra", "arm", "arm", "arm-linux-gnueabi-", "tegra_defconfig"),
)

ASSIGN_RE = re.compile(r"^\s*([A-Za-z0-9_.-]+?)-(y|m|objs|\$\((CONFIG_[A-Za-z0-9_]+)\))"
                       r"\s*[:+]?=\s*(.*)$")
FRAGMENT_RE = re.compile(r"^(CONFIG_[A-Za-z0-9_]+)=(.*)$|^# (CONFIG_[A-Za-z0-9_]+) is not set$")
KBUILD_FILES = ("Kbuild", "Makefile", "Kbuild.platforms")
# Variables that name objects and directories to build (all other X-y are composites).
BUILD_VARS = ("obj", "lib", "platform", "core", "drivers", "libs-y")


def by_name(name: str) -> Arch:
    for arch in ARCHES:
        if arch.name == name:
            return arch
    raise KeyError(name)


def candidates(path: str) -> List[Arch]:
    """The architectures that may build path: its own under arch/, else all in order."""
    parts = path.split("/")
    if parts[0] == "arch" and len(parts) > 1:
        return [a for a in ARCHES if a.srcarch == parts[1]]
    return list(ARCHES)


def object_of(path: str) -> Optional[str]:
    """The object kbuild makes from a C or assembly source, else None."""
    for suffix in (".c", ".S"):
        if path.endswith(suffix):
            return path[: -len(suffix)] + ".o"
    return None


def parse_config(text: str) -> Dict[str, str]:
    """CONFIG_FOO -> value ('n' for '# ... is not set') of a .config or a fragment."""
    return kconfig.parse(text)


def config_missing(fragment: Dict[str, str], config: Dict[str, str]) -> List[str]:
    """Fragment settings that the final .config does not have (the subset check)."""
    return kconfig.dropped(fragment, config)


# obj-$(subst y,$(CONFIG_A),$(CONFIG_B)): built as A is (y or m) when B is set; the
# directory's own gate already needs A, so B decides.
SUBST_RE = re.compile(r"\$\(subst y,\$\((CONFIG_\w+)\),\$\((CONFIG_\w+)\)\)")


def _kbuild_lines(directory: Path) -> List[str]:
    lines: List[str] = []
    for name in KBUILD_FILES:
        path = directory / name
        if path.is_file():
            text = path.read_text(errors="replace").replace("\\\n", " ")
            lines.extend(SUBST_RE.sub(r"$(\2)", text).splitlines())
    return lines


def _gates(lines: Sequence[str], target: str) -> Tuple[bool, List[List[str]]]:
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
            sub_found, sub = _gates(lines, f"{var}.o")
            if sub_found:
                found = True
                alternatives.extend(need + alt for alt in sub)
    return found, alternatives


def enabled(src: Path, obj: str, config: Dict[str, str]) -> Tuple[bool, str]:
    """Whether the .config builds obj, walking up its directories; (answer, why not)."""
    parts = obj.split("/")
    for depth in range(len(parts) - 1, 0, -1):
        directory = src.joinpath(*parts[:depth])
        target = parts[depth] if depth == len(parts) - 1 else parts[depth] + "/"
        found, alternatives = _gates(_kbuild_lines(directory), target)
        if not found:
            if depth == len(parts) - 1:
                return False, f"{obj}: not named in {'/'.join(parts[:depth])}/Makefile"
            continue
        if not any(all(config.get(sym, "n") in ("y", "m") for sym in alt)
                   for alt in alternatives):
            syms = sorted({s for alt in alternatives for s in alt})
            return False, f"{'/'.join(parts[:depth + 1])}: needs {' or '.join(syms)}"
    return True, ""
