# SPDX-License-Identifier: GPL-2.0
"""verify selftest: feed verify small broken series; exactly the right cell must fail.

The cases are synthetic one-patch series on the real tree, written here as
edits of the SGI IP27 kernel-variables block (KV_MAGIC), which exercises the
cross build (mips), the hard-coded offsets used by assembly, the field and
macro searches and the documentation tables at once.  A correct version of
the patch is the control: it must pass everything, so a check that always
fails is caught too.
"""

from __future__ import annotations

import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import FrozenSet, List, Sequence, Tuple

from demagic.model.series import Series
from demagic.core.errors import DemagicError
from demagic.core.proc import Progress, run
from demagic.core import paths
from demagic.kernel.tree import GIT_ENV, pristine, worktree
from verify.matrix import render_text
from verify.run import Options, verify

HEADER = "arch/mips/include/asm/sn/klkernvars.h"
SOURCE = "arch/mips/sgi-ip27/ip27-klnuma.c"
MEMORY = "arch/mips/sgi-ip27/ip27-memory.c"
Edit = Tuple[str, str, str]   # (file, old text, new text)

CORRECT: Tuple[Edit, ...] = (
    (HEADER, "#define KV_MAGIC_OFFSET\t\t0x0\n", ""),
    (HEADER, "#define KV_RO_NASID_OFFSET\t0x4\n", "#define KV_RO_NASID_OFFSET\t0x0\n"),
    (HEADER, "#define KV_RW_NASID_OFFSET\t0x6\n", "#define KV_RW_NASID_OFFSET\t0x2\n"),
    (HEADER, "\n#define KV_MAGIC\t\t0x5f4b565f\n", ""),
    (HEADER, "\tint\t\tkv_magic;\n", ""),
    (SOURCE, "\tkvp->kv_magic = KV_MAGIC;\n", ""),
)
DOC_ROW = "KV_MAGIC "


@dataclass(frozen=True)
class Case:
    """One broken (or, for the control, correct) series and the cells that must fail."""
    name: str
    what: str
    edits: Tuple[Edit, ...]
    doc_rows: bool
    expect: FrozenSet[str]
    then: Tuple[Edit, ...] = ()         # a second patch, when the case needs one
    expect_then: FrozenSet[str] = frozenset()


def _replace(edits: Sequence[Edit], old: Edit, new: Edit) -> Tuple[Edit, ...]:
    return tuple(new if e == old else e for e in edits)


CASES: Tuple[Case, ...] = (
    Case("correct", "KV_MAGIC removed, offsets moved, doc rows gone", CORRECT, True, frozenset()),
    Case("doc-row-left", "KV_MAGIC still in the documentation tables", CORRECT, False,
         frozenset({"nothing-left"})),
    Case("field-left", "a use of kv_magic left in code the compiler does not see",
         _replace(CORRECT, CORRECT[5], (SOURCE, "\tkvp->kv_magic = KV_MAGIC;\n",
                                        "#ifdef IP27_KV_DEBUG\n\tkvp->kv_magic = 0;\n#endif\n")),
         True, frozenset({"nothing-left"})),
    Case("offset-shift", "kv_magic gone but KV_RO/RW_NASID_OFFSET, used by head.S, unchanged",
         tuple(e for e in CORRECT if e not in (CORRECT[1], CORRECT[2])), True,
         frozenset({"layout"})),
    Case("no-build", "does not compile on mips (its only architecture)",
         CORRECT + ((SOURCE, "\tkvp->kv_ro_nasid = server_nasid;\n",
                     "\tkvp->kv_ro_nasid = server_nasid\n"),), True, frozenset({"builds"})),
    Case("bisect", "a second patch breaks the first patch's object, not its own",
         CORRECT, True, frozenset(),
         ((HEADER, "#endif /* !__ASSEMBLY__ */\n",
           "#define kv_ro_baseaddr kv_ro_base\n\n#endif /* !__ASSEMBLY__ */\n"),
          (MEMORY, " * for more details.\n", " * for more details (selftest).\n")),
         frozenset({"bisect"})),
)


def _edit(src: Path, case: Case, edits: Sequence[Edit]) -> None:
    for path, old, new in edits:
        text = (src / path).read_text()
        if old not in text:
            raise DemagicError(f"selftest {case.name}: {path} no longer has {old.strip()!r}")
        (src / path).write_text(text.replace(old, new, 1))


def write_series(src: Path, case: Case, out: Path) -> Path:
    """Apply the case's edits on the pristine worktree src, commit, format-patch to out."""
    _edit(src, case, case.edits)
    if case.doc_rows:
        res = run(["git", "-C", str(src), "grep", "-l", f"^{DOC_ROW}", "--", "Documentation"],
                  check=False)
        for rel in res.stdout.split():
            lines = (src / rel).read_text().split("\n")
            (src / rel).write_text("\n".join(ln for ln in lines if not ln.startswith(DOC_ROW)))
    message = (f"mips: sgi-ip27: remove KV_MAGIC\n\nselftest case {case.name}: {case.what}.\n\n"
               "Signed-off-by: demagic <demagic@localhost>\n")
    run(["git", "-C", str(src), "commit", "-q", "-a", "-F", "-"], env=GIT_ENV, input_text=message)
    if case.then:
        _edit(src, case, case.then)
        run(["git", "-C", str(src), "commit", "-q", "-a", "-F", "-"], env=GIT_ENV, input_text=(
            f"mips: sgi-ip27: tidy up\n\nselftest case {case.name}, second patch.\n\n"
            "Signed-off-by: demagic <demagic@localhost>\n"))
    shutil.rmtree(out, ignore_errors=True)
    out.mkdir(parents=True)
    run(["git", "-C", str(src), "format-patch", "-q", "-o", str(out),
         "-2" if case.then else "-1"], env=GIT_ENV)
    return out


def main(base: Options) -> int:
    """Run every case; 0 only when each failed exactly where expected."""
    progress = Progress()
    tree = pristine(base.kdir, progress, base.tree)
    root = paths.BUILD / "verify" / tree.name / "selftest"
    bad: List[str] = []
    for case in CASES:
        # the broken series is written from the work copy, which verify then resets
        src = worktree(tree)
        series = write_series(src, case, root / case.name)
        progress.step(f"selftest {case.name}: {case.what}")
        opts = Options(kdir=base.kdir, series=Series.load(series), ref=None, jobs=base.jobs, fast=False,
                       state="selftest", quiet=True)
        matrix = verify(opts, Progress(quiet=True))
        (root / case.name / "report.txt").write_text(render_text(matrix))
        expect = [case.expect] + ([case.expect_then] if case.then else [])
        got = [frozenset(row.failures()) for row in matrix.rows]
        verdict = "ok" if got == expect else "WRONG"
        print(f"{verdict:<5} {case.name:<13} expected to fail: "
              f"{' / '.join(str(sorted(e) or 'nothing') for e in expect)}; "
              f"failed: {' / '.join(str(sorted(g) or 'nothing') for g in got)}")
        if got != expect:
            bad.append(case.name)
            print(render_text(matrix))
    print(f"selftest: {len(CASES) - len(bad)}/{len(CASES)} cases right")
    return 1 if bad else 0
