# SPDX-License-Identifier: GPL-2.0
"""The series' commits on the work copy, with git's plumbing: who signs them, when, and
what each changed."""

from __future__ import annotations

import re
from datetime import datetime
from pathlib import Path
from typing import Dict, List, Optional, Sequence, Tuple

from demagic.core.errors import UsageError
from demagic.core.proc import run

FIXED_IDENTITY = ("demagic", "demagic@localhost")
DATE = "2022-12-01T00:00:00+00:00"


def identity(fixed: bool) -> Tuple[str, str]:
    """The Signed-off-by identity: the user's git one, or the fixed one."""
    if fixed:
        return FIXED_IDENTITY
    name = run(["git", "config", "user.name"], check=False).stdout.strip()
    mail = run(["git", "config", "user.email"], check=False).stdout.strip()
    if not name or not mail:
        raise UsageError("no git identity: set git config user.name and user.email, or IDENTITY=")
    return name, mail


def parse_identity(text: str) -> Tuple[str, str]:
    m = re.match(r"^\s*(.+?)\s*<([^<>@\s]+@[^<>\s]+)>\s*$", text)
    if not m:
        raise UsageError(f"IDENTITY={text}: expected 'Name <mail@host>'")
    return m.group(1), m.group(2)


def git_env(who: Tuple[str, str], date: Optional[str] = None) -> Dict[str, str]:
    env = {"GIT_AUTHOR_NAME": who[0], "GIT_AUTHOR_EMAIL": who[1],
           "GIT_COMMITTER_NAME": who[0], "GIT_COMMITTER_EMAIL": who[1]}
    if date:
        env.update({"GIT_AUTHOR_DATE": date, "GIT_COMMITTER_DATE": date})
    return env


def commit(work: Path, subject: str, body: str, who: Tuple[str, str],
           paths: Sequence[str], date: Optional[str] = None) -> None:
    """Commit paths (changed or deleted) with a signed-off message (dated date, else now).

    With git's plumbing: porcelain git add and git commit each stat every file of
    the tree, a quarter of a second a commit on a kernel tree; only paths changed."""
    sob = f"Signed-off-by: {who[0]} <{who[1]}>"
    git = ["git", "-C", str(work)]
    run([*git, "update-index", "--add", "--remove", "--", *paths])
    tree = run([*git, "write-tree"]).stdout.strip()
    parent = run([*git, "rev-parse", "--verify", "HEAD"]).stdout.strip()
    new = run([*git, "commit-tree", tree, "-p", parent, "-F", "-"], env=git_env(who, date),
              input_text=cleanup(f"{subject}\n\n{body}\n\n{sob}\n")).stdout.strip()
    run([*git, "update-ref", "-m", f"commit: {subject}", "HEAD", new, parent])


def cleanup(message: str) -> str:
    """The message as git commit -F leaves it (--cleanup=whitespace): no trailing blanks,
    no blank lines at either end, runs of blank lines made one."""
    out: List[str] = []
    for line in message.split("\n"):
        line = line.rstrip()
        if line or (out and out[-1]):
            out.append(line)
    while out and not out[-1]:
        out.pop()
    return "\n".join(out) + "\n" if out else ""


def numstat(work: Path) -> Tuple[int, int, List[str]]:
    """files, lines removed and files by lines changed, of HEAD."""
    res = run(["git", "-C", str(work), "show", "--numstat", "--format=", "HEAD"])
    rows = []
    for line in res.stdout.splitlines():
        add, rem, name = line.split("\t")
        rows.append((int(add) + int(rem), int(rem), name))
    rows.sort(key=lambda r: (-r[0], r[2]))
    return len(rows), sum(r[1] for r in rows), [r[2] for r in rows]


class Dates:
    """Commit dates: for a reproducible series (one of Debian's trees) a fixed start
    and a minute more per patch, so mail clients keep the order; else now."""

    def __init__(self, fixed: bool) -> None:
        self.fixed = fixed
        self.count = 0

    def next(self) -> Optional[str]:
        if not self.fixed:
            return None
        self.count += 1
        return f"{DATE[:11]}{self.count // 60:02d}:{self.count % 60:02d}:00{DATE[19:]}"


def rfc2822(iso: str) -> str:
    """An ISO date as git format-patch writes Date: (Thu, 1 Dec 2022 00:00:00 +0000)."""
    return datetime.fromisoformat(iso).strftime("%a, %-d %b %Y %H:%M:%S %z")
