# SPDX-License-Identifier: GPL-2.0
"""Kernel builds with O=: tinyconfig plus fragments, checked; image, modules, test module, kept per state."""

from __future__ import annotations

import functools
import hashlib
import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import List, Optional, Sequence, Tuple

from demagic.kernel.build import BuildError, checked as config_checked, configure as kconfigure
from demagic.core.files import replacing_dir
from demagic.model.series import Series
from demagic.core.proc import BATCH, CommandError, disk_full, run
from demagic.core import ccache
from demagic.kernel import kconfig
from qemu import probe, selftests
from qemu.machines import Machine, GuestTest

QEMU_DIR = Path(__file__).resolve().parent
CONFIGS = QEMU_DIR / "configs"
TEST_MODULES = QEMU_DIR / "modules"
BUILD_TIMEOUT = 3600.0
KEY_FILE = "inputs.sha256"
RELEASE_FILE = "release"
CCACHE_CC = "ccache gcc"   # with ccache installed every build goes through it (demagic.ccache)
TESTS_FILE = "tests"     # the guest tests whose Kconfig symbols this kernel has
KEPT_FORMAT = "2"        # what a kept kernel holds beside its image; a change rebuilds them


@dataclass(frozen=True)
class Build:
    """What one kernel build produced."""
    arch: Machine
    out: Path        # the kept copy: image, modroot/, release, inputs key
    image: Path
    modroot: Path    # INSTALL_MOD_PATH: lib/modules/<release>/...
    release: str
    tests: Tuple[GuestTest, ...] = ()   # the arch's tests this kernel can run

    def dropped(self) -> List[GuestTest]:
        """The arch's tests this kernel cannot run (the tree lacks their driver)."""
        return [t for t in self.arch.tests if t not in self.tests]


def _make(src: Path, out: Path, arch: Machine, *targets: str, jobs: int = 2,
          log: Path | None = None) -> None:
    argv = [*BATCH, "make", "-C", str(src), f"O={out}", f"ARCH={arch.karch}", f"-j{jobs}",
            *([f"CC={CCACHE_CC}"] if ccache.available() else []), *targets]
    try:
        res = run(argv, timeout=BUILD_TIMEOUT, env=ccache.env())
    except CommandError as exc:
        where = ""
        if log:
            try:
                log.write_text(exc.output)
                where = f" (log: {log})"
            except OSError as err:
                if disk_full(err) is None:
                    raise
                where = f" (the disk had no room for its log {log})"
        raise BuildError(f"{arch.name} {' '.join(targets)} in {out}: {exc}{where}") from exc
    if log:
        log.write_text(res.stdout + res.stderr)


def fragments(arch: Machine) -> List[Path]:
    """The arch's own fragments, then those of its tests, in order, each once."""
    names = [*arch.fragments, *(t.config for t in arch.tests if t.config)]
    return [CONFIGS / name for name in dict.fromkeys(names)]


def test_modules(arch: Machine) -> List[Path]:
    """The directories under modules/ of the test modules the arch's tests load."""
    return [TEST_MODULES / name for name in dict.fromkeys(m for t in arch.tests for m in t.modules)]


def _fingerprint(paths: Sequence[Path], src: Path) -> str:
    digest = hashlib.sha256()
    for path in paths:
        digest.update(path.read_bytes())
    digest.update(str(src.resolve()).encode())
    return digest.hexdigest()


def configure(src: Path, out: Path, arch: Machine, probe_fragment: Optional[Path] = None) -> List[str]:
    """tinyconfig + fragments via merge_config.sh, then check nothing was dropped.

    Settings of symbols the tree does not declare (a driver it no longer has)
    are left out first; their names are returned.  The probe's fragment comes
    last and may turn on what the arch's fragments only keep off; what of it
    Kconfig keeps is read back by the probe, not checked here."""
    frags = fragments(arch)
    extra = [probe_fragment] if probe_fragment is not None else []
    stamp = out / ".demagic-config"
    config = out / ".config"
    fitted = out / "demagic.fragment"
    checked = out / "demagic.checked"
    key = _fingerprint(frags + extra, src)
    if config.exists() and stamp.exists() and stamp.read_text().strip() == key and \
            checked.exists():
        config_checked(arch, out, kconfig.parse(checked.read_text(), str(checked)))
        return []
    out.mkdir(parents=True, exist_ok=True)
    wanted, left_out = kconfig.fit(src, frags, fitted)
    probe = kconfig.requested(extra)
    merged = {**wanted, **{k: v for k, v in probe.items() if wanted.get(k, "n") == "n"}}
    hard = {k: v for k, v in wanted.items() if merged[k] == v}
    fitted.write_text(kconfig.render(merged))
    checked.write_text(kconfig.render(hard))
    kconfigure(src, out, arch, lambda target: _make(src, out, arch, target), "tinyconfig",
               fitted, hard)
    stamp.write_text(key + "\n")
    return left_out


