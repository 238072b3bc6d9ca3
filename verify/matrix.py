# SPDX-License-Identifier: GPL-2.0
"""The verification matrix (model/reports.VerifyReport) as text, Markdown and JSON."""

from __future__ import annotations

import json
from typing import List, Sequence

from demagic.model.reports import CHECKS, Status, VerifyReport


def render_json(matrix: VerifyReport) -> str:
    return json.dumps(matrix.to_json(), indent=2, ensure_ascii=False) + "\n"


def _table(header: Sequence[str], rows: Sequence[Sequence[str]]) -> List[str]:
    widths = [max(len(h), *(len(r[i]) for r in rows)) if rows else len(h)
              for i, h in enumerate(header)]
    fmt = "  ".join(f"{{:<{w}}}" for w in widths)
    return [fmt.format(*header).rstrip(), fmt.format(*("-" * w for w in widths))] + \
        [fmt.format(*r).rstrip() for r in rows]


def render_text(matrix: VerifyReport) -> str:
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


def render_markdown(matrix: VerifyReport) -> str:
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
