# SPDX-License-Identifier: GPL-2.0
"""Kernel builds with O=: tinyconfig plus fragments, checked; image, modules, test module."""

from __future__ import annotations

import hashlib
import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import List, Sequence

from demagic.proc import CommandError, DemagicError, run
from qemu import kconfig
from qemu.archs import Arch

QEMU_DIR = Path(__file__).resolve().parent
CONFIGS = QEMU_DIR / "configs"
TEST_MODULES = QEMU_DIR / "modules"
BUILD_TIMEOUT = 3600.0


class BuildError(DemagicError):
    """A kernel, its modules or a test module did not build."""


@dataclass(frozen=True)
class Build:
    """What one kernel build produced."""
    arch: Arch
    out: Path        # O= directory
    image: Path
    modroot: Path    # INSTALL_MOD_PATH staging: lib/modules/<release>/...
    release: str


def _make(src: Path, out: Path, arch: Arch, *targets: str, jobs: int = 2,
          log: Path | None = None) -> None:
    argv = ["make", "-C", str(src), f"O={out}", f"ARCH={arch.kernel_arch}", f"-j{jobs}",
            *targets]
    try:
        res = run(argv, timeout=BUILD_TIMEOUT)
    except CommandError as exc:
        if log:
            log.write_text(exc.output)
        raise BuildError(f"{arch.name} {' '.join(targets)} in {out}: {exc}"
                         + (f" (log: {log})" if log else "")) from exc
    if log:
        log.write_text(res.stdout + res.stderr)


def fragments(arch: Arch) -> List[Path]:
    return [CONFIGS / name for name in arch.fragments]


def _fingerprint(paths: Sequence[Path], src: Path) -> str:
    digest = hashlib.sha256()
    for path in paths:
        digest.update(path.read_bytes())
    digest.update(str(src.resolve()).encode())
    return digest.hexdigest()


def configure(src: Path, out: Path, arch: Arch) -> None:
    """tinyconfig + fragments via merge_config.sh, then check nothing was dropped."""
    frags = fragments(arch)
    wanted = kconfig.requested(frags)
    stamp = out / ".demagic-config"
    config = out / ".config"
    key = _fingerprint(frags, src)
    if config.exists() and stamp.exists() and stamp.read_text().strip() == key:
        kconfig.check(wanted, config)
        return
    out.mkdir(parents=True, exist_ok=True)
    _make(src, out, arch, "tinyconfig")
    run([str(src / "scripts/kconfig/merge_config.sh"), "-m", "-O", str(out), str(config),
         *map(str, frags)], cwd=src, env={"ARCH": arch.kernel_arch})
    _make(src, out, arch, "olddefconfig")
    try:
        kconfig.check(wanted, config)
    except kconfig.ConfigError as exc:
        raise BuildError(str(exc)) from exc
    stamp.write_text(key + "\n")


def build(src: Path, out: Path, arch: Arch, jobs: int) -> Build:
    """Configure, build image and modules, stage the modules and the test modules."""
    configure(src, out, arch)
    _make(src, out, arch, "bzImage", "modules", jobs=jobs, log=out / "demagic-build.log")
    release = (out / "include/config/kernel.release").read_text().strip()
    modroot = out.parent / f"{out.name}-modroot"
    tmp = out.parent / f"{out.name}-modroot.tmp"
    shutil.rmtree(tmp, ignore_errors=True)
    _make(src, out, arch, "modules_install", f"INSTALL_MOD_PATH={tmp}", "INSTALL_MOD_STRIP=1",
          jobs=1)
    extra = tmp / "lib/modules/extra"
    extra.mkdir(parents=True)
    for ko in build_test_modules(src, out, arch, jobs):
        shutil.copy2(ko, extra / ko.name)
    shutil.rmtree(modroot, ignore_errors=True)
    tmp.rename(modroot)
    return Build(arch, out, out / arch.image, modroot, release)


def build_test_modules(src: Path, out: Path, arch: Arch, jobs: int) -> List[Path]:
    """Each directory under qemu/modules/, copied beside O= and built with M=."""
    built = []
    for moddir in sorted(p for p in TEST_MODULES.iterdir() if p.is_dir()):
        work = out.parent / f"{out.name}-{moddir.name}"
        work.mkdir(parents=True, exist_ok=True)
        for item in moddir.iterdir():
            dest = work / item.name
            if not dest.exists() or dest.read_bytes() != item.read_bytes():
                shutil.copy2(item, dest)
        _make(out, out, arch, f"M={work}", "modules", jobs=jobs)
        built.extend(sorted(work.glob("*.ko")))
    if not built:
        raise BuildError(f"no test module built under {TEST_MODULES}")
    return built
