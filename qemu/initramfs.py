# SPDX-License-Identifier: GPL-2.0
"""The initramfs, built without root by the kernel's gen_init_cpio: busybox, guest programs, modules."""

from __future__ import annotations

import fcntl
import os
import subprocess
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator, List, Sequence, Tuple

from demagic.core.files import replacing, replacing_dir
from demagic.core.proc import CommandError, run
from demagic.core.errors import DemagicError
from qemu import probe, selftests
from qemu.machines import Machine
from qemu.kernel import Build

GUEST = Path(__file__).resolve().parent / "guest"
CFLAGS = ["-static", "-O2", "-Wall", "-Wextra", "-Werror"]
HOST_BUSYBOX = Path("/bin/busybox")


class InitramfsError(DemagicError):
    """A guest program, busybox or the archive could not be made."""


def _stale(target: Path, *sources: Path) -> bool:
    if not target.exists():
        return True
    mtime = target.stat().st_mtime
    return any(s.stat().st_mtime > mtime for s in sources)


def guest_programs(arch: Machine, work: Path) -> List[Path]:
    """Every guest/*.c compiled static for arch (32-bit via -m32)."""
    outdir = work / f"guest-{arch.name}"
    outdir.mkdir(parents=True, exist_ok=True)
    extra = list(arch.cflags)
    if "-m32" in extra:
        # The uapi asm headers serve both word sizes; libc6-dev-i386 does not link them.
        inc = work / "include32"
        inc.mkdir(exist_ok=True)
        if not (inc / "asm").exists():
            (inc / "asm").symlink_to("/usr/include/x86_64-linux-gnu/asm")
        extra += ["-isystem", str(inc)]
    progs = []
    header = GUEST / "ktap.h"
    for src in sorted(GUEST.glob("*.c")):
        exe = outdir / src.stem
        if _stale(exe, src, header):
            # a running archive build keeps the old one
            with replacing(exe) as tmp:
                try:
                    run(["gcc", *CFLAGS, *extra, "-o", str(tmp), str(src)])
                except CommandError as exc:
                    raise InitramfsError(f"{src.name} ({arch.name}): {exc}") from exc
        progs.append(exe)
    return progs


def busybox(arch: Machine, work: Path) -> Path:
    """A static busybox for arch: the host's, or Debian's busybox-static of that architecture."""
    if arch.busybox == "host":
        if not HOST_BUSYBOX.exists():
            raise InitramfsError("no /bin/busybox: apt-get install busybox-static")
        return HOST_BUSYBOX
    root = work / f"busybox-{arch.busybox}"
    exe = root / "bin/busybox"
    if exe.exists():
        return exe
    dl = work / "dl"
    dl.mkdir(parents=True, exist_ok=True)
    debs = sorted(dl.glob(f"busybox-static_*_{arch.busybox}.deb"))
    if not debs:
        try:
            run(["apt-get", "download", f"busybox-static:{arch.busybox}"], cwd=dl)
        except CommandError as exc:
            raise InitramfsError(f"busybox-static:{arch.busybox}: {exc} "
                                 f"(dpkg --add-architecture {arch.busybox}; apt-get update)") from exc
        debs = sorted(dl.glob(f"busybox-static_*_{arch.busybox}.deb"))
    with replacing_dir(root) as tmp:
        run(["dpkg-deb", "-x", str(debs[-1]), str(tmp)])
    return exe


def gen_init_cpio(src: Path, work: Path) -> Path:
    """The kernel's usr/gen_init_cpio, built for the host from src."""
    exe = work / "tools/gen_init_cpio"
    source = src / "usr/gen_init_cpio.c"
    if _stale(exe, source):
        exe.parent.mkdir(parents=True, exist_ok=True)
        with replacing(exe) as tmp:
            run(["gcc", "-O2", "-o", str(tmp), str(source)])
    return exe


def cpio_list(busybox_exe: Path, programs: List[Path], modroot: Path,
              lists: Sequence[Path]) -> str:
    """The gen_init_cpio description of the whole archive."""
    lines = ["dir /dev 755 0 0", "nod /dev/console 600 0 0 c 5 1", "dir /bin 755 0 0",
             "dir /tmp 1777 0 0", "dir /lib 755 0 0", "dir /tests 755 0 0",
             f"file /bin/busybox {busybox_exe} 755 0 0", "slink /bin/sh busybox 777 0 0",
             f"file /init {GUEST / 'init.sh'} 755 0 0"]
    lines += [f"file /bin/{p.name} {p} 755 0 0" for p in programs]
    lines += [f"file /tests/{t.name} {t} 644 0 0" for t in sorted((GUEST / "tests").glob("*.sh"))]
    lines += [f"file /tests/{p.name} {p} 644 0 0" for p in lists]
    top = modroot / "lib"
    for root, dirs, files in os.walk(top):
        dirs.sort()
        rel = Path(root).relative_to(modroot)
        if Path(root) != top:
            lines.append(f"dir /{rel} 755 0 0")
        for name in sorted(files):
            path = Path(root) / name
            if not path.is_symlink():
                lines.append(f"file /{rel / name} {path} 644 0 0")
    return "\n".join(lines) + "\n"


@contextmanager
def _tools_lock(work: Path) -> Iterator[None]:
    """busybox, the guest programs and gen_init_cpio live in work, shared by every
    tree's runs: one run at a time makes or checks them."""
    work.mkdir(parents=True, exist_ok=True)
    with open(work / ".tools.lock", "w") as fh:
        fcntl.flock(fh, fcntl.LOCK_EX)
        yield


def tools(arch: Machine, src: Path, work: Path) -> Tuple[Path, List[Path], Path]:
    """(busybox, guest programs, gen_init_cpio) for arch, made once in work."""
    with _tools_lock(work):
        return busybox(arch, work), guest_programs(arch, work), gen_init_cpio(src, work)


def build(build_: Build, src: Path, work: Path) -> Path:
    """The initramfs for one kernel build, beside its O= directory."""
    arch = build_.arch
    box, programs, tool = tools(arch, src, work)
    out = build_.out.parent / f"{build_.out.name}-initramfs.cpio"
    lists = [build_.out / probe.LIST, build_.out / selftests.LIST]
    for path in lists:
        if not path.exists():
            path.write_text("")
    listing = cpio_list(box, programs, build_.modroot, lists)
    lst = out.with_suffix(".list")
    lst.write_text(listing)
    # The archive is binary on stdout, which proc.run (text only) cannot carry.
    with replacing(out) as tmp:
        with open(tmp, "wb") as fh:
            done = subprocess.run([str(tool), str(lst)], stdout=fh, stderr=subprocess.PIPE,
                                  check=False)
        if done.returncode != 0:
            raise InitramfsError(f"gen_init_cpio {lst}: {done.stderr.decode(errors='replace')}")
    return out
