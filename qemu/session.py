# SPDX-License-Identifier: GPL-2.0
"""Guest sessions: a kernel booted in QEMU with its initramfs, its tests' KTAP parsed; and
the thread that boots each kernel while the next one builds."""

from __future__ import annotations

from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path
from typing import Dict, List, Optional, Sequence

from demagic.core import paths
from demagic.core.proc import Progress
from demagic.kernel import tree as dtree
from qemu import boot, initramfs, kernel, ktap
from qemu.outcome import Outcome

class Boots:
    """Boots on a thread of their own, one at a time in the order asked, while the main
    thread builds the next kernels (a boot takes one core).  Nothing a boot reads is
    rewritten meanwhile: the kernel's kept copy, its initramfs, the pristine tree's
    selftests.  On an error, the boots not started are dropped."""

    def __init__(self, tr: dtree.Tree, progress: Progress, overlap: bool = True) -> None:
        self.tr, self.progress, self.overlap = tr, progress, overlap
        self.pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="boot")

    def __enter__(self) -> "Boots":
        return self

    def __exit__(self, kind: object, *_: object) -> None:
        self.pool.shutdown(wait=True, cancel_futures=kind is not None)

    def boot(self, built: kernel.Build, label: str,
             pace: Optional[Sequence["Future[Outcome]"]] = None) -> "Future[Outcome]":
        """Boot built; pace: the pristine kernels' boots, asked for before this one.
        Without overlap (make bench's previous design), the boot is over on return."""
        def go() -> Outcome:
            return boot_kernel(self.tr, built, label, self.progress,
                               pace=[f.result() for f in pace] if pace is not None else None)
        if self.overlap:
            return self.pool.submit(go)
        done: "Future[Outcome]" = Future()
        done.set_result(go())
        return done


def boot_kernel(tr: dtree.Tree, built: kernel.Build, label: str, progress: Progress,
                pace: Optional[Sequence[Outcome]] = None) -> Outcome:
    """Boot one kernel; pace: the pristine kernels' boots, whose test durations bound
    this one's (a mutant that makes a test hang is caught without waiting its full timeout)."""
    seen = {o.arch.name: o.durations() for o in pace or []}
    return boot_once(built, initramfs.build(built, tr.repo, paths.BUILD / "qemu"), label,
                     progress, limits=_paced(built, seen.get(built.arch.name, {})) if pace else None)


# A test may take this many times as long as on the pristine kernel, plus the slack.
PACE_FACTOR, PACE_SLACK = 3, 15


def _paced(built: kernel.Build, durations: Dict[str, float]) -> Dict[str, int]:
    return {t.name: min(boot.test_timeout(built.arch, t),
                        int(durations[t.name] * PACE_FACTOR) + PACE_SLACK)
            for t in built.tests if t.name in durations}


def boot_once(built: kernel.Build, initrd: Path, label: str, progress: Progress,
              log_name: str = "", limits: Optional[Dict[str, int]] = None) -> Outcome:
    arch = built.arch
    names = [t.name for t in built.tests]
    devices = _dedupe_pairs([d for t in built.tests for d in t.devices])
    log = built.out.parent / (log_name or f"{built.out.name}-{label}-console.log")
    progress.step(f"{label}: booting {arch.name} ({', '.join(names)})")
    own = {t.name: boot.test_timeout(arch, t) for t in built.tests if t.timeout}
    own.update(limits or {})
    argv = boot.qemu_argv(arch, built.image, initrd, names, devices,
                          [f"{n}:{secs}" for n, secs in own.items()])
    cap = sum(own.get(t.name, boot.test_timeout(arch)) for t in built.tests) + \
        boot.BOOT_SLACK * arch.slowdown
    res = boot.boot(argv, log, hard_cap=cap)
    results, crashes = ktap.parse(res.console, names)
    return Outcome(label, arch, results, crashes, res, built.tests, built.out)


def _dedupe_pairs(args: List[str]) -> List[str]:
    """QEMU options given by several tests, once each (they come as option, value)."""
    pairs, seen = [], set()
    for opt, val in zip(args[::2], args[1::2]):
        if (opt, val) not in seen:
            seen.add((opt, val))
            pairs += [opt, val]
    return pairs
