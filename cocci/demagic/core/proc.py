# SPDX-License-Identifier: GPL-2.0
"""The one subprocess boundary of demagic: argv lists, echo on V=1, named errors."""

from __future__ import annotations

import errno
import os
import shlex
import shutil
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any, Callable, Mapping, Optional, Sequence, Set

from demagic.core.errors import DemagicError, UsageError


DISK_FULL = (errno.ENOSPC, errno.EDQUOT)
FULL_ADVICE = "free some space and run again: earlier results are kept"


def disk_full(exc: OSError) -> Optional[str]:
    """The one line for a write of demagic's own that the disk had no room for
    (None for any other OSError, which is a bug and keeps its traceback)."""
    if exc.errno not in DISK_FULL:
        return None
    where = Path(exc.filename) if exc.filename else Path.cwd()
    room = next((p for p in (where, *where.parents) if p.exists()), Path("/"))
    free = shutil.disk_usage(room).free // 2**20
    return (f"the disk is full: cannot write {where} ({free} MiB left on its file system); "
            + FULL_ADVICE)


def guarded(prog: str, body: Callable[[], int], interrupted: str) -> int:
    """Run a command line's body: bad input exits 2 and any other problem the user can
    act on (a DemagicError, a full disk) exits 1, each as one line on stderr; an
    interrupt stops every child first and exits 130."""
    try:
        return body()
    except UsageError as exc:
        print(f"{prog}: {exc}", file=sys.stderr)
        return 2
    except DemagicError as exc:
        print(f"{prog}: {exc}", file=sys.stderr)
        return 1
    except OSError as exc:
        line = disk_full(exc)
        if line is None:
            raise
        print(f"{prog}: {line}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        CHILDREN.stop_all()
        print(f"{prog}: interrupted; {interrupted}", file=sys.stderr)
        return 130


class CommandError(DemagicError):
    """A command exited non-zero or timed out."""

    def __init__(self, argv: Sequence[str], returncode: int, output: str) -> None:
        self.argv = list(argv)
        self.returncode = returncode
        self.output = output
        last = output.strip().splitlines()[-1] if output.strip() else ""
        if "No space left on device" in output:
            where = next((l for l in output.splitlines() if "No space left" in l), "")
            super().__init__(f"{shlex.quote(argv[0])} stopped: the disk is full "
                             f"({where.strip()[:160]}); {FULL_ADVICE}")
            return
        super().__init__(f"{shlex.quote(argv[0])} exited {returncode}: {last}")


def verbose() -> bool:
    """True when the user asked for V=1."""
    return os.environ.get("V", "0") not in ("", "0")


class Children:
    """The processes demagic has running, so that an interrupt stops them all.

    Each child runs in a session of its own (a new process group), so that
    the compilers make starts or the guest QEMU runs can be stopped with it,
    and so that a Ctrl-C reaches demagic first: stop() then sends SIGINT to
    the group (make deletes what it had half written), and SIGKILL to what
    is left after GRACE seconds.  Worker threads start children too, hence
    the lock; stop_all() is what an interrupted main() calls."""

    GRACE = 10.0

    def __init__(self) -> None:
        self._live: Set["subprocess.Popen[Any]"] = set()
        self._lock = threading.Lock()

    def start(self, argv: Sequence[str], **kw: Any) -> "subprocess.Popen[Any]":
        with self._lock:
            proc = subprocess.Popen([str(a) for a in argv], start_new_session=True, **kw)
            self._live.add(proc)
        return proc

    def done(self, proc: "subprocess.Popen[Any]") -> None:
        with self._lock:
            self._live.discard(proc)

    def stop(self, proc: "subprocess.Popen[Any]") -> None:
        """SIGINT to the child's group, then SIGKILL to what is left of it."""
        for sig in (signal.SIGINT, signal.SIGKILL):
            try:
                os.killpg(proc.pid, sig)
            except (ProcessLookupError, PermissionError):
                break
            try:
                proc.wait(timeout=self.GRACE if sig == signal.SIGINT else None)
                if sig == signal.SIGINT:
                    # the leader is gone; its group may not be
                    try:
                        os.killpg(proc.pid, signal.SIGKILL)
                    except (ProcessLookupError, PermissionError):
                        pass
                break
            except subprocess.TimeoutExpired:
                continue
        for stream in (proc.stdin, proc.stdout, proc.stderr):
            if stream is not None:
                stream.close()
        self.done(proc)

    def stop_all(self) -> None:
        with self._lock:
            live = list(self._live)
        for proc in live:
            self.stop(proc)


CHILDREN = Children()


# Kernel builds are batch work: under nice they yield the CPU to what runs beside
# them, QEMU guests above all, whose tests run against timeouts.
BATCH = ("nice", "-n", "19")


def run(argv: Sequence[str], cwd: Optional[Path] = None, check: bool = True,
        env: Optional[Mapping[str, str]] = None, timeout: Optional[float] = None,
        input_text: Optional[str] = None) -> subprocess.CompletedProcess[str]:
    """Run argv, capture stdout and stderr (merged into .stdout on failure).

    An exception while it runs (a timeout, an interrupt) stops the child and
    everything it started."""
    if verbose():
        where = f" (in {cwd})" if cwd else ""
        print(f"  {shlex.join(str(a) for a in argv)}{where}", file=sys.stderr)
    full_env = dict(os.environ)
    if env:
        full_env.update(env)
    try:
        proc = CHILDREN.start(argv, cwd=cwd, env=full_env, text=True, errors="replace",
                              stdin=subprocess.PIPE if input_text is not None else
                              subprocess.DEVNULL,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    except OSError as exc:
        raise CommandError(argv, -1, str(exc)) from exc
    try:
        out, err = proc.communicate(input_text, timeout=timeout)
    except subprocess.TimeoutExpired as exc:
        CHILDREN.stop(proc)
        raise CommandError(argv, -1, f"timed out after {timeout:.0f} s") from exc
    except BaseException:
        CHILDREN.stop(proc)
        raise
    CHILDREN.done(proc)
    res = subprocess.CompletedProcess([str(a) for a in argv], proc.returncode, out, err)
    if check and res.returncode != 0:
        raise CommandError(argv, res.returncode, res.stdout + res.stderr)
    return res


def cap_jobs(jobs: int) -> int:
    """J= as asked, but no more than the machine's CPUs (more only costs memory); says so."""
    cpus = os.cpu_count() or 1
    if jobs > cpus:
        print(f"  J={jobs} is more than the {cpus} CPUs here: using J={cpus}", file=sys.stderr)
        return cpus
    return jobs


class Progress:
    """One line per step on stderr, each with the time since the start."""

    def __init__(self, quiet: bool = False) -> None:
        self.start = time.monotonic()
        self.quiet = quiet

    def elapsed(self) -> float:
        return time.monotonic() - self.start

    def step(self, message: str) -> None:
        if not self.quiet:     # one write: steps may come from more than one thread
            sys.stderr.write(f"  [{self.elapsed():6.1f}s] {message}\n")
            sys.stderr.flush()
