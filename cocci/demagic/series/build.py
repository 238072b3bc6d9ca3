# SPDX-License-Identifier: GPL-2.0
"""make spatch: one commit per magic number on a work copy, then format-patch."""

from __future__ import annotations

import argparse
import hashlib
import os
import re
import shutil
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Dict, List, Optional, Sequence, Tuple

from demagic.core import paths
from demagic.core.paths import REPO_ROOT
from demagic.series import cover, mail as export, message
from demagic.kernel import leftovers, registry, texts, tree as trees
from demagic.core import lock
from demagic.model import patches
from demagic.rewrite import apply as rewrite
from demagic.scan import report as scanout
from demagic.scan.collect import Scan
from demagic.judge import scans
from demagic.kernel.texts import Texts
from demagic.model.candidate import Candidate, Verdict
from demagic.model.target import Target, group_name
from demagic.rewrite.targets import group, target_of
from demagic.core.proc import DemagicError, Progress, UsageError, cap_jobs, run

REPO = REPO_ROOT
FIXED_IDENTITY = ("demagic", "demagic@localhost")
VERSION = "0.5"
DATE = "2022-12-01T00:00:00+00:00"


@dataclass
class Entry:
    """One patch of the series, before it is committed."""
    macros: Tuple[str, ...]
    verdict: Verdict
    cands: List[Candidate]
    subject: str = ""
    files: int = 0
    removed: int = 0
    note: str = ""


@dataclass
class Summary:
    entries: List[Entry] = field(default_factory=list)
    skipped: List[str] = field(default_factory=list)
    warnings: List[str] = field(default_factory=list)
    review: List[Candidate] = field(default_factory=list)


def identity(fixed: bool) -> Tuple[str, str]:
    """The Signed-off-by identity: the user's git one, or the fixed one."""
    if fixed:
        return FIXED_IDENTITY
    name = run(["git", "config", "user.name"], check=False).stdout.strip()
    mail = run(["git", "config", "user.email"], check=False).stdout.strip()
    if not name or not mail:
        raise UsageError("no git identity: set git config user.name and user.email, or IDENTITY=")
    return name, mail


def git_env(who: Tuple[str, str], date: Optional[str] = None) -> Dict[str, str]:
    env = {"GIT_AUTHOR_NAME": who[0], "GIT_AUTHOR_EMAIL": who[1],
           "GIT_COMMITTER_NAME": who[0], "GIT_COMMITTER_EMAIL": who[1]}
    if date:
        env.update({"GIT_AUTHOR_DATE": date, "GIT_COMMITTER_DATE": date})
    return env


def commit(work: Path, subject: str, body: str, who: Tuple[str, str],
           paths: Sequence[str], date: Optional[str] = None) -> None:
    """Commit paths (changed or deleted) with a signed-off message (dated date, else now).

    With git's plumbing: porcelain git add and git commit each stat every file of
    the tree, a quarter of a second a commit on a kernel tree; only paths changed."""
    sob = f"Signed-off-by: {who[0]} <{who[1]}>"
    git = ["git", "-C", str(work)]
    run([*git, "update-index", "--add", "--remove", "--", *paths])
    tree = run([*git, "write-tree"]).stdout.strip()
    parent = run([*git, "rev-parse", "--verify", "HEAD"]).stdout.strip()
    new = run([*git, "commit-tree", tree, "-p", parent, "-F", "-"], env=git_env(who, date),
              input_text=cleanup(f"{subject}\n\n{body}\n\n{sob}\n")).stdout.strip()
    run([*git, "update-ref", "-m", f"commit: {subject}", "HEAD", new, parent])


def cleanup(message: str) -> str:
    """The message as git commit -F leaves it (--cleanup=whitespace): no trailing blanks,
    no blank lines at either end, runs of blank lines made one."""
    out: List[str] = []
    for line in message.split("\n"):
        line = line.rstrip()
        if line or (out and out[-1]):
            out.append(line)
    while out and not out[-1]:
        out.pop()
    return "\n".join(out) + "\n" if out else ""


def numstat(work: Path) -> Tuple[int, int, List[str]]:
    """files, lines removed and files by lines changed, of HEAD."""
    res = run(["git", "-C", str(work), "show", "--numstat", "--format=", "HEAD"])
    rows = []
    for line in res.stdout.splitlines():
        add, rem, name = line.split("\t")
        rows.append((int(add) + int(rem), int(rem), name))
    rows.sort(key=lambda r: (-r[0], r[2]))
    return len(rows), sum(r[1] for r in rows), [r[2] for r in rows]


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
                  parallel: bool = True) -> Summary:
    """One commit per magic (or group), and the registry's removal last.

    A candidate the scan discovered (no registry, no TARGETS) whose uses the
    rules cannot all rewrite, or whose rewrite leaves a reference to what it
    removes, is skipped and named as needing a manual fix; a registry entry
    or a named target the rules cannot rewrite fails the run."""
    with texts.pristine_greps(work, tree.base):
        return _write_commits(tree, work, cands, who, jobs, subdir, progress, discovered,
                              tools or tool_versions(), parallel)


