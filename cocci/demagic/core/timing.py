# SPDX-License-Identifier: GPL-2.0
"""What every make bench figure is made of: wall time and CPU time of a call, and the
median of repeated calls.  Figures are printed, never asserted."""

from __future__ import annotations

import resource
import statistics
import time
from typing import Callable, Tuple, TypeVar

T = TypeVar("T")


def cpu_seconds() -> float:
    """CPU seconds used so far by this process and its finished children (on a shared
    machine they vary less than wall time)."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime


def timed(fn: Callable[[], T]) -> Tuple[float, float, T]:
    """(wall seconds, CPU seconds, result) of fn()."""
    start, cpu = time.monotonic(), cpu_seconds()
    result = fn()
    return time.monotonic() - start, cpu_seconds() - cpu, result


def median_of(fn: Callable[[], object], repeat: int) -> float:
    """The median wall time of repeat calls of fn."""
    return statistics.median(timed(fn)[0] for _ in range(max(1, repeat)))
