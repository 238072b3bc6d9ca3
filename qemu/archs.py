# SPDX-License-Identifier: GPL-2.0
"""Data only: the kernels the suite builds, and what each guest test covers."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Tuple


@dataclass(frozen=True)
class GuestTest:
    """A script under guest/tests/, and the kernel sources it exercises."""
    name: str
    sources: Tuple[str, ...]     # paths or directory prefixes in the kernel tree
    devices: Tuple[str, ...] = ()  # extra QEMU arguments the test needs
    depth: str = ""              # what it cannot reach, for the coverage table


@dataclass(frozen=True)
class Arch:
    """One kernel build and how to boot it."""
    name: str                    # also the O= directory prefix
    kernel_arch: str             # ARCH= for make
    image: str                   # path of the boot image inside O=
    qemu: str
    fragments: Tuple[str, ...]   # config fragments under qemu/configs/
    cflags: Tuple[str, ...]      # for the static guest programs
    busybox: str                 # "host" or a Debian architecture to fetch
    tests: Tuple[GuestTest, ...]


FASYNC = GuestTest("fasync", ("fs/fcntl.c", "include/linux/fs.h"))

X86_64 = Arch(
    name="x86_64", kernel_arch="x86_64", image="arch/x86/boot/bzImage",
    qemu="qemu-system-x86_64", fragments=("common.config", "x86_64.config"),
    cflags=(), busybox="host",
    tests=(
        GuestTest("slip", ("drivers/net/slip/",)),
        GuestTest("hdlcdrv", ("drivers/net/hamradio/hdlcdrv.c", "include/linux/hdlcdrv.h")),
        GuestTest("baycom", ("drivers/net/hamradio/baycom_par.c",
                             "drivers/net/hamradio/baycom_ser_fdx.c",
                             "drivers/net/hamradio/baycom_ser_hdx.c"),
                  devices=("-parallel", "null"),
                  depth="baycom_ser_* register only: bringing them up on QEMU's UART livelocks"),
        GuestTest("yam", ("drivers/net/hamradio/yam.c",),
                  depth="no YAM modem: the transmit/receive paths stay idle"),
        FASYNC,
        GuestTest("coda", ("fs/coda/",)),
        GuestTest("synclink_cs", ("drivers/char/pcmcia/synclink_cs.c",),
                  depth="load/unload only: the checked tty paths need a PCMCIA card"),
    ))

I386 = Arch(
    name="i386", kernel_arch="i386", image="arch/x86/boot/bzImage",
    qemu="qemu-system-i386", fragments=("common.config", "i386.config"),
    cflags=("-m32",), busybox="i386",
    tests=(
        GuestTest("apm", ("arch/x86/kernel/apm_32.c",)),
        GuestTest("baycom_epp", ("drivers/net/hamradio/baycom_epp.c",),
                  devices=("-parallel", "null"),
                  depth="register/unregister only: QEMU's parallel port has no EPP modem"),
        FASYNC,
    ))

ARCHS: Tuple[Arch, ...] = (X86_64, I386)

# Why a patch's code cannot run here, by the path it touches.
NOT_EMULATED: Tuple[Tuple[str, str], ...] = (
    ("drivers/scsi/arm/", "Acorn SCSI needs an ARM RiscPC, not emulated by QEMU"),
    ("drivers/scsi/ncr53c8xx.c", "ncr53c8xx here is the PA-RISC Zalon board, not emulated"),
    ("arch/mips/sgi-ip27/", "IP27 needs an SGI Origin MIPS machine, not emulated"),
    ("arch/mips/include/asm/sn/", "IP27 needs an SGI Origin MIPS machine, not emulated"),
)
