# SPDX-License-Identifier: GPL-2.0
"""make spatch: one commit per magic number on a work copy, then format-patch."""

from __future__ import annotations

import argparse
import os
import re
import shutil
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Dict, List, Optional, Sequence, Tuple

from demagic import export, message, registry, rewrite, scan, tree as trees
from demagic.model import Candidate, Verdict
from demagic.proc import DemagicError, Progress, UsageError, run

REPO = trees.REPO_ROOT
FIXED_IDENTITY = ("demagic", "demagic@localhost")
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


def identity(fixed: bool) -> Tuple[str, str]:
    """The Signed-off-by identity: the user's git one, or the fixed one."""
    if fixed:
        return FIXED_IDENTITY
    name = run(["git", "config", "user.name"], check=False).stdout.strip()
    mail = run(["git", "config", "user.email"], check=False).stdout.strip()
    if not name or not mail:
        raise UsageError("no git identity: set git config user.name and user.email, or IDENTITY=")
    return name, mail


def git_env(who: Tuple[str, str]) -> Dict[str, str]:
    return {"GIT_AUTHOR_NAME": who[0], "GIT_AUTHOR_EMAIL": who[1],
            "GIT_COMMITTER_NAME": who[0], "GIT_COMMITTER_EMAIL": who[1],
            "GIT_AUTHOR_DATE": DATE, "GIT_COMMITTER_DATE": DATE}


def group(cands: Sequence[Candidate]) -> List[Tuple[Tuple[str, ...], List[Candidate]]]:
    """Macros that share a struct and field make one patch, in first-seen order."""
    out: Dict[Tuple[str, str, str, str], List[Candidate]] = {}
    for c in cands:
        key = (c.struct, c.field, c.header, c.verdict.value) if c.verdict is not Verdict.KEEP \
            else (c.macro, "", "", "keep")
        out.setdefault(key, []).append(c)
    return [(tuple(c.macro for c in cs), cs) for cs in out.values()]


def commit(work: Path, subject: str, body: str, who: Tuple[str, str],
           paths: Sequence[str]) -> None:
    """Commit paths (changed or deleted) with a signed-off message."""
    sob = f"Signed-off-by: {who[0]} <{who[1]}>"
    run(["git", "-C", str(work), "add", "-f", "-A", "--", *paths])
    run(["git", "-C", str(work), "commit", "-q", "--no-verify", "-F", "-"],
        env=git_env(who), input_text=f"{subject}\n\n{body}\n\n{sob}\n")


def numstat(work: Path) -> Tuple[int, int, List[str]]:
    """files, lines removed and files by lines changed, of HEAD."""
    res = run(["git", "-C", str(work), "show", "--numstat", "--format=", "HEAD"])
    rows = []
    for line in res.stdout.splitlines():
        add, rem, name = line.split("\t")
        rows.append((int(add) + int(rem), int(rem), name))
    rows.sort(key=lambda r: (-r[0], r[2]))
    return len(rows), sum(r[1] for r in rows), [r[2] for r in rows]


def _target(macros: Tuple[str, ...], cands: List[Candidate]) -> rewrite.Target:
    c = cands[0]
    return rewrite.Target(macros, c.struct, c.field, c.header, c.verdict,
                          c.evidence.flag_name or c.field)


def _subject(prefix: str, entry: Entry, flag: str) -> str:
    name = message.group_name(entry.macros)
    if entry.verdict is Verdict.KEEP:
        return f"Documentation: remove {name} (not a magic number)"
    if entry.verdict is Verdict.FLAG:
        return f"{prefix}: replace {name} with bool {flag}"
    return f"{prefix}: remove {name}"


