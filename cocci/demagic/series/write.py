# SPDX-License-Identifier: GPL-2.0
"""One commit per magic number (or group sharing a field), and the registry's removal last."""

from __future__ import annotations

import hashlib
import re
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Dict, List, Optional, Sequence, Tuple

from demagic.core.proc import Progress, run
from demagic.kernel import leftovers, registry, tree as trees
from demagic.kernel.grep import Grep, WordIndex
from demagic.model import patches
from demagic.model.candidate import Candidate, Verdict
from demagic.model.target import Target, group_name
from demagic.rewrite import apply as rewrite
from demagic.rewrite.targets import group, target_of
from demagic.series import message
from demagic.series.commits import Dates, commit, numstat

VERSION = "0.5"


@dataclass
class Entry:
    """One patch of the series, before it is committed."""
    macros: Tuple[str, ...]
    verdict: Verdict
    cands: List[Candidate]
    subject: str = ""
    files: int = 0
    removed: int = 0
    registry: str = ""       # the registry file, for the patch that deletes it


@dataclass
class Summary:
    entries: List[Entry] = field(default_factory=list)
    skipped: List[str] = field(default_factory=list)
    warnings: List[str] = field(default_factory=list)
    review: List[Candidate] = field(default_factory=list)


def _subject(prefix: str, entry: Entry, flag: str) -> str:
    name = group_name(entry.macros)
    if entry.verdict is Verdict.KEEP:
        return f"Documentation: remove {name} (not a magic number)"
    if entry.verdict is Verdict.FLAG:
        return f"{prefix}: replace {name} with bool {flag}"
    return f"{prefix}: remove {name}"


def write_commits(tree: trees.Tree, work: Path, cands: List[Candidate], who: Tuple[str, str],
                  jobs: int, subdir: Optional[str], progress: Progress,
                  discovered: bool = False, tools: Optional[message.Tools] = None,
                  parallel: bool = True, registry_last: bool = True) -> Summary:
    """One commit per magic (or group), and the registry's removal last (registry_last
    False: never; a series split per tree leaves it out, it depends on every one).

    A candidate the scan discovered (no registry, no TARGETS) whose uses the
    rules cannot all rewrite, or whose rewrite leaves a reference to what it
    removes, is skipped and named as needing a manual fix; a registry entry
    or a named target the rules cannot rewrite fails the run."""
    # the rewrites and leftover checks grep the work copy as the pristine tree's greps with
    # the files that differ now grepped again
    return _write_commits(tree, work, cands, who, jobs, subdir, progress, discovered,
                          tools or tool_versions(), parallel, Grep(work, tree.base),
                          registry_last)


def _write_commits(tree: trees.Tree, work: Path, cands: List[Candidate], who: Tuple[str, str],
                   jobs: int, subdir: Optional[str], progress: Progress, discovered: bool,
                   tools: message.Tools, parallel: bool, grep: Grep,
                   registry_last: bool = True) -> Summary:
    summary = Summary()
    reg = registry.files(work)
    registered = registry.entries(work) if reg else []
    pool = rewrite.grep_files(grep, [c.macro for c in cands if c.verdict is not Verdict.KEEP]
                              or ["__demagic_none__"], subdir)
    dates = Dates(tree.debian)
    groups = group(cands)
    done = rewrite_all(work, [(target_of(m, cs) if cs[0].verdict is not Verdict.KEEP else None)
                              for m, cs in groups], jobs, subdir, pool, progress, grep, parallel)
    index = WordIndex(grep, _words_after(work, done))
    for (macros, group_cands), (target, outcome, touched) in zip(groups, done):
        entry = Entry(macros, group_cands[0].verdict, group_cands)
        name = group_name(macros)
        if target is None:
            if not reg:
                continue
            paths = registry.drop_rows(work, list(macros), reg)
            if not paths:       # a keep the registry does not list: nothing to change
                summary.skipped.append(f"{name}: keep: {group_cands[0].reason}")
                continue
            index.touched(paths)
            body = message.keep_body(group_cands[0], paths, registered)
            prefix = "Documentation"
        else:
            if outcome is None:     # shares a file with another target: its turn is now
                progress.step(f"{name}: {entry.verdict.value}")
                try:
                    outcome = rewrite.apply(work, target, jobs, subdir, pool, grep)
                except rewrite.SpatchError as exc:
                    outcome = exc
                index.touched(touched)
                if isinstance(outcome, rewrite.Result):
                    index.touched(outcome.files)
            if isinstance(outcome, rewrite.ResidueError):
                if not discovered:
                    raise outcome
                _skip_manual(work, summary, name, str(outcome), touched)
                index.touched(touched)
                continue
            if isinstance(outcome, BaseException):
                raise outcome
            result = outcome
            if result.manual:
                _skip_manual(work, summary, name, "; ".join(result.manual), touched)
                index.touched(touched)
                continue
            if not result.files:
                summary.skipped.append(f"{name}: nothing to rewrite")
                continue
            rows = registry.drop_rows(work, list(macros), reg)
            index.touched(rows)
            paths = result.files + rows
            change = read_change(work, paths, rows)
            left, _notes = leftovers.check(work, change.removed, index)
            if left:
                _skip_manual(work, summary, name, "the rewrite leaves " + "; ".join(left[:3]),
                             touched + rows)
                index.touched(touched + rows)
                continue
            size = {f.path: len(f.lines) for f in change.patch.files}   # lines added and removed
            prefix = message.prefix_for(work, sorted(result.files, key=lambda f: -size.get(f, 0)),
                                        tree.has_history)
            body = message.body(target, group_cands, result, change, tools,
                                rewrite.RULE_OF[target.verdict])
        entry.subject = _subject(prefix, entry, group_cands[0].evidence.flag_name or
                                 group_cands[0].field)
        commit(work, entry.subject, body, who, paths, dates.next())
        entry.files, entry.removed, _ = numstat(work)
        summary.entries.append(entry)
    if registry_last and reg and summary.entries and not registry.entries(work):
        paths = registry.remove_all(work)
        commit(work, "Documentation: remove magic-number.rst", message.removal_body(reg), who,
               paths, dates.next())
        files, removed, _ = numstat(work)
        summary.entries.append(Entry((), Verdict.KEEP, [], "Documentation: remove magic-number.rst",
                                     files, removed, reg[0]))
    return summary


