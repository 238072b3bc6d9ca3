# SPDX-License-Identifier: GPL-2.0
"""The boot suite's reports: boot-test.md for a reader, and the BootReport record the cover
letter reads (model/reports.py)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Sequence

from demagic.core.paths import REPO_ROOT
from demagic.kernel import tree as dtree
from demagic.model.reports import BootReport, CoverageRow, TestResult
from demagic.model.series import Series
from qemu import coverage
from qemu.outcome import Outcome

REPO = REPO_ROOT

def report(outcomes: Sequence[Outcome], rows: Sequence[CoverageRow], series: Path,
           worse: Sequence[str] = ()) -> str:
    shown = series.relative_to(REPO) if series.is_relative_to(REPO) else series
    out = ["# demagic boot test", "", f"Series: `{shown}`", "",
           "| state | arch | test | result | boot s |", "|---|---|---|---|---|"]
    for o in outcomes:
        for r in o.results:
            out.append(f"| {o.state} | {o.arch.name} | {r.name} | {r.status.value} | "
                       f"{o.boot.seconds:.1f} |")
    if worse:
        out += ["", "## Worse after the series", ""] + [f"- {w}" for w in worse]
    out += ["", "## Coverage", "", coverage.markdown(rows)]
    for o in outcomes:
        if not o.ok:
            out += [f"- {o.state} {o.arch.name}: console log `{o.boot.log}`"]
    return "\n".join(out) + "\n"


def report_json(tr: dtree.Tree, outcomes: Sequence[Outcome], rows: Sequence[CoverageRow],
                series: Series, worse: Sequence[str] = ()) -> str:
    """The BootReport the cover letter's Testing section reads."""
    data = BootReport(series.digest, f"{tr.name} ({tr.version})",
                      all(o.ok for o in outcomes) and not worse, list(worse),
                      [TestResult(o.state, o.arch.name, r.name, r.status.value)
                       for o in outcomes for r in o.results], list(rows))
    return json.dumps(data.to_json(), indent=2) + "\n"