def write_commits(tree: trees.Tree, work: Path, cands: List[Candidate], who: Tuple[str, str],
                  jobs: int, subdir: Optional[str], progress: Progress,
                  discovered: bool = False) -> Summary:
    """One commit per magic (or group), and the registry's removal last.

    A candidate the scan discovered (no registry, no TARGETS) whose uses the
    rules cannot all rewrite is skipped and named as needing a manual fix; a
    registry entry or a named target in that state fails the run."""
    summary = Summary()
    has_registry = bool(registry.files(work))
    pool = rewrite.grep_files(work, [c.macro for c in cands if c.verdict is not Verdict.KEEP]
                              or ["__demagic_none__"], subdir)
    for macros, group_cands in group(cands):
        entry = Entry(macros, group_cands[0].verdict, group_cands)
        name = message.group_name(macros)
        if entry.verdict is Verdict.KEEP:
            if not has_registry:
                continue
            paths = registry.drop_rows(work, list(macros))
            body = message.keep_body(group_cands[0])
            prefix = "Documentation"
        else:
            target = _target(macros, group_cands)
            progress.step(f"{name}: {entry.verdict.value}")
            try:
                result = rewrite.apply(work, target, jobs, subdir, pool)
            except rewrite.ResidueError as exc:
                if not discovered:
                    raise
                _skip_manual(work, summary, name, str(exc))
                continue
            if result.manual:
                _skip_manual(work, summary, name, "; ".join(result.manual))
                continue
            if not result.files:
                summary.skipped.append(f"{name}: nothing to rewrite")
                continue
            prefix = message.prefix_for(work, sorted(result.files, key=lambda f: -_changed(work, f)),
                                        tree.has_history)
            paths = result.files + registry.drop_rows(work, list(macros))
            body = message.body(target, group_cands, result, rewrite.RULE_OF[target.verdict])
        entry.subject = _subject(prefix, entry, group_cands[0].evidence.flag_name)
        commit(work, entry.subject, body, who, paths)
        entry.files, entry.removed, _ = numstat(work)
        summary.entries.append(entry)
    if has_registry and summary.entries and not registry.entries(work):
        paths = registry.remove_all(work)
        commit(work, "Documentation: remove magic-number.rst", message.REMOVAL_BODY, who, paths)
        files, removed, _ = numstat(work)
        summary.entries.append(Entry((), Verdict.KEEP, [], "Documentation: remove magic-number.rst",
                                     files, removed, "registry"))
    return summary


MANUAL = "needs a manual fix"


def _skip_manual(work: Path, summary: Summary, name: str, why: str) -> None:
    """Undo the rewrite of name and record why it is left for a human."""
    run(["git", "-C", str(work), "checkout", "-q", "--", "."])
    summary.skipped.append(f"{name}: {MANUAL}: {why}")


def _changed(work: Path, rel: str) -> int:
    res = run(["git", "-C", str(work), "diff", "--numstat", "--", rel], check=False)
    parts = res.stdout.split()
    return int(parts[0]) + int(parts[1]) if len(parts) >= 2 and parts[0].isdigit() else 0


def cover_blurb(tree: trees.Tree, summary: Summary) -> str:
    """The cover letter's text: what, how many, and the summary table."""
    by = {v: [e for e in summary.entries if e.verdict is v and e.cands] for v in Verdict}
    parts = [f"{len(by[Verdict.REMOVE])} removed", f"{len(by[Verdict.FLAG])} turned into a bool"]
    keeps = [message.group_name(e.macros) for e in by[Verdict.KEEP]]
    text = (f"This series retires the magic numbers of Linux {tree.version}: "
            + ", ".join(parts)
            + (f", and {len(keeps)} that were never magic numbers leave the registry "
               f"({', '.join(keeps)})" if keeps else "") + ".")
    if any(e.note == "registry" for e in summary.entries):
        text += " The last patch removes Documentation/process/magic-number.rst itself."
    paras = [message._flow(text), message._flow(
        "Each patch was made by demagic's semantic patches (cocci/*.cocci), one "
        "magic number at a time; its message says where the magic was set and "
        "how it was checked.")]
    rows = [f"{'magic':<28} {'verdict':<8} {'files':>5} {'lines removed':>13}",
            f"{'-' * 28} {'-' * 8} {'-' * 5} {'-' * 13}"]
    for e in summary.entries:
        name = message.group_name(e.macros) if e.macros else "magic-number.rst"
        verdict = "registry" if e.note == "registry" else e.verdict.value
        rows.append(f"{name:<28} {verdict:<8} {e.files:>5} {e.removed:>13}")
    paras.append("\n".join(rows))
    manual = [line for line in summary.skipped if f": {MANUAL}: " in line]
    if manual:
        paras.append("Not in this series, for a manual fix:\n" +
                     "\n".join(f"  {line}" for line in manual))
    return "\n\n".join(paras)


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


