# SPDX-License-Identifier: GPL-2.0
"""make check-mail: would a maintainer's tools take the series as it is?

- every patch and the cover letter are addressed (a To: with an address);
- git am applies the series, in order, on the pristine tree;
- scripts/checkpatch.pl --strict reports no error; every warning or check
  left is listed with its reason: inherited (the line the patch changes
  had it already), a deleted file MAINTAINERS does not name, or new;
- b4 (Debian's, offline) reads the series as a thread and finds every patch.

Each failure is one line naming the patch and the problem; the exit status
is 1 when any check fails.
"""

from __future__ import annotations

import re
import shutil
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import List, Sequence

from demagic.model.series import Series
from demagic.kernel import checkpatch as kcheckpatch
from demagic.kernel import tree as trees
from demagic.core.errors import DemagicError
from demagic.core.proc import Progress, run


@dataclass
class Report:
    failures: List[str] = field(default_factory=list)
    notes: List[str] = field(default_factory=list)

    def fail(self, text: str) -> None:
        self.failures.append(text)


def addressed(paths: Sequence[Path], report: Report) -> None:
    for path in paths:
        head = path.read_text(errors="replace").split("\n\n", 1)[0]
        m = re.search(r"^To: (.+(?:\n[ \t].+)*)", head, re.M)
        if not m or "@" not in m.group(1):
            report.fail(f"{path.name}: no To: address")
    if not report.failures:
        report.notes.append(f"addressed: {len(paths)} mails, each with a To:")


def applies(tree: trees.Tree, series: Series, report: Report) -> None:
    try:
        trees.worktree(tree, series)
    except DemagicError as exc:
        report.fail(f"git am: {exc}")
        return
    report.notes.append(f"git am: {len(series.patches)} patches apply on {tree.name}")


def checkpatch(work: Path, numbered: Sequence[Path], report: Report) -> None:
    if not kcheckpatch.script(work).exists():
        report.notes.append("checkpatch: the tree has no scripts/checkpatch.pl")
        return
    count = 0
    for patch, findings in kcheckpatch.check(work, numbered, strict=True).items():
        text = patch.read_text(errors="replace")
        for f in findings:
            where = f"{f.patch}:{f.line}: {f.level}:{f.type}"
            if f.error:
                report.fail(f"checkpatch: {where}: {f.message}")
                continue
            count += 1
            report.notes.append(f"checkpatch: {where}: "
                                f"{kcheckpatch.reason(text, f.line, f.type, work)}")
    report.notes.append(f"checkpatch --strict: no error, {count} warnings or checks (listed)")


def b4_reads(paths: Sequence[Path], report: Report) -> None:
    if shutil.which("b4") is None:
        report.fail("b4: not installed (apt-get install b4)")
        return
    with tempfile.TemporaryDirectory(prefix="demagic-b4-") as tmp:
        mbox = Path(tmp) / "series.mbox"
        mbox.write_text("".join(p.read_text(errors="replace") for p in paths))
        out = Path(tmp) / "out"
        out.mkdir()
        # b4 runs in a home of its own (no cache or config of the user's is touched),
        # which needs a git identity: b4 stops without one.
        (Path(tmp) / ".gitconfig").write_text("[user]\n\tname = demagic check-mail\n"
                                              "\temail = check-mail@localhost\n")
        res = run(["b4", "--offline-mode", "am", "-m", str(mbox), "-o", str(out)], check=False,
                  env={"HOME": tmp, "XDG_CACHE_HOME": tmp, "XDG_DATA_HOME": tmp,
                       "XDG_CONFIG_HOME": tmp})
        want = len(paths) - 1
        m = re.search(r"Total patches: (\d+)", res.stdout + res.stderr)
        got = int(m.group(1)) if m else 0
        if res.returncode != 0 or got != want or not list(out.glob("*.mbx")):
            last = (res.stderr or res.stdout).strip().splitlines()
            report.fail(f"b4 am: read {got} of {want} patches"
                        + (f" ({last[-1]})" if last else ""))
            return
    report.notes.append(f"b4 am: reads the thread, {want} patches")


def check(series: Series, tree: trees.Tree, progress: Progress) -> Report:
    report = Report()
    progress.step(f"check-mail {series.path}: addresses")
    addressed(series.mails, report)
    progress.step("check-mail: git am on the pristine tree")
    applies(tree, series, report)
    progress.step("check-mail: checkpatch --strict")
    checkpatch(tree.repo, series.paths, report)
    progress.step("check-mail: b4 am")
    b4_reads(series.mails, report)
    return report