def _write_commits(tree: trees.Tree, work: Path, cands: List[Candidate], who: Tuple[str, str],
                   jobs: int, subdir: Optional[str], progress: Progress, discovered: bool,
                   tools: message.Tools, parallel: bool) -> Summary:
    summary = Summary()
    reg = registry.files(work)
    pool = rewrite.grep_files(work, [c.macro for c in cands if c.verdict is not Verdict.KEEP]
                              or ["__demagic_none__"], subdir)
    dates = Dates(tree.debian)
    groups = group(cands)
    done = rewrite_all(work, [(target_of(m, cs) if cs[0].verdict is not Verdict.KEEP else None)
                              for m, cs in groups], jobs, subdir, pool, progress, parallel)
    grep = leftovers.Grep(work, _words_after(work, done))
    for (macros, group_cands), (target, outcome, touched) in zip(groups, done):
        entry = Entry(macros, group_cands[0].verdict, group_cands)
        name = group_name(macros)
        if target is None:
            if not reg:
                continue
            paths = registry.drop_rows(work, list(macros), reg)
            grep.touched(paths)
            body = message.keep_body(group_cands[0], paths)
            prefix = "Documentation"
        else:
            if outcome is None:     # shares a file with another target: its turn is now
                progress.step(f"{name}: {entry.verdict.value}")
                try:
                    outcome = rewrite.apply(work, target, jobs, subdir, pool)
                except rewrite.SpatchError as exc:
                    outcome = exc
                grep.touched(touched)
                if isinstance(outcome, rewrite.Result):
                    grep.touched(outcome.files)
            if isinstance(outcome, rewrite.ResidueError):
                if not discovered:
                    raise outcome
                _skip_manual(work, summary, name, str(outcome), touched)
                grep.touched(touched)
                continue
            if isinstance(outcome, BaseException):
                raise outcome
            result = outcome
            if result.manual:
                _skip_manual(work, summary, name, "; ".join(result.manual), touched)
                grep.touched(touched)
                continue
            if not result.files:
                summary.skipped.append(f"{name}: nothing to rewrite")
                continue
            rows = registry.drop_rows(work, list(macros), reg)
            grep.touched(rows)
            paths = result.files + rows
            change = read_change(work, paths, rows)
            left, _notes = leftovers.check(work, change.removed, grep)
            if left:
                _skip_manual(work, summary, name, "the rewrite leaves " + "; ".join(left[:3]),
                             touched + rows)
                grep.touched(touched + rows)
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
    if reg and summary.entries and not registry.entries(work):
        paths = registry.remove_all(work)
        commit(work, "Documentation: remove magic-number.rst", message.removal_body(reg), who,
               paths, dates.next())
        files, removed, _ = numstat(work)
        summary.entries.append(Entry((), Verdict.KEEP, [], "Documentation: remove magic-number.rst",
                                     files, removed, "registry:" + reg[0]))
    return summary


class Dates:
    """Commit dates: for a reproducible series (one of Debian's trees) a fixed start
    and a minute more per patch, so mail clients keep the order; else now."""

    def __init__(self, fixed: bool) -> None:
        self.fixed = fixed
        self.count = 0

    def next(self) -> Optional[str]:
        if not self.fixed:
            return None
        self.count += 1
        return f"{DATE[:11]}{self.count // 60:02d}:{self.count % 60:02d}:00{DATE[19:]}"


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
    return message.Tools(f"spatch {m.group(1) if m else first}", f"demagic {VERSION}", rules)


MANUAL = "needs a manual fix"


def _skip_manual(work: Path, summary: Summary, name: str, why: str,
                 files: Sequence[str]) -> None:
    """Undo the rewrite of name (its files) and record why it is left for a human."""
    if files:
        run(["git", "-C", str(work), "checkout", "-q", "--", *files])
    summary.skipped.append(f"{name}: {MANUAL}: {why}")


Done = Tuple[Optional[Target], "rewrite.Result | BaseException | None", List[str]]


