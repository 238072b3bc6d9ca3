# SPDX-License-Identifier: GPL-2.0
"""One QEMU boot: argv, console teed to a log, a no-output deadline and a hard cap."""

from __future__ import annotations

import queue
import shlex
import subprocess
import sys
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import List, Optional, Sequence

from demagic.core.proc import CHILDREN, verbose
from qemu.machines import Machine, GuestTest

GUEST_TIMEOUT = 60      # per test, enforced in the guest by busybox timeout
SILENCE_TIMEOUT = 90.0  # no console output for this long: the guest hung
BOOT_SLACK = 60.0       # hard cap = tests * GUEST_TIMEOUT + this


@dataclass(frozen=True)
class BootResult:
    console: str
    seconds: float
    timed_out: str      # "" or why the host stopped the guest
    log: Path


def test_timeout(arch: Machine, test: Optional[GuestTest] = None) -> int:
    """Seconds a test (None: one without a timeout of its own) may take in arch's guest."""
    return ((test.timeout if test is not None else 0) or GUEST_TIMEOUT) * arch.slowdown


def qemu_argv(arch: Machine, image: Path, initrd: Path, tests: Sequence[str],
              devices: Sequence[str], limits: Sequence[str] = ()) -> List[str]:
    """The QEMU command line: TCG, no network, only a serial console and the devices asked.
    limits: "test:seconds" for the tests that may run longer than GUEST_TIMEOUT."""
    append = ["console=ttyS0", "loglevel=5", "panic=-1",
              f"demagic.tests={','.join(tests)}",
              f"demagic.timeout={test_timeout(arch)}",
              f"demagic.limits={','.join(limits)}" if limits else ""]
    return [arch.qemu, "-accel", "tcg", "-m", str(arch.memory), "-nodefaults", "-no-reboot",
            "-display", "none", "-nic", "none", "-serial", "stdio", *devices,
            "-kernel", str(image), "-initrd", str(initrd),
            "-append", " ".join(a for a in append if a)]


def _reader(stream: "subprocess.IO[bytes]", lines: "queue.Queue[Optional[str]]") -> None:
    for raw in iter(stream.readline, b""):
        lines.put(raw.decode(errors="replace"))
    lines.put(None)


def boot(argv: Sequence[str], log: Path, hard_cap: float,
         silence: float = SILENCE_TIMEOUT) -> BootResult:
    """Run QEMU until it exits, the console goes quiet too long, or the cap is reached."""
    if verbose():
        print(f"  {shlex.join(argv)}", file=sys.stderr)
    log.parent.mkdir(parents=True, exist_ok=True)
    start = time.monotonic()
    proc = CHILDREN.start(argv, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT)
    assert proc.stdout is not None
    try:
        return _watch(proc, log, start, hard_cap, silence)
    finally:
        if proc.poll() is None:
            CHILDREN.stop(proc)   # an interrupt: no guest is left running
        CHILDREN.done(proc)


def _watch(proc: "subprocess.Popen[bytes]", log: Path, start: float, hard_cap: float,
           silence: float) -> BootResult:
    out: List[str] = []
    why = ""
    assert proc.stdout is not None
    lines: "queue.Queue[Optional[str]]" = queue.Queue()
    reader = threading.Thread(target=_reader, args=(proc.stdout, lines), daemon=True)
    reader.start()
    last = start
    with open(log, "w") as fh:
        while True:
            now = time.monotonic()
            if now - start > hard_cap:
                why = f"hard cap of {hard_cap:.0f} s reached"
                break
            if now - last > silence:
                why = f"no console output for {silence:.0f} s"
                break
            try:
                line = lines.get(timeout=1.0)
            except queue.Empty:
                continue
            if line is None:
                break
            last = time.monotonic()
            out.append(line)
            fh.write(line)
            fh.flush()
        if why:
            proc.kill()
            fh.write(f"\n[host] {why}: guest killed\n")
        proc.wait()
    reader.join(timeout=5.0)   # the pipe is at its end once the guest is gone
    if not reader.is_alive():
        proc.stdout.close()
    return BootResult("".join(out), time.monotonic() - start, why, log)
