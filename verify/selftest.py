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
from typing import FrozenSet, List, Optional, Sequence, Tuple

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
    before: Tuple[Edit, ...] = ()       # a prerequisite: in the tree, not in the series


# A kernel-doc comment for the struct that still documents the member the patch removes.
KERNEL_DOC = ("/**\n * struct kern_vars_s - where the other nodes find the kernel\n"
              " * @kv_magic: the magic number\n * @kv_ro_nasid: node of the read-only text\n"
              " * @kv_rw_nasid: node of the read-write data\n"
              " * @kv_ro_baseaddr: address of the read-only text\n"
              " * @kv_rw_baseaddr: address of the read-write data\n */\n")
# A user of the header that names the member only through token pasting: no grep of the
# tree finds it, only a compile does.
USER = ("\n#include <asm/sn/klkernvars.h>\n\n#define KV_FIELD(kvp, name) ((kvp)->kv_##name)\n\n"
        "static int __maybe_unused kv_selftest_peek(kern_vars_t *kvp)\n{\n"
        "\treturn KV_FIELD(kvp, magic);\n}\n")


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
    Case("kernel-doc", "the member goes, its kernel-doc @kv_magic: line stays",
         CORRECT + ((HEADER, "typedef struct kern_vars_s {\n",
                     KERNEL_DOC + "typedef struct kern_vars_s {\n"),), True,
         frozenset({"kernel-doc"})),
    Case("header-user", "a file the patch does not touch still uses the member, unseen by grep",
         CORRECT, True, frozenset({"builds"}),
         before=((MEMORY, '#include "ip27-common.h"\n', '#include "ip27-common.h"\n' + USER),)),
)


def _edit(src: Path, case: Case, edits: Sequence[Edit]) -> None:
    for path, old, new in edits:
        text = (src / path).read_text()
        if old not in text:
            raise DemagicError(f"selftest {case.name}: {path} no longer has {old.strip()!r}")
        (src / path).write_text(text.replace(old, new, 1))


def write_prereq(src: Path, case: Case, out: Path) -> Optional[Path]:
    """The case's prerequisite as a patch in out (None without one); src is left as it was."""
    if not case.before:
        return None
    _edit(src, case, case.before)
    _commit(src, "mips: sgi-ip27: selftest prerequisite", f"selftest case {case.name}.")
    return _format(src, out, 1)


def _commit(src: Path, subject: str, body: str) -> None:
    run(["git", "-C", str(src), "commit", "-q", "-a", "-F", "-"], env=GIT_ENV,
        input_text=f"{subject}\n\n{body}\n\nSigned-off-by: demagic <demagic@localhost>\n")


def _format(src: Path, out: Path, count: int) -> Path:
    """The last count commits of src as patches in a fresh out."""
    shutil.rmtree(out, ignore_errors=True)
    out.mkdir(parents=True)
    run(["git", "-C", str(src), "format-patch", "-q", "-o", str(out), f"-{count}"], env=GIT_ENV)
    return out


def write_series(src: Path, case: Case, out: Path) -> Path:
    """Apply the case's edits on the pristine worktree src (with its prerequisite, when it
    has one), commit, format-patch to out."""
    _edit(src, case, case.edits)
    if case.doc_rows:
        res = run(["git", "-C", str(src), "grep", "-l", f"^{DOC_ROW}", "--", "Documentation"],
                  check=False)
        for rel in res.stdout.split():
            lines = (src / rel).read_text().split("\n")
            (src / rel).write_text("\n".join(ln for ln in lines if not ln.startswith(DOC_ROW)))
    _commit(src, "mips: sgi-ip27: remove KV_MAGIC", f"selftest case {case.name}: {case.what}.")
    if case.then:
        _edit(src, case, case.then)
        _commit(src, "mips: sgi-ip27: tidy up", f"selftest case {case.name}, second patch.")
    return _format(src, out, 2 if case.then else 1)


def main(base: Options) -> int:
    """Run every case; 0 only when each failed exactly where expected."""
    progress = Progress()
    tree = pristine(base.kdir, progress, base.tree)
    root = paths.BUILD / "verify" / tree.name / "selftest"
    bad: List[str] = []
    for case in CASES:
        # the broken series is written from the work copy, which verify then resets
        src = worktree(tree)
        prereq = write_prereq(src, case, root / case.name / "prereq")
        series = write_series(src, case, root / case.name / "series")
        progress.step(f"selftest {case.name}: {case.what}")
        opts = Options(kdir=base.kdir, series=Series.load(series), ref=None, jobs=base.jobs, fast=False,
                       state="selftest", quiet=True, prereq=prereq)
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
