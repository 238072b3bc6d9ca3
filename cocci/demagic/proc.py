# SPDX-License-Identifier: GPL-2.0
"""The one subprocess boundary of demagic: argv lists, echo on V=1, named errors."""

from __future__ import annotations

import os
import shlex
import subprocess
import sys
import time
from pathlib import Path
from typing import Mapping, Optional, Sequence


class DemagicError(Exception):
    """A problem the user can act on: printed as one line, exit status 1."""


class UsageError(DemagicError):
    """Bad input (a wrong KDIR, an unknown target, a bad variable): exit status 2."""


class CommandError(DemagicError):
    """A command exited non-zero or timed out."""

    def __init__(self, argv: Sequence[str], returncode: int, output: str) -> None:
        self.argv = list(argv)
        self.returncode = returncode
        self.output = output
        last = output.strip().splitlines()[-1] if output.strip() else ""
        super().__init__(f"{shlex.quote(argv[0])} exited {returncode}: {last}")


def verbose() -> bool:
    """True when the user asked for V=1."""
    return os.environ.get("V", "0") not in ("", "0")


def run(argv: Sequence[str], cwd: Optional[Path] = None, check: bool = True,
        env: Optional[Mapping[str, str]] = None, timeout: Optional[float] = None,
        input_text: Optional[str] = None) -> subprocess.CompletedProcess[str]:
    """Run argv, capture stdout and stderr (merged into .stdout on failure)."""
    if verbose():
        where = f" (in {cwd})" if cwd else ""
        print(f"  {shlex.join(str(a) for a in argv)}{where}", file=sys.stderr)
    full_env = dict(os.environ)
    if env:
        full_env.update(env)
    try:
        res = subprocess.run([str(a) for a in argv], cwd=cwd, env=full_env,
                             capture_output=True, text=True, errors="replace",
                             timeout=timeout, input=input_text)
    except subprocess.TimeoutExpired as exc:
        raise CommandError(argv, -1, f"timed out after {timeout:.0f} s") from exc
    except OSError as exc:
        raise CommandError(argv, -1, str(exc)) from exc
    if check and res.returncode != 0:
        raise CommandError(argv, res.returncode, res.stdout + res.stderr)
    return res


class Progress:
    """One line per step on stderr, each with the time since the start."""

    def __init__(self, quiet: bool = False) -> None:
        self.start = time.monotonic()
        self.quiet = quiet

    def elapsed(self) -> float:
        return time.monotonic() - self.start

    def step(self, message: str) -> None:
        if not self.quiet:
            print(f"  [{self.elapsed():6.1f}s] {message}", file=sys.stderr, flush=True)