def rewrite_all(work: Path, targets: Sequence[Optional[Target]], jobs: int,
                subdir: Optional[str], pool: Sequence[str], progress: Progress,
                parallel: bool = True) -> List[Done]:
    """Rewrite the tree ahead of the commits for every target (None: a documentation-only
    entry) that shares no file with another: (target, its Result or the error it raised,
    the files it may change).  Those run side by side (parallel=False: one after the
    other); each writes only the files that name it, so the tree ends as the sequential
    rewrite would leave it.  A target that shares a file with another gets None: the
    commit loop rewrites it in its turn, after the commit of the one before."""
    files = [sorted(set(rewrite.mentioning(work, pool, t.macros))
                    | ({t.header} if t.header and (work / t.header).exists() else set()))
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
            out[i] = (target, rewrite.apply(work, target, jobs, subdir, pool), files[i])
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


def cover_facts(tree: trees.Tree, summary: Summary, scope: str, tools: message.Tools,
                reports: Optional[Path], digest: str, series: str) -> cover.Facts:
    entries = [cover.Entry(e.macros, e.verdict, e.subject, e.files, e.removed,
                           e.note.split(":", 1)[1] if e.note.startswith("registry:") else "")
               for e in summary.entries]
    manual = [line for line in summary.skipped if f": {MANUAL}: " in line]
    return cover.Facts(tree, scope, entries, manual, summary.review, reports, digest, series,
                       tools)


def _union(mailed: Sequence[export.Mailed]) -> export.Mailed:
    to = tuple(dict.fromkeys(w for m in mailed for w in m.to))
    cc = tuple(dict.fromkeys(w for m in mailed for w in m.cc if w not in to))
    return export.Mailed(to, cc)


def _gone(macros: Sequence[str], cands: Sequence[Candidate]) -> List[Candidate]:
    """Registry rows whose macro the code no longer has: doc-only entries."""
    have = {c.macro for c in cands}
    return [Candidate(m, "", None, "", "", "", verdict=Verdict.KEEP,
                      reason="it is no longer defined anywhere in the tree")
            for m in macros if m not in have]


SCOPES = ("registry", "all")


@dataclass
class Plan:
    """What a series is made of: the candidates in order, and what is left out."""
    cands: List[Candidate]
    review: List[Candidate]
    whole: Scan          # the scan of the tree (or M=), written beside the series
    scope: str


def default_scope(tree: trees.Tree) -> str:
    """The registry's own tree reproduces the 2022 series; any other gets everything."""
    return "registry" if tree.name == trees.DEFAULT_NAME and tree.debian else "all"


def plan(tree: trees.Tree, work: Path, targets: Sequence[str], subdir: Optional[str],
         jobs: int, progress: Progress, scope: str) -> Plan:
    """Scan the tree and choose the series: TARGETS=, or the registry's rows (scope
    registry), or those and every other remove or flag verdict (scope all)."""
    progress.step(f"scanning {tree.name}" + (f"/{subdir}" if subdir else ""))
    whole = scans.cached(tree.base, work, subdir, None, jobs, progress)
    rows = [e.macro for e in registry.entries(work)]
    wanted = list(targets) or rows
    named: List[Candidate] = []
    if wanted:
        progress.step(f"judging {len(wanted)} named magic numbers")
        named = scans.cached(tree.base, work, subdir, wanted, jobs, progress).cands
    if targets:
        missing = [t for t in targets if t not in {c.macro for c in named}]
        if missing and len(missing) == len(targets):
            raise UsageError(f"TARGETS: {', '.join(missing)} not found in {tree.name}")
        for gone in missing:
            progress.step(f"{gone}: not in {tree.name} (already gone?)")
        return Plan(named, [c for c in named if c.verdict is Verdict.REVIEW], whole, scope)
    order = {m: i for i, m in enumerate(rows)}
    cands = sorted(named + _gone(rows, named), key=lambda c: order[c.macro])
    review = [c for c in cands if c.verdict is Verdict.REVIEW]
    cands = [c for c in cands if c.verdict is not Verdict.REVIEW]
    if scope == "all":
        known = {c.macro for c in cands}
        cands += [c for c in whole.cands if c.macro not in known
                  and c.verdict in (Verdict.REMOVE, Verdict.FLAG)]
        review += [c for c in whole.cands if c.macro not in known and c.verdict is Verdict.REVIEW]
    return Plan(cands, review, whole, scope)


def build(kdir: Optional[Path], out: Optional[Path], targets: Sequence[str],
          subdir: Optional[str], jobs: int, who: Optional[Tuple[str, str]],
          tree_name: str = trees.DEFAULT_NAME, scope: str = "",
          reports: Optional[Path] = None, parallel: bool = True) -> Path:
    """The whole of make spatch; returns the series directory."""
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
                            or chosen.scope == "all", tools=tools, parallel=parallel)
    summary.review = chosen.review
    dest = (out or REPO / "generated-patches" / tree.name).resolve()
    tmp = dest.with_name(f".{dest.name}.new")
    shutil.rmtree(tmp, ignore_errors=True)
    tmp.mkdir(parents=True)
    (tmp / "scan.txt").write_text(scanout.format_text(chosen.whole, Texts(work)))
    for line in summary.skipped:
        print(f"  skipped {line}")
    for c in summary.review:
        print(f"  review {c.macro}: {c.reason}")
    if not summary.entries:
        progress.step(f"no magic numbers left to retire in {tree.name}: the series is empty")
        export.replace_dir(tmp, dest)
        return dest
    progress.step(f"format-patch, get_maintainer.pl and checkpatch.pl on "
                  f"{len(summary.entries)} patches")
    written = export.format_series(work, tree.base, tmp, signer,
                                   base_commit=tree.has_history and not tree.dirty)
    letter, numbered = written[0], written[1:]
    state = export.tree_state(work)
    mailed = export.mail_all(work, numbered, jobs, state)
    digest = patches.series_digest(numbered)
    for number, patch in enumerate(numbered, 1):
        export.add_headers(patch, mailed[patch], digest, number)
    facts = cover_facts(tree, summary, chosen.scope, tools, reports or dest, digest,
                        shown(reports or dest))
    export.fill_cover(letter, "remove the remaining magic numbers", cover.blurb(facts),
                      _union(list(mailed.values())), rfc2822(DATE) if tree.debian else None,
                      digest)
    problems = []
    for patch, (errors, warnings) in export.style_all(work, numbered, jobs, state).items():
        problems += [f"{patch.name}: {e}" for e in errors]
        summary.warnings += [f"{patch.name}: {w}" for w in warnings]
    if problems:
        shutil.rmtree(tmp)
        raise DemagicError("checkpatch.pl errors, series not written: " + "; ".join(problems[:3]))
    for line in summary.warnings:
        print(f"  checkpatch {line}")
    export.replace_dir(tmp, dest)
    progress.step(f"wrote {len(numbered)} patches and a cover letter to {dest}")
    return dest


