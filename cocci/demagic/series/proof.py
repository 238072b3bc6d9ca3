# SPDX-License-Identifier: GPL-2.0
"""What the reports beside a series prove, in the words the mails use.

verify.json and boot-test.json (model/reports.py) are read once, for the
series of one digest; every sentence here is one of their cells or rows put
into words, so that a report that changes changes the claim:

- under each patch's `---` line, where it was built and which test ran its
  changed code (a maintainer who reads one patch alone still sees them);
- the cover letter's Testing section, with each checkpatch finding and its
  reason, the header users built, and for each patch whether a test caught
  a broken variant of it, ran over it only, or could not run it;
- the credit to a reference series (REF=) the patches were compared with.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Dict, List, Optional

from demagic.core.prose import and_list, flow
from demagic.model.reports import (BootReport, Coverage, CoverageRow, Row, Status,
                                   VerifyReport)

@dataclass(frozen=True)
class Reference:
    """A series the patches were compared with: its cover letter's subject, author and date."""
    subject: str
    author: str
    date: str


@dataclass(frozen=True)
class Proof:
    """The reports of one series (None: not made for it yet)."""
    verify: Optional[VerifyReport]
    boot: Optional[BootReport]
    reference: Optional[Reference] = None

    def row(self, number: int) -> Optional[Row]:
        return next((r for r in self.verify.rows if r.number == number), None) \
            if self.verify else None

    def coverage(self, number: int) -> Optional[CoverageRow]:
        return next((c for c in self.boot.coverage if c.number == number), None) \
            if self.boot else None


def load(reports: Optional[Path], digest: str, root: Path) -> Proof:
    """The reports in reports made for the series of digest; root: where a relative
    reference path in verify.json starts."""
    if reports is None:
        return Proof(None, None)
    verify = VerifyReport.load(reports / "verify.json", digest)
    boot = BootReport.load(reports / "boot-test.json", digest)
    ref = None
    if verify is not None and verify.reference not in ("", "none"):
        ref = reference_of(root / verify.reference)
    return Proof(verify, boot, ref)


def reference_of(ref: Path) -> Optional[Reference]:
    """The cover letter of a reference directory (the file whose subject is patch 0)."""
    for path in sorted(ref.glob("*")) if ref.is_dir() else []:
        head = path.read_text(errors="replace").split("\n\n", 1)[0]
        subject = re.search(r"^Subject: (.*)$", head, re.M)
        if subject and re.search(r"\b0+/\d+\]", subject.group(1)):
            author = re.search(r"^From: (.*?)\s*<", head, re.M)
            date = re.search(r"^Date: \w+, (\d+ \w+ \d+)", head, re.M)
            return Reference(subject.group(1).strip(),
                             " ".join(author.group(1).split()) if author else "",
                             date.group(1) if date else "")
    return None


# -- under a patch's --- line ------------------------------------------------------------

def patch_notes(proof: Proof, number: int) -> List[str]:
    """What the reports prove of patch number, a few lines for under its `---`."""
    out: List[str] = []
    row = proof.row(number)
    if row is not None:
        out += _built(row)
    cov = proof.coverage(number)
    if cov is not None:
        out.append(_tested(cov))
    if not out:
        return []
    return ["Proof (verify.md and boot-test.md beside the series):"] + \
        [flow(line, "- ") for line in out]


def _built(row: Row) -> List[str]:
    out = []
    builds = row.cell("builds")
    if builds.status is Status.PASS:
        by_arch: Dict[str, List[str]] = {}
        for arch, obj in row.built:
            by_arch.setdefault(arch, []).append(obj)
        where = "; ".join(f"{', '.join(objs)} on {arch}" for arch, objs in by_arch.items())
        users = (f" ({len(row.header_users)} of them other users of a header it changes)"
                 if row.header_users else "")
        out.append(f"built W=1 with no new warning, before and after it: {where}{users}")
    elif builds.status is Status.FAIL:
        out.append(f"does not build: {builds.reason}")
    doc = row.cell("kernel-doc")
    if doc.status is not Status.NA:
        out.append(f"kernel-doc: {doc.reason}")
    return out


def _tested(cov: CoverageRow) -> str:
    notes = "; ".join(cov.notes)
    if cov.status is Coverage.EXERCISED:
        return (f"tested in QEMU: {and_list(cov.tests)} fail{'s' if len(cov.tests) == 1 else ''}"
                " on a broken variant of this patch" + (f" (but: {notes})" if notes else ""))
    if cov.status is Coverage.RAN:
        return (f"run in QEMU, no broken variant caught: {and_list(cov.ran)}"
                + (f" ({notes})" if notes else ""))
    return f"not run in QEMU: {notes or 'no test reaches it'}"


# -- the cover letter ----------------------------------------------------------------------

def testing(proof: Proof, series: str) -> str:
    head = "Testing"
    if proof.verify is None and proof.boot is None:
        return (f"{head}: not yet verified.\n"
                + flow(f"make verify SERIES={series} and make boot-test SERIES={series} "
                       "write verify.md and boot-test.md beside the series; the next make "
                       "spatch sums them up here."))
    lines = [flow(f"{head} (verify.md and boot-test.md beside the series have the details; "
                  "each patch says what concerns it under its ---):")]
    if proof.verify is not None:
        lines += verify_lines(proof.verify)
    else:
        lines.append(flow(f"not yet verified: make verify SERIES={series}.", "- "))
    if proof.boot is not None:
        lines += boot_lines(proof.boot)
    else:
        lines.append(flow(f"not yet boot-tested: make boot-test SERIES={series}.", "- "))
    return "\n".join(lines)


