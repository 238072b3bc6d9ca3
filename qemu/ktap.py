# SPDX-License-Identifier: GPL-2.0
"""KTAP from a guest console: results per test (missing ones crashed), and kernel crash reports."""

from __future__ import annotations

import enum
import re
from dataclasses import dataclass, field
from typing import List, Optional, Sequence, Tuple

PRINTK_PREFIX = re.compile(r"^\s*(<\d+>)?\[\s*\d+\.\d+\](\[\s*[CT]\d+\])?\s?")
VERSION = re.compile(r"^KTAP version \d+\s*$")
PLAN = re.compile(r"^1\.\.(\d+)\s*$")
RESULT = re.compile(r"^(not )?ok (\d+)(?: -)? ?([^#]*?)\s*(?:#\s*(.*))?$")
CRASH = re.compile(r"(Oops|BUG:|WARNING:|Kernel panic|general protection fault)")
INDENT = "    "


class Status(enum.Enum):
    PASS = "ok"
    FAIL = "not ok"
    SKIP = "skipped"
    CRASHED = "crashed"
    # KTAP's directives for a test that gave no verdict: it could not run (its
    # environment failed), or it did not finish in its time
    ERROR = "error"
    TIMEOUT = "timed out"


UNFINISHED = (Status.ERROR, Status.TIMEOUT)


@dataclass
class Result:
    """One test (or subtest) and what the console said about it."""
    name: str
    status: Status
    subtests: List["Result"] = field(default_factory=list)
    diagnostics: List[str] = field(default_factory=list)
    crashes: List[str] = field(default_factory=list)
    directive: str = ""     # what followed "#" on the result line


def strip_prefix(line: str) -> str:
    """The line without its printk timestamp (and caller id), and without CR."""
    return PRINTK_PREFIX.sub("", line.rstrip("\r\n").replace("\r", ""), count=1)


def _status(not_ok: Optional[str], directive: str) -> Status:
    word = next(iter(directive.split()), "").upper()
    if not_ok:
        return {"ERROR": Status.ERROR, "TIMEOUT": Status.TIMEOUT}.get(word, Status.FAIL)
    if word.startswith("SKIP"):
        return Status.SKIP
    return Status.PASS


@dataclass
class _Doc:
    """A KTAP document at one indentation level, as it is read."""
    plan: int = -1
    results: List[Result] = field(default_factory=list)
    pending: List[str] = field(default_factory=list)  # lines of the running test


def _parse_level(lines: Sequence[str]) -> _Doc:
    doc = _Doc()
    started = False
    for line in lines:
        if not started:
            started = bool(VERSION.match(line))
            continue
        if line.startswith(INDENT) or line.startswith("#"):
            doc.pending.append(line)
            continue
        plan, res = PLAN.match(line), RESULT.match(line)
        if plan and doc.plan < 0:
            doc.plan = int(plan.group(1))
        elif res:
            directive = (res.group(4) or "").strip()
            result = Result(res.group(3) or f"test {res.group(2)}",
                            _status(res.group(1), directive), directive=directive)
            _attach(result, doc.pending)
            doc.results.append(result)
            doc.pending = []
        else:
            doc.pending.append(line)
    return doc


def _attach(result: Result, lines: List[str]) -> None:
    """Give result its subtests (indented KTAP), diagnostics and crash lines."""
    inner = [ln[len(INDENT):] for ln in lines if ln.startswith(INDENT)]
    result.diagnostics = [ln for ln in lines if ln.lstrip().startswith("#")]
    result.crashes = [ln for ln in lines if CRASH.search(ln) and not ln.startswith(INDENT + "#")]
    if any(VERSION.match(ln) for ln in inner):
        sub = _parse_level(inner)
        result.subtests = sub.results + _missing(sub, [])
    if result.crashes or any(s.status is Status.CRASHED for s in result.subtests):
        result.status = Status.CRASHED


def _missing(doc: _Doc, names: Sequence[str]) -> List[Result]:
    """Results the plan (or the expected names) promised and the console never gave."""
    want = max(doc.plan, len(names))
    out = []
    for i in range(len(doc.results), want):
        name = names[i] if i < len(names) else f"test {i + 1}"
        out.append(Result(name, Status.CRASHED))
    if out:
        _attach(out[0], doc.pending)
        out[0].status = Status.CRASHED
    return out


def parse(console: str, expected: Sequence[str]) -> Tuple[List[Result], List[str]]:
    """Top-level results for the expected tests, and every crash line in the console.

    A test the console gives no result for is CRASHED, and so is one during
    which the kernel reported an Oops, BUG, WARNING or panic.
    """
    lines = [strip_prefix(ln) for ln in console.splitlines()]
    doc = _parse_level(lines)
    results = doc.results + _missing(doc, expected)
    crashes = [ln for ln in lines if CRASH.search(ln) and not ln.lstrip().startswith("#")]
    return results, crashes


ADDRESS = re.compile(r"\+0x[0-9a-f]+/0x[0-9a-f]+|\b(?:0x)?[0-9a-f]{8,16}\b|\b\d+\b")


def report_key(line: str) -> str:
    """A crash line without what changes from one kernel or boot to the next (addresses,
    offsets, numbers): the same report before and after a series has the same key."""
    return ADDRESS.sub("#", line.strip())


def passed(results: Sequence[Result], crashes: Sequence[str]) -> bool:
    """True when every result passed or was skipped and the kernel reported nothing."""
    return not crashes and bool(results) and all(
        r.status in (Status.PASS, Status.SKIP) for r in results)
