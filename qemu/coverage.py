# SPDX-License-Identifier: GPL-2.0
"""Which boot tests exercise the code each patch of a series rewrote."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Dict, List, Sequence

from qemu import patchtext
from qemu.archs import ARCHS, NOT_EMULATED, Arch

DOC_PREFIX = "Documentation/"


@dataclass(frozen=True)
class Row:
    patch: str
    subject: str
    tests: List[str]     # "name (arch, ...)"
    note: str            # "compile-only: <reason>", or what the tests cannot reach


def subject(text: str) -> str:
    for line in text.splitlines():
        if line.startswith("Subject: "):
            return line[len("Subject: "):].split("] ", 1)[-1]
    return ""


def row(name: str, text: str, archs: Sequence[Arch] = ARCHS) -> Row:
    code = [f for f in patchtext.touched(text) if not f.startswith(DOC_PREFIX)]
    if not code:
        return Row(name, subject(text), [], "compile-only: documentation only, no code to run")
    hits: Dict[str, List[str]] = {}
    notes: List[str] = []
    for arch in archs:
        for test in arch.tests:
            if any(f == s or f.startswith(s) for f in code for s in test.sources):
                hits.setdefault(test.name, []).append(arch.name)
                if test.depth and test.depth not in notes:
                    notes.append(test.depth)
    tests = [f"{t} ({', '.join(a)})" for t, a in hits.items()]
    if tests:
        return Row(name, subject(text), tests, "; ".join(notes))
    reasons = sorted({why for f in code for where, why in NOT_EMULATED if f.startswith(where)})
    if reasons:
        return Row(name, subject(text), [], "compile-only: " + "; ".join(reasons))
    return Row(name, subject(text), [], "compile-only: no boot test runs " + ", ".join(code))


def table(patches: Sequence[Path]) -> List[Row]:
    return [row(p.name, p.read_text()) for p in patches]


def markdown(rows: Sequence[Row]) -> str:
    out = ["| patch | tests that exercise it | note |", "|---|---|---|"]
    for r in rows:
        out.append(f"| {r.subject or r.patch} | {', '.join(r.tests) or '-'} | {r.note} |")
    return "\n".join(out) + "\n"


def text(rows: Sequence[Row]) -> str:
    out = []
    for r in rows:
        what = ", ".join(r.tests) if r.tests else r.note
        extra = f"  [{r.note}]" if r.tests and r.note else ""
        out.append(f"  {r.patch[:48]:48} {what}{extra}")
    return "\n".join(out) + "\n"
