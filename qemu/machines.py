# SPDX-License-Identifier: GPL-2.0
"""Data only: the kernels the suite builds, and what each guest test covers."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Dict, Iterable, Tuple

from demagic.kernel.build import Arch


@dataclass(frozen=True)
class GuestTest:
    """A script under guest/tests/, and the kernel sources it exercises."""
    name: str
    sources: Tuple[str, ...]     # paths or directory prefixes in the kernel tree
    devices: Tuple[str, ...] = ()  # extra QEMU arguments the test needs
    depth: str = ""              # what it cannot reach, for the coverage table
    symbols: Tuple[str, ...] = ()  # Kconfig symbols it needs: without them, no such test
    compare: bool = False        # judged only against the kernel before the series
    timeout: int = 0             # seconds it may take in the guest (0: boot.GUEST_TIMEOUT)
    label: str = ""              # what the coverage table calls it (default: name)
    config: str = ""             # fragment under configs/ with the settings it needs
    modules: Tuple[str, ...] = ()  # test modules it loads: directories under modules/

    def covers(self, files: Iterable[str]) -> bool:
        """Whether any of files is one of the test's sources or lies under one."""
        return any(f == s or f.startswith(s) for f in files for s in self.sources)


@dataclass(frozen=True)
class Machine(Arch):
    """One kernel build of an architecture (name: also the O= directory prefix), and how to
    boot it."""
    image: str = ""              # path of the boot image inside O=
    qemu: str = ""
    fragments: Tuple[str, ...] = ()   # config fragments under qemu/configs/
    cflags: Tuple[str, ...] = ()      # for the static guest programs
    busybox: str = "host"             # "host" or a Debian architecture to fetch
    tests: Tuple[GuestTest, ...] = ()
    memory: int = 256            # MiB of guest RAM
    slowdown: int = 1            # the guest's timeouts are this many times the plain ones

    def for_files(self, files: Iterable[str]) -> "Machine":
        """This arch with only the tests that cover one of files."""
        files = list(files)
        return replace(self, tests=tuple(t for t in self.tests if t.covers(files)))


FASYNC = GuestTest("fasync", ("fs/fcntl.c", "include/linux/fs.h"))
HAMRADIO = ("CONFIG_HAMRADIO", "CONFIG_AX25")

X86_64 = Machine(
    name="x86_64", karch="x86_64", srcarch="x86", image="arch/x86/boot/bzImage",
    qemu="qemu-system-x86_64", fragments=("common.config", "x86_64.config"),
    cflags=(), busybox="host",
    tests=(
        GuestTest("slip", ("drivers/net/slip/",), symbols=("CONFIG_SLIP",),
                  config="tests/slip.config"),
        GuestTest("hdlcdrv", ("drivers/net/hamradio/hdlcdrv.c", "include/linux/hdlcdrv.h"),
                  symbols=HAMRADIO + ("CONFIG_BAYCOM_SER_FDX",), modules=("hdlcloop",),
                  config="tests/hdlcdrv.config"),
        GuestTest("baycom", ("drivers/net/hamradio/baycom_par.c",
                             "drivers/net/hamradio/baycom_ser_fdx.c",
                             "drivers/net/hamradio/baycom_ser_hdx.c"),
                  devices=("-parallel", "null"),
                  depth="baycom_ser_* register only: bringing them up on QEMU's UART livelocks",
                  symbols=("CONFIG_BAYCOM_PAR", "CONFIG_BAYCOM_SER_FDX"),
                  config="tests/baycom.config"),
        GuestTest("yam", ("drivers/net/hamradio/yam.c",),
                  depth="no YAM modem: the transmit/receive paths stay idle",
                  symbols=("CONFIG_YAM",),
                  config="tests/yam.config"),
        FASYNC,
        GuestTest("coda", ("fs/coda/",), symbols=("CONFIG_CODA_FS",),
                  config="tests/coda.config"),
        GuestTest("synclink_cs", ("drivers/char/pcmcia/synclink_cs.c",),
                  depth="load/unload only: the checked tty paths need a PCMCIA card",
                  symbols=("CONFIG_SYNCLINK_CS",),
                  config="tests/synclink_cs.config"),
        GuestTest("l2tp", ("net/l2tp/",),
                  symbols=("CONFIG_L2TP", "CONFIG_PPPOL2TP", "CONFIG_L2TP_ETH"),
                  config="tests/l2tp.config"),
        GuestTest("autofs", ("fs/autofs/",), symbols=("CONFIG_AUTOFS_FS",),
                  config="tests/autofs.config"),
        GuestTest("ocfs2hb", ("fs/ocfs2/cluster/",), symbols=("CONFIG_OCFS2_FS",),
                  config="tests/ocfs2hb.config"),
        GuestTest("keys", ("security/keys/", "include/linux/key.h"), symbols=("CONFIG_KEYS",),
                  config="tests/keys.config"),
    ))

I386 = Machine(
    name="i386", karch="i386", srcarch="x86", image="arch/x86/boot/bzImage",
    qemu="qemu-system-i386", fragments=("common.config", "i386.config"),
    cflags=("-m32",), busybox="i386",
    tests=(
        GuestTest("apm", ("arch/x86/kernel/apm_32.c",), symbols=("CONFIG_APM",),
                  config="tests/apm.config"),
        GuestTest("baycom_epp", ("drivers/net/hamradio/baycom_epp.c",),
                  devices=("-parallel", "null"),
                  depth="register/unregister only: QEMU's parallel port has no EPP modem",
                  symbols=("CONFIG_BAYCOM_EPP",),
                  config="tests/baycom_epp.config"),
        FASYNC,
    ))

ARCHS: Tuple[Machine, ...] = (X86_64, I386)


@dataclass(frozen=True)
class Flavour:
    """The kernels of one kind of run: plain (what make test proves), or debug (the same
    with the kernel's own bug finders on, opt-in: FLAVOUR=debug)."""
    name: str
    archs: Tuple[Machine, ...]

    def for_files(self, files: Iterable[str]) -> "Flavour":
        """The kernels a series touching files needs: each arch with the tests that cover
        them (and only their settings).  The first arch, where the probe runs, always
        stays; another only with a test left."""
        files = list(files)
        archs = [a.for_files(files) for a in self.archs]
        return replace(self, archs=tuple(a for i, a in enumerate(archs) if i == 0 or a.tests))


def _debug(arch: Machine, fragment: str, memory: int) -> Machine:
    return replace(arch, name=f"{arch.name}-debug", memory=memory, slowdown=4,
                   fragments=arch.fragments + ("debug.config", fragment))


FLAVOURS: Dict[str, Flavour] = {
    "plain": Flavour("plain", ARCHS),
    # KASAN wants its shadow (an eighth of RAM) and lockdep its tables: more RAM, slower
    "debug": Flavour("debug", (_debug(X86_64, "debug-x86_64.config", 1024),
                               _debug(I386, "debug-i386.config", 512))),
}
