# SPDX-License-Identifier: GPL-2.0
"""The verification matrix: one row per patch, one cell per check; text, Markdown, JSON."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from enum import Enum
from typing import Any, Dict, List, Sequence

CHECKS = ("applies", "nothing-left", "checkpatch", "builds", "bisect", "layout", "reference")


class Status(str, Enum):
    PASS = "pass"
    FAIL = "FAIL"
    NA = "n.a."


@dataclass
class Cell:
    """The verdict of one check on one patch, a one-line reason and the evidence."""
    status: Status
    reason: str
    details: List[str] = field(default_factory=list)

    def to_json(self) -> Dict[str, Any]:
        return {"status": self.status.value, "reason": self.reason, "details": self.details}


def passed(reason: str, details: Sequence[str] = ()) -> Cell:
    return Cell(Status.PASS, reason, list(details))


def failed(reason: str, details: Sequence[str] = ()) -> Cell:
    return Cell(Status.FAIL, reason, list(details))


def not_applicable(reason: str, details: Sequence[str] = ()) -> Cell:
    return Cell(Status.NA, reason, list(details))


@dataclass
class Row:
    """One patch of the series."""
    number: int
    name: str
    subject: str
    cells: Dict[str, Cell] = field(default_factory=dict)

    def cell(self, check: str) -> Cell:
        return self.cells.get(check, not_applicable("not run"))

    def failures(self) -> List[str]:
        return [c for c in CHECKS if self.cell(c).status is Status.FAIL]


@dataclass
class Matrix:
    """All rows, with what was checked and how."""
    tree: str
    series: str
    reference: str
    mode: str                  # "full" or "fast"
    notes: List[str] = field(default_factory=list)
    rows: List[Row] = field(default_factory=list)
    timings: Dict[str, float] = field(default_factory=dict)
    digest: str = ""           # of the series' patches (demagic.patches.series_digest)

    def failed(self) -> bool:
        return any(row.failures() for row in self.rows)

    def to_json(self) -> Dict[str, Any]:
        return {
            "tree": self.tree, "series": self.series, "reference": self.reference,
            "mode": self.mode, "notes": self.notes, "checks": list(CHECKS),
            "patches": [{"number": r.number, "name": r.name, "subject": r.subject,
                         "cells": {c: r.cell(c).to_json() for c in CHECKS}} for r in self.rows],
            "result": "fail" if self.failed() else "pass",
            "series_digest": self.digest,
        }


def render_json(matrix: Matrix) -> str:
    return json.dumps(matrix.to_json(), indent=2, ensure_ascii=False) + "\n"


def _table(header: Sequence[str], rows: Sequence[Sequence[str]]) -> List[str]:
    widths = [max(len(h), *(len(r[i]) for r in rows)) if rows else len(h)
              for i, h in enumerate(header)]
    fmt = "  ".join(f"{{:<{w}}}" for w in widths)
    return [fmt.format(*header).rstrip(), fmt.format(*("-" * w for w in widths))] + \
        [fmt.format(*r).rstrip() for r in rows]


def render_text(matrix: Matrix) -> str:
    """The matrix as printed on the terminal, failures and n.a. explained below it."""
    rows = [[f"{r.number:02d}", r.subject[:44]] + [r.cell(c).status.value for c in CHECKS]
            for r in matrix.rows]
    lines = [f"verify {matrix.series} on {matrix.tree} ({matrix.mode})", ""]
    lines += _table(["#", "patch"] + list(CHECKS), rows)
    lines.append("")
    for row in matrix.rows:
        for check in CHECKS:
            cell = row.cell(check)
            lines.append(f"{row.number:02d} {check:<12} {cell.status.value:<4} {cell.reason}")
            if cell.status is Status.FAIL:
                lines.extend(f"     {d}" for d in cell.details)
    verdict = "FAIL" if matrix.failed() else "pass"
    timing = ", ".join(f"{k} {v:.0f} s" for k, v in matrix.timings.items())
    lines += ["", f"result: {verdict}" + (f" ({timing})" if timing else "")]
    return "\n".join(lines) + "\n"


def _md_escape(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def render_markdown(matrix: Matrix) -> str:
    """The report committed beside the series."""
    out = [f"# verify: {matrix.series}", "",
           f"- tree: `{matrix.tree}`", f"- reference: `{matrix.reference}`",
           f"- mode: {matrix.mode}"]
    out += [f"- {note}" for note in matrix.notes]
    out += ["", "| # | patch | " + " | ".join(CHECKS) + " |",
            "|---|---|" + "---|" * len(CHECKS)]
    for row in matrix.rows:
        cells = " | ".join(row.cell(c).status.value for c in CHECKS)
        out.append(f"| {row.number:02d} | {_md_escape(row.subject)} | {cells} |")
    out += ["", f"Result: **{'FAIL' if matrix.failed() else 'pass'}**", ""]
    for row in matrix.rows:
        out += [f"## {row.number:02d} {_md_escape(row.subject)}", ""]
        for check in CHECKS:
            cell = row.cell(check)
            out.append(f"- **{check}**: {cell.status.value}: {_md_escape(cell.reason)}")
            out.extend(f"    - `{_md_escape(d)}`" for d in cell.details[:40])
        out.append("")
    return "\n".join(out)