def _numbers(rows: List[Row]) -> str:
    return and_list(f"{r.number:02d}" for r in rows)


def verify_lines(report: VerifyReport) -> List[str]:
    rows = report.rows
    out: List[str] = []

    def status(check: str, wanted: Status) -> List[Row]:
        return [r for r in rows if r.cell(check).status is wanted]

    failing = [r for r in rows if r.failures()]
    applied = status("applies", Status.PASS)
    clean = status("nothing-left", Status.PASS)
    text = (f"make verify on {report.tree}: {len(applied)} of {len(rows)} patches apply "
            f"with git am; {len(clean)} leave no reference to what they remove")
    if failing:
        text += (f"; {_numbers(failing)} fail a check ("
                 + "; ".join(f"{r.number:02d}: {', '.join(r.failures())}" for r in failing)
                 + ")")
    out.append(flow(text + ".", "- "))
    findings = [f"{r.number:02d} {f.type} ({f.reason})" for r in rows for f in r.checkpatch
                if not f.error]
    errors = status("checkpatch", Status.FAIL)
    text = "checkpatch: " + (f"errors in {_numbers(errors)}" if errors else "no error")
    text += ("; the warnings, each with its reason: " + "; ".join(findings)
             if findings else "; no warning")
    out.append(flow(text + ".", "- "))
    docs = [r for r in rows if r.cell("kernel-doc").status is not Status.NA]
    bad_docs = status("kernel-doc", Status.FAIL)
    if docs:
        out.append(flow("kernel-doc -none on the C files and headers they touch: "
                        + (f"new warnings in {_numbers(bad_docs)}" if bad_docs else
                           f"no new warning ({_numbers(docs)})") + ".", "- "))
    built = status("builds", Status.PASS)
    if built:
        parts = []
        for r in built:
            users = f", {len(r.header_users)} of them header users" if r.header_users else ""
            parts.append(f"{r.number:02d} {r.built_text()}{users}")
        bisect = status("bisect", Status.FAIL)
        out.append(flow("built W=1 before the series and after each patch, with no new "
                        "warning (a patch that changes a header is built with the nearest "
                        "other files that use what it changed; after each patch the objects "
                        "of the earlier ones are built again"
                        + (f", and {_numbers(bisect)} break them" if bisect else "")
                        + "): " + "; ".join(parts) + ".", "- "))
    return out


def boot_lines(report: BootReport) -> List[str]:
    proven, unproven, compile_only = [], [], []
    for row in report.coverage:
        why = "; ".join(row.notes)
        if row.status is Coverage.EXERCISED:
            proven.append(f"{row.number:02d} {', '.join(row.tests)}"
                          + (f" (but: {why})" if why else ""))
        elif row.status is Coverage.RAN:
            unproven.append(f"{row.number:02d} {', '.join(row.ran)}" + (f" ({why})" if why else ""))
        else:
            compile_only.append(f"{row.number:02d} ({why})")
    verdict = "every test passes before and after" if report.passed else \
        "some tests fail (see boot-test.md)"
    out = [flow(f"make boot-test, kernels before and after the series in QEMU: {verdict}.",
                "- ")]
    if proven:
        out.append(flow("exercised (a test fails on a deliberately broken variant of the "
                        "patch): " + "; ".join(proven) + ".", "- "))
    if unproven:
        out.append(flow("run, but no broken variant was caught: " + "; ".join(unproven) + ".",
                        "- "))
    if compile_only:
        out.append(flow("not run: " + "; ".join(compile_only) + ".", "- "))
    return out


def credit(proof: Proof) -> str:
    """Which patches make the same changes as the reference series, and where they differ."""
    if proof.verify is None or proof.reference is None:
        return ""
    same = [r for r in proof.verify.rows if r.cell("reference").status is Status.PASS]
    differ = [r for r in proof.verify.rows if r.cell("reference").status is Status.FAIL]
    if not same and not differ:
        return ""
    ref = proof.reference
    by = f" by {ref.author}" if ref.author else ""
    when = f" ({ref.date})" if ref.date else ""
    text = f"Prior art: \"{ref.subject}\"{by}{when} removed many of these by hand"
    docs_only = [r for r in same if r.cell("builds").status is Status.NA]
    code = [r for r in same if r not in docs_only]
    docs = [r for r in same if "Documentation" in r.cell("reference").reason]
    comments = [r for r in same if "trailing comment" in r.cell("reference").reason]
    if code:
        text += (f". {_plural(code, 'Patch', 'Patches')} {_numbers(code)} "
                 f"{_plural(code, 'makes', 'make')} the same changes to code as "
                 f"{_plural(code, 'its counterpart', 'their counterparts')} there")
    if docs_only:
        text += (f"{'; ' if code else '. '}{_numbers(docs_only)} "
                 f"{_plural(docs_only, 'changes', 'change')} only Documentation, as "
                 f"{_plural(docs_only, 'its counterpart does', 'their counterparts do')}")
    if docs:
        text += (f"; the changes to Documentation of {_numbers(docs)} differ "
                 "(verify.md lists how)")
    if comments:
        text += (f"; {_numbers(comments)} {_plural(comments, 'differs', 'differ')} in a "
                 "trailing comment only")
    if differ:
        text += f"; {_numbers(differ)} change code differently (verify.md lists how)"
    return flow(text + ".")


def _plural(rows: List[Row], one: str, many: str) -> str:
    return one if len(rows) == 1 else many