def build(kdir: Optional[Path], out: Optional[Path], targets: Sequence[str],
          subdir: Optional[str], jobs: int, who: Optional[Tuple[str, str]]) -> Path:
    """The whole of make spatch; returns the series directory."""
    progress = Progress()
    signer = who or identity(fixed=kdir is None)
    tree = trees.pristine(kdir, progress)
    work = trees.worktree(tree, "series")
    if subdir and not (work / subdir).is_dir():
        raise UsageError(f"M={subdir}: no such directory in {tree.name}")
    rows = [e.macro for e in registry.entries(work)]
    macros = list(targets) or rows or None
    progress.step(f"scanning {tree.name} for " + (f"{len(macros)} magic numbers" if macros
                                                   else "magic numbers"))
    cands = scan.collect(work, subdir, macros, jobs, progress).cands
    if targets:
        for gone in [t for t in targets if t not in {c.macro for c in cands}]:
            progress.step(f"{gone}: not in {tree.name} (already gone?)")
    if macros is None:
        cands = [c for c in cands if c.verdict in (Verdict.REMOVE, Verdict.FLAG)]
    elif rows and not targets:
        order = {m: i for i, m in enumerate(rows)}
        cands = sorted(cands + _gone(rows, cands), key=lambda c: order[c.macro])
    summary = write_commits(tree, work, cands, signer, jobs, subdir, progress,
                            discovered=macros is None)
    dest = (out or REPO / "generated-patches" / tree.name).resolve()
    tmp = dest.with_name(f".{dest.name}.new")
    shutil.rmtree(tmp, ignore_errors=True)
    tmp.mkdir(parents=True)
    for line in summary.skipped:
        print(f"  skipped {line}")
    if not summary.entries:
        progress.step(f"no magic numbers left to retire in {tree.name}: the series is empty")
        export.replace_dir(tmp, dest)
        return dest
    progress.step(f"format-patch, get_maintainer.pl and checkpatch.pl on "
                  f"{len(summary.entries)} patches")
    patches = export.format_series(work, tree.base, tmp, signer)
    cover, numbered = patches[0], patches[1:]
    mailed = export.mail_all(work, numbered, jobs)
    for patch in numbered:
        export.add_headers(patch, mailed[patch])
    export.fill_cover(cover, "remove the remaining magic numbers", cover_blurb(tree, summary),
                      _union(list(mailed.values())))
    problems = []
    for patch, (errors, warnings) in export.style_all(work, numbered, jobs).items():
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


def parse_identity(text: str) -> Tuple[str, str]:
    m = re.match(r"^\s*(.+?)\s*<([^<>@\s]+@[^<>\s]+)>\s*$", text)
    if not m:
        raise UsageError(f"IDENTITY={text}: expected 'Name <mail@host>'")
    return m.group(1), m.group(2)


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = argparse.ArgumentParser(prog="demagic spatch", description=__doc__)
    parser.add_argument("--kdir", type=Path, help="kernel tree (default: Debian linux-source-6.1)")
    parser.add_argument("--out", type=Path, help="series directory")
    parser.add_argument("--targets", default="", help="space-separated magic macros")
    parser.add_argument("--subdir", help="limit to this subdirectory (M=)")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--identity", help="'Name <mail>' for Signed-off-by")
    args = parser.parse_args(argv)
    who = parse_identity(args.identity) if args.identity else None
    build(args.kdir, args.out, args.targets.split(), args.subdir, args.jobs, who)
    return 0


def check(series: Path, jobs: int) -> int:
    """Regenerate the committed series of the default tree and compare, byte for byte."""
    fresh = trees.BUILD / "check" / series.name
    build(None, fresh, [], None, jobs, None)
    want = {p.name: p for p in series.glob("*.patch")}
    got = {p.name: p for p in fresh.glob("*.patch")}
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
    return check(args.series, args.jobs)
