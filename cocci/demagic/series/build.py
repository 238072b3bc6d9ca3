# SPDX-License-Identifier: GPL-2.0
"""make spatch: the series for a tree, from the scan to the mails, written whole; and the
check that a committed series regenerates byte for byte."""

from __future__ import annotations

import shutil
from dataclasses import dataclass, field
from pathlib import Path
from typing import List, Optional, Sequence, Tuple

from demagic.core import paths
from demagic.core.errors import DemagicError, UsageError
from demagic.core.files import swap_dir, temporary
from demagic.core.paths import REPO_ROOT
from demagic.core.proc import Progress, run
from demagic.kernel import registry, tree as trees
from demagic.kernel.source import Texts
from demagic.model import patches
from demagic.scan import report as scanout
from demagic.series import cover, mail as export, message, proof
from demagic.series.commits import DATE, identity, rfc2822
from demagic.series.plan import default_scope, plan
from demagic.series.write import MANUAL, Entry, Summary, tool_versions, write_commits

REPO = REPO_ROOT
# the reports beside a series (scan, verify, boot-test) that a new series keeps
REPORTS = (".txt", ".md", ".json")


@dataclass(frozen=True)
class Written:
    """A numbered patch of a written series, and the entry it was made from."""
    path: Path
    entry: Entry


@dataclass
class Built:
    """What build() wrote: the series directory and its numbered patches, in order."""
    dest: Path
    patches: List[Written] = field(default_factory=list)


def cover_facts(tree: trees.Tree, summary: Summary, scope: str, tools: message.Tools,
                series: str, found: proof.Proof) -> cover.Facts:
    manual = [line for line in summary.skipped if f": {MANUAL}: " in line]
    return cover.Facts(tree, scope, summary.entries, manual, summary.review, series, tools,
                       found)


def _union(mailed: Sequence[export.Mailed]) -> export.Mailed:
    to = tuple(dict.fromkeys(w for m in mailed for w in m.to))
    cc = tuple(dict.fromkeys(w for m in mailed for w in m.cc if w not in to))
    return export.Mailed(to, cc)


def build(kdir: Optional[Path], out: Optional[Path], targets: Sequence[str],
          subdir: Optional[str], jobs: int, who: Optional[Tuple[str, str]],
          tree_name: str = trees.DEFAULT_NAME, scope: str = "",
          reports: Optional[Path] = None, parallel: bool = True,
          registry_last: bool = True) -> Built:
    """The whole of make spatch; returns the series directory and its patches.  reports:
    where the proofs are, and the series as the cover letter names it (default: out);
    registry_last False: no patch deletes the registry (see write_commits)."""
    progress = Progress()
    tree = trees.pristine(kdir, progress, tree_name)
    signer = who or identity(fixed=tree.debian)
    work = trees.worktree(tree)
    if subdir and not (work / subdir).is_dir():
        raise UsageError(f"M={subdir}: no such directory in {tree.name}")
    chosen = plan(tree, work, targets, subdir, jobs, progress, scope or default_scope(tree))
    tools = tool_versions()
    summary = write_commits(tree, work, chosen.cands, signer, jobs, subdir, progress,
                            discovered=not targets and not registry.entries(work)
                            or chosen.scope == "all", tools=tools, parallel=parallel,
                            registry_last=registry_last)
    summary.review = chosen.review
    dest = (out or REPO / "generated-patches" / tree.name).resolve()
    if dest.exists() and not dest.is_dir():
        raise UsageError(f"OUT={dest}: not a directory")
    tmp = temporary(dest)
    shutil.rmtree(tmp, ignore_errors=True)
    tmp.mkdir(parents=True)
    (tmp / "scan.txt").write_text(scanout.format_text(chosen.whole, Texts(work)))
    for line in summary.skipped:
        print(f"  skipped {line}")
    for c in summary.review:
        print(f"  review {c.macro}: {c.reason}")
    if not summary.entries:
        progress.step(f"no magic numbers left to retire in {tree.name}: the series is empty")
        swap_dir(tmp, dest, REPORTS)
        return Built(dest)
    progress.step(f"format-patch, get_maintainer.pl and checkpatch.pl on "
                  f"{len(summary.entries)} patches")
    written = export.format_series(work, tree.base, tmp, signer,
                                   base_commit=tree.has_history and not tree.dirty)
    letter, numbered = written[0], written[1:]
    state = export.tree_state(work)
    mailed = export.mail_all(work, numbered, jobs, state)
    digest = patches.series_digest(numbered)
    found = proof.load(reports or dest, digest, REPO_ROOT)
    for number, patch in enumerate(numbered, 1):
        export.add_headers(patch, mailed[patch], digest, number)
        export.tag_subject(patch, export.tree_tag(patch, mailed[patch]))
        export.add_notes(patch, proof.patch_notes(found, number))
    facts = cover_facts(tree, summary, chosen.scope, tools, shown(reports or dest), found)
    export.fill_cover(letter, cover.subject(facts), cover.blurb(facts),
                      _union(list(mailed.values())), rfc2822(DATE) if tree.debian else None,
                      digest)
    problems = []
    for findings in export.style_all(work, numbered, jobs, state).values():
        problems += [str(f) for f in findings if f.error]
        summary.warnings += [str(f) for f in findings if not f.error]
    if problems:
        shutil.rmtree(tmp)
        raise DemagicError("checkpatch.pl errors, series not written: " + "; ".join(problems[:3]))
    for line in summary.warnings:
        print(f"  checkpatch {line}")
    swap_dir(tmp, dest, REPORTS)
    progress.step(f"wrote {len(numbered)} patches and a cover letter to {dest}")
    # one commit per entry, so one patch per entry, in order
    return Built(dest, [Written(dest / p.name, e) for p, e in zip(numbered, summary.entries)])


def shown(path: Path) -> str:
    """A path as the user would type it: relative to the project when inside it."""
    try:
        return str(path.resolve().relative_to(REPO))
    except ValueError:
        return str(path)


def check_out(kdir: Optional[Path], out: Optional[Path]) -> None:
    """OUT= must not be inside the user's tree: demagic never writes there."""
    if kdir is None or out is None:
        return
    k, o = kdir.resolve(), out.resolve()
    if o == k or k in o.parents:
        raise UsageError(f"OUT={out} is inside KDIR={kdir}: demagic never writes into your tree; "
                         "choose a directory outside it")


def check(series: Path, jobs: int) -> int:
    """Regenerate a committed series (generated-patches/<tree>/, of one of Debian's
    trees) and its scan.txt, and compare, byte for byte."""
    fresh = paths.BUILD / "check" / series.name
    build(None, fresh, [], None, jobs, None, trees.check_tree_name(series.name), reports=series)
    want = {p.name: p for p in list(series.glob("*.patch")) + list(series.glob("scan.txt"))}
    got = {p.name: p for p in list(fresh.glob("*.patch")) + list(fresh.glob("scan.txt"))}
    bad = sorted(n for n in set(want) | set(got)
                 if n not in want or n not in got or want[n].read_bytes() != got[n].read_bytes())
    for name in bad:
        print(f"series: {name} differs from the committed series"
              f" ({'missing' if name not in got else 'extra' if name not in want else 'changed'})")
        if name in want and name in got:
            res = run(["diff", "-u", str(want[name]), str(got[name])], check=False)
            print("\n".join(res.stdout.splitlines()[:40]))
    print(f"series: {len(want) - len([b for b in bad if b in want])} passed, {len(bad)} failed")
    return 1 if bad or not want else 0