def rfc2822(iso: str) -> str:
    """An ISO date as git format-patch writes Date: (Thu, 1 Dec 2022 00:00:00 +0000)."""
    return datetime.fromisoformat(iso).strftime("%a, %-d %b %Y %H:%M:%S %z")


def shown(path: Path) -> str:
    """A path as the user would type it: relative to the project when inside it."""
    try:
        return str(path.resolve().relative_to(REPO))
    except ValueError:
        return str(path)


def parse_identity(text: str) -> Tuple[str, str]:
    m = re.match(r"^\s*(.+?)\s*<([^<>@\s]+@[^<>\s]+)>\s*$", text)
    if not m:
        raise UsageError(f"IDENTITY={text}: expected 'Name <mail@host>'")
    return m.group(1), m.group(2)


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = argparse.ArgumentParser(prog="demagic spatch", description=__doc__)
    parser.add_argument("--kdir", type=Path, help="kernel tree (default: Debian linux-source-6.1)")
    parser.add_argument("--tree", default=trees.DEFAULT_NAME,
                        help=f"without --kdir, one of Debian's trees: {', '.join(trees.DEBIAN_TREES)}")
    parser.add_argument("--scope", choices=SCOPES, help="registry: only the registry's entries "
                        "(the default for linux-6.1, which reproduces the 2022 series); all: "
                        "every remove and flag verdict too (the default elsewhere)")
    parser.add_argument("--out", type=Path, help="series directory")
    parser.add_argument("--targets", default="", help="space-separated magic macros")
    parser.add_argument("--subdir", help="limit to this subdirectory (M=)")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--identity", help="'Name <mail>' for Signed-off-by")
    args = parser.parse_args(argv)
    who = parse_identity(args.identity) if args.identity else None
    name = trees.check_tree_name(args.tree)
    check_out(args.kdir, args.out)
    with lock.holding(trees.tree_key(args.kdir, name), "make spatch"):
        build(args.kdir, args.out, args.targets.split(), args.subdir, cap_jobs(args.jobs), who,
              name, args.scope or "")
    return 0


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


def check_main(argv: Optional[Sequence[str]] = None) -> int:
    parser = argparse.ArgumentParser(prog="demagic check-series", description=check.__doc__)
    parser.add_argument("--series", type=Path, required=True)
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    args = parser.parse_args(argv)
    with lock.holding(args.series.resolve().name, "check-series"):
        return check(args.series, cap_jobs(args.jobs))