def read_change(work: Path, paths: Sequence[str], rows: Sequence[str]) -> message.Change:
    """The uncommitted change of paths, parsed once: for the leftover check and the message."""
    diff = run(["git", "-C", str(work), "diff", "HEAD", "--", *paths]).stdout
    patch = patches.parse_text(diff, Path("(rewrite)"))

    def old_text(rel: str) -> str:
        res = run(["git", "-C", str(work), "show", f"HEAD:{rel}"], check=False)
        return res.stdout if res.returncode == 0 else ""

    return message.Change(patch, patches.removed_identifiers(patch, old_text), list(rows))


def tool_versions() -> message.Tools:
    """spatch's version, demagic's, and a short digest of each rule."""
    first = run(["spatch", "--version"]).stdout.splitlines()[0]
    m = re.search(r"version (\S+)", first)
    rules = {r.name: hashlib.sha256(r.read_bytes()).hexdigest()[:12]
             for r in rewrite.RULE_OF.values()}
    version = run(["unifdef", "-V"])
    unifdef = version.stdout + version.stderr       # unifdef prints its version on stderr
    v = re.search(r"unifdef-(\S+)", unifdef)
    return message.Tools(f"spatch {m.group(1) if m else first}", f"demagic {VERSION}", rules,
                         f"unifdef {v.group(1) if v else unifdef.strip()}")


MANUAL = "needs a manual fix"


def _skip_manual(work: Path, summary: Summary, name: str, why: str,
                 files: Sequence[str]) -> None:
    """Undo the rewrite of name (its files) and record why it is left for a human."""
    if files:
        run(["git", "-C", str(work), "checkout", "-q", "--", *files])
    summary.skipped.append(f"{name}: {MANUAL}: {why}")


Done = Tuple[Optional[Target], "rewrite.Result | BaseException | None", List[str]]


def rewrite_all(work: Path, targets: Sequence[Optional[Target]], jobs: int,
                subdir: Optional[str], pool: Sequence[str], progress: Progress, grep: Grep,
                parallel: bool = True) -> List[Done]:
    """Rewrite the tree ahead of the commits for every target (None: a documentation-only
    entry) that shares no file with another: (target, its Result or the error it raised,
    the files it may change).  Those run side by side (parallel=False: one after the
    other); each writes only the files that name it, so the tree ends as the sequential
    rewrite would leave it.  A target that shares a file with another gets None: the
    commit loop rewrites it in its turn, after the commit of the one before."""
    files = [sorted(set(rewrite.mentioning(work, pool, t.macros))
                    | ({t.header} if t.header and (work / t.header).exists() else set())
                    | set(rewrite.grep_files(grep, [t.switch, *t.noops]) if t.switch else []))
             if t is not None else [] for t in targets]
    users: Dict[str, int] = {}
    for fs in files:
        for f in fs:
            users[f] = users.get(f, 0) + 1
    alone = [i for i, t in enumerate(targets)
             if t is not None and all(users[f] == 1 for f in files[i])]
    out: List[Done] = [(t, None, fs) for t, fs in zip(targets, files)]

    def rewrite_one(i: int) -> None:
        target = targets[i]
        assert target is not None
        progress.step(f"{group_name(target.macros)}: {target.verdict.value}")
        try:
            out[i] = (target, rewrite.apply(work, target, jobs, subdir, pool, grep), files[i])
        except rewrite.SpatchError as exc:
            out[i] = (target, exc, files[i])

    with ThreadPoolExecutor(max_workers=max(1, jobs) if parallel else 1) as ex:
        for fut in [ex.submit(rewrite_one, i) for i in alone]:
            fut.result()
    return out


def _words_after(work: Path, done: Sequence[Done]) -> List[str]:
    """Every word the leftover checks of this run may ask about: the targets' macros and
    what the rewrites made so far remove (one diff over all their files)."""
    words = {m for target, _, _ in done if target is not None for m in target.macros}
    files = sorted({f for _, outcome, _ in done if isinstance(outcome, rewrite.Result)
                    for f in outcome.files})
    if files:
        words.update(leftovers.words_of(read_change(work, files, []).removed))
    return sorted(words)