def inputs_key(base: str, series: Optional[Series], arch: Machine,
               probe_fragment: Optional[Path] = None) -> str:
    """What a kernel build depends on: tree commit, series, fragments (the probe's too),
    test modules, compiler."""
    digest = hashlib.sha256(f"{KEPT_FORMAT}\0{arch.name}\0{base}\0".encode())
    patches = series.paths if series is not None else []
    inputs = [*patches, *fragments(arch), *([probe_fragment] if probe_fragment else []),
              *sorted(p for d in test_modules(arch) for p in d.rglob("*") if p.is_file())]
    for path in inputs:
        digest.update(path.name.encode() + b"\0" + path.read_bytes())
    digest.update(_compiler().encode())
    return digest.hexdigest()


@functools.lru_cache(maxsize=None)
def _compiler() -> str:
    return run(["gcc", "--version"]).stdout


def snapshot(arch: Machine, dest: Path) -> Build:
    """The Build kept in dest by build()."""
    release = dest / RELEASE_FILE
    listed = (dest / TESTS_FILE).read_text().split() if (dest / TESTS_FILE).exists() else None
    tests = tuple(t for t in arch.tests if listed is None or t.name in listed)
    probe_test = probe.guest_test(probe.read_list(dest / probe.LIST))
    if probe_test is not None:
        tests = (probe_test,) + tests     # first: no other test has loaded its modules
    own = selftests.guest_test(selftests.read_list(dest / selftests.LIST))
    if own is not None:
        tests += (own,)
    return Build(arch, dest, dest / Path(arch.image).name, dest / "modroot",
                 release.read_text().strip() if release.exists() else "", tests)


def runnable(arch: Machine, config: Path) -> List[GuestTest]:
    """The arch's tests whose Kconfig symbols the final .config has (y or m)."""
    final = kconfig.parse(config.read_text(), str(config))
    return [t for t in arch.tests if all(final.get(s, "n") in ("y", "m") for s in t.symbols)]


def cached(arch: Machine, dest: Path, key: str) -> Optional[Build]:
    """dest's Build if it was made from exactly these inputs."""
    stamp = dest / KEY_FILE
    if stamp.is_file() and stamp.read_text().strip() == key:
        return snapshot(arch, dest)
    return None


def build(src: Path, out: Path, arch: Machine, jobs: int, dest: Path, key: str,
          plan: Optional[probe.Plan] = None, probe_fragment: Optional[Path] = None) -> Build:
    """Build src in out (incremental), then keep image and modules in dest.

    One O= directory per arch serves every state (before, after, mutants):
    switching state rewrites only the files the series touches, so only
    those recompile.  dest is replaced whole, with key written last.
    """
    configure(src, out, arch, probe_fragment)
    _make(src, out, arch, "bzImage", "modules", jobs=jobs, log=out / "demagic-build.log")
    release = (out / "include/config/kernel.release").read_text().strip()
    with replacing_dir(dest) as tmp:
        kept = snapshot(arch, tmp)
        _make(src, out, arch, "modules_install", f"INSTALL_MOD_PATH={kept.modroot}",
              "INSTALL_MOD_STRIP=1", jobs=1)
        extra = kept.modroot / "lib/modules/extra"
        extra.mkdir(parents=True)
        for ko in build_test_modules(src, out, arch, jobs):
            shutil.copy2(ko, extra / ko.name)
        shutil.copy2(out / arch.image, kept.image)
        (tmp / RELEASE_FILE).write_text(release + "\n")
        (tmp / TESTS_FILE).write_text("".join(t.name + "\n"
                                              for t in runnable(arch, out / ".config")))
        if plan is not None:
            results = probe.built(plan, src, out / ".config")
            (tmp / probe.LIST).write_text(probe.list_text(results))
            (tmp / probe.REPORT).write_text(probe.report_text(plan, results))
            # the scripts of the pristine tree, the same for every state: the boot worktree
            # is rewritten for the next state while this kernel boots
            (tmp / selftests.LIST).write_text(selftests.list_text(plan.selftests, plan.tree))
        (tmp / KEY_FILE).write_text(key + "\n")
    return snapshot(arch, dest)


def build_test_modules(src: Path, out: Path, arch: Machine, jobs: int) -> List[Path]:
    """The test modules of the arch's tests, each copied beside O= and built with M=."""
    built = []
    for moddir in test_modules(arch):
        work = out.parent / f"{out.name}-{moddir.name}"
        work.mkdir(parents=True, exist_ok=True)
        for item in moddir.iterdir():
            dest = work / item.name
            if not dest.exists() or dest.read_bytes() != item.read_bytes():
                shutil.copy2(item, dest)
        _make(out, out, arch, f"M={work}", "modules", jobs=jobs)
        made = sorted(work.glob("*.ko"))
        if not made:
            raise BuildError(f"test module {moddir.name}: no .ko built in {work}")
        built.extend(made)
    return built
