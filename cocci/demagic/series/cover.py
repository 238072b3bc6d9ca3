# SPDX-License-Identifier: GPL-2.0
"""The cover letter: what the series does, on which tree, what it leaves out, how it was
tested and how it was made (the semantic patches themselves)."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import List, Optional

from demagic.core.prose import flow
from demagic.model.target import group_name
from demagic.series import message
from demagic.series.write import Entry
from demagic.model.candidate import Candidate, Verdict
from demagic.model.reports import BootReport, Coverage, Status, VerifyReport
from demagic.rewrite.apply import RULE_OF
from demagic.kernel.tree import Tree

ACTIONS = {Verdict.REMOVE: "remove the tag", Verdict.FLAG: "make it a bool",
           Verdict.KEEP: "drop the row only"}


@dataclass
class Facts:
    """Everything the cover letter says."""
    tree: Tree
    scope: str
    entries: List[Entry]
    manual: List[str] = field(default_factory=list)
    review: List[Candidate] = field(default_factory=list)
    reports: Optional[Path] = None       # where verify.json and boot-test.json may be
    digest: str = ""                     # of the series' patches
    series: str = ""                     # the series directory, as the user names it
    tools: Optional[message.Tools] = None


def intro(f: Facts) -> str:
    by = {v: [e for e in f.entries if e.verdict is v and e.macros] for v in Verdict}
    parts = [f"{len(by[Verdict.REMOVE])} removed", f"{len(by[Verdict.FLAG])} turned into a bool"]
    keeps = [group_name(e.macros) for e in by[Verdict.KEEP]]
    text = (f"This series retires the magic numbers of Linux {f.tree.version}: "
            + ", ".join(parts)
            + (f", and {len(keeps)} that were never magic numbers leave the registry "
               f"({', '.join(keeps)})" if keeps else "") + ".")
    gone = [e for e in f.entries if e.registry]
    if gone:
        text += f" The last patch removes {gone[0].registry} itself."
    return flow(text)


def base(f: Facts) -> str:
    t = f.tree
    if t.dirty:
        return flow(f"It applies to {t.origin} (Linux {t.version}); commit those changes, "
                    "or send them first, before this series.")
    if t.has_history:
        return flow(f"It applies to {t.origin} (Linux {t.version}), the base-commit below, "
                    "and is meant for mainline.")
    if t.debian and f.scope == "registry":
        return flow(f"It applies to {t.origin} (Linux {t.version}), imported into git as is, "
                    "and reproduces by machine the series that retired the registry's last "
                    "entries by hand in 2022: only the registry's entries are retired.")
    if t.debian:
        return flow(f"It applies to {t.origin} (Linux {t.version}), imported into git as is. "
                    "It is meant for mainline: rebase it there before sending.")
    return flow(f"It applies to {t.origin} (Linux {t.version}), which has no git history.")


def table(f: Facts) -> str:
    rows = [f"{'magic':<28} {'action':<18} {'files':>5} {'lines removed':>13}",
            f"{'-' * 28} {'-' * 18} {'-' * 5} {'-' * 13}"]
    for e in f.entries:
        name = group_name(e.macros) if e.macros else "magic-number.rst"
        action = "delete the registry" if e.registry else ACTIONS[e.verdict]
        rows.append(f"{name:<28} {action:<18} {e.files:>5} {e.removed:>13}")
    return "\n".join(rows)


def left_out(f: Facts) -> List[str]:
    out = []
    if f.manual:
        out.append(flow("Not in this series, for a manual fix (the rules cannot rewrite every "
                        "use):") + "\n" + "\n".join(flow(line.replace(": needs a manual fix: ", ": "),
                                                         "  ") for line in f.manual))
    if f.review:
        lines = [flow("Not in this series, left for review: not enough evidence either way "
                      "(scan.txt beside the series has the evidence for and against):")]
        for c in f.review:
            where = str(c.define) if c.define else c.header
            lines.append(flow(f"{c.macro} ({where}): {c.against[0] if c.against else c.reason}",
                              "  "))
        out.append("\n".join(lines))
    return out


def testing(f: Facts) -> str:
    head = "Testing"
    verify = VerifyReport.load(f.reports / "verify.json", f.digest) if f.reports else None
    boot = BootReport.load(f.reports / "boot-test.json", f.digest) if f.reports else None
    if verify is None and boot is None:
        return (f"{head}: not yet verified.\n"
                + flow(f"make verify SERIES={f.series} and make boot-test SERIES={f.series} "
                       "write verify.md and boot-test.md beside the series; the next make "
                       "spatch sums them up here."))
    lines = [f"{head} (the reports beside the series have the details):"]
    if verify is not None:
        lines += verify_lines(verify)
    else:
        lines.append(flow(f"not yet verified: make verify SERIES={f.series}.", "- "))
    if boot is not None:
        lines += boot_lines(boot)
    else:
        lines.append(flow(f"not yet boot-tested: make boot-test SERIES={f.series}.", "- "))
    return "\n".join(lines)


def verify_lines(report: VerifyReport) -> List[str]:
    bad = [r for r in report.rows if r.failures()]
    out = [flow(f"make verify on {report.tree}: "
                + ("every patch applies with git am, leaves no reference to what it removes, "
                   "is clean under checkpatch and, where it touches code, builds W=1 with no "
                   "new warning and keeps the series bisectable."
                   if not bad else f"{len(bad)} patches fail a check (see verify.md)."), "- ")]
    builds = [f"{r.number:02d} {r.built_text()}" for r in report.rows
              if r.cell("builds").status is Status.PASS]
    if builds:
        out.append(flow("built: " + "; ".join(builds) + ".", "- "))
    return out


def boot_lines(report: BootReport) -> List[str]:
    proven, unproven, compile_only = [], [], []
    for row in report.coverage:
        why = "; ".join(row.notes)
        if row.status is Coverage.EXERCISED:
            proven.append(f"{row.number:02d} {', '.join(row.tests)}")
        elif row.status is Coverage.RAN:
            unproven.append(f"{row.number:02d} {', '.join(row.ran)}" + (f" ({why})" if why else ""))
        else:
            compile_only.append(f"{row.number:02d} ({why})")
    verdict = "all tests pass before and after" if report.passed else \
        "some tests fail (see boot-test.md)"
    out = [flow(f"make boot-test, kernels before and after the series in QEMU: {verdict}.", "- ")]
    if proven:
        out.append(flow("exercised (the test fails on a deliberately broken variant of the "
                        "patch): " + "; ".join(proven) + ".", "- "))
    if unproven:
        out.append(flow("run, but no broken variant was caught: " + "; ".join(unproven) + ".",
                        "- "))
    if compile_only:
        out.append(flow("compile-only: " + "; ".join(compile_only) + ".", "- "))
    return out


def made(f: Facts) -> str:
    tools = f.tools
    if tools is None:
        return ""
    used = [RULE_OF[v] for v in (Verdict.REMOVE, Verdict.FLAG)
            if any(e.verdict is v and e.macros for e in f.entries)]
    text = [flow(f"Each patch was made with Coccinelle ({tools.spatch}) and {tools.demagic}: "
                 "the scan judged the magic number from the evidence its message gives, one "
                 "of the semantic patches below rewrote it, and its message says how it was "
                 "run.")]
    for rule in used:
        text.append(f"== {rule.name} (sha256 {tools.rules.get(rule.name, '?')}) ==\n"
                    + rule.read_text().rstrip("\n"))
    return "\n\n".join(text)


def blurb(f: Facts) -> str:
    paras = [intro(f), base(f), table(f)] + left_out(f) + [testing(f), made(f)]
    return "\n\n".join(p for p in paras if p)
