# SPDX-License-Identifier: GPL-2.0
"""Kernel build directories: the architecture a build is for, and the one way demagic
configures a .config (verify's per-object builds and the boot suite's kernels).

A .config is a base target (defconfig, tinyconfig), a fragment merged onto it
with the tree's merge_config.sh, and olddefconfig; then every setting that was
asked for must be in the final .config (KUnit's validate_config), or the
build is refused, naming what Kconfig dropped.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Dict

from demagic.core.errors import DemagicError
from demagic.core.proc import run
from demagic.kernel import kconfig


class BuildError(DemagicError):
    """A build directory could not be configured, or a kernel, a module or an object did
    not build."""


@dataclass(frozen=True)
class Arch:
    """An architecture as kbuild sees it: its name here, ARCH=, its arch/ directory and
    the cross prefix of Debian's compiler for it ("" for the host's)."""
    name: str
    karch: str
    srcarch: str
    cross: str = ""

    def compiler(self) -> str:
        return f"{self.cross}gcc"

    def linker(self) -> str:
        return f"{self.cross}ld"


def configure(src: Path, out: Path, arch: Arch, make: Callable[[str], None], base: str,
              fragment: Path, wanted: Dict[str, str]) -> Dict[str, str]:
    """The .config of out from base and fragment (see the module's text), checked against
    wanted; make(target) runs one make target in out.  Returns the .config's settings."""
    out.mkdir(parents=True, exist_ok=True)
    make(base)
    run([str(src / "scripts/kconfig/merge_config.sh"), "-m", "-O", str(out),
         str(out / ".config"), str(fragment)],
        cwd=src, env={"ARCH": arch.karch, "CROSS_COMPILE": arch.cross})
    make("olddefconfig")
    return checked(arch, out, wanted)


def checked(arch: Arch, out: Path, wanted: Dict[str, str]) -> Dict[str, str]:
    """The settings of out's .config, when it has every one of wanted; else BuildError."""
    config = kconfig.parse((out / ".config").read_text(), str(out / ".config"))
    missing = kconfig.dropped(wanted, config)
    if missing:
        raise BuildError(f"{arch.name}: Kconfig dropped {len(missing)} requested option(s) "
                         f"from {out / '.config'}: {', '.join(missing)}")
    return config
