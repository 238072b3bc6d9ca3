# SPDX-License-Identifier: GPL-2.0
"""Where code lives: the architectures verify builds on, and which one builds an object."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import List, Tuple

from demagic.kernel.build import Arch

CONFIGS = Path(__file__).resolve().parent / "configs"


@dataclass(frozen=True)
class Target(Arch):
    """One build target: an architecture, its defconfig and the project's fragment."""
    defconfig: str = ""
    # (file, old, new) edits verify commits in its own worktree before the series,
    # because the architecture wants a compiler older than Debian ships.
    lifts: Tuple[Tuple[str, str, str], ...] = ()

    def fragments(self) -> List[Path]:
        return [CONFIGS / "common.config", CONFIGS / f"{self.name}.config"]


# In the order verify tries them for code outside arch/: the first that builds it wins.
ARCHES: Tuple[Target, ...] = (
    Target("x86_64", "x86_64", "x86", "", "x86_64_defconfig"),
    Target("i386", "i386", "x86", "", "i386_defconfig"),
    # RiscPC (the only ARCH_ACORN machine) wants gcc < 9.1, the last with ARMv3: its
    # bus has no halfword access, so even the StrongARM is built -march=armv3m.  For
    # this compile test (objects never run) verify lifts the gate and builds ARMv4.
    Target("arm", "arm", "arm", "arm-linux-gnueabi-", "rpc_defconfig", (
        ("arch/arm/mach-rpc/Kconfig",
         "\tdepends on !CC_IS_CLANG && GCC_VERSION < 90100 && GCC_VERSION >= 60000\n", ""),
        ("arch/arm/Makefile", "=-D__LINUX_ARM_ARCH__=3 -march=armv3m\n",
         "=-D__LINUX_ARM_ARCH__=3 -march=armv4\n"),
        # newer trees set -march on a line of its own
        ("arch/arm/Makefile", ":=-march=armv3m\n", ":=-march=armv4\n"))),
    Target("parisc", "parisc", "parisc", "hppa-linux-gnu-", "generic-32bit_defconfig"),
    Target("mips", "mips", "mips", "mips64-linux-gnuabi64-", "ip27_defconfig"),
    # Tegra's clock drivers (ARCH_TEGRA) are built only for ARM machines.
    Target("tegra", "arm", "arm", "arm-linux-gnueabi-", "tegra_defconfig"),
)


def by_name(name: str) -> Target:
    for arch in ARCHES:
        if arch.name == name:
            return arch
    raise KeyError(name)


def candidates(path: str) -> List[Target]:
    """The architectures that may build path: its own under arch/, else all in order."""
    parts = path.split("/")
    if parts[0] == "arch" and len(parts) > 1:
        return [a for a in ARCHES if a.srcarch == parts[1]]
    return list(ARCHES)
