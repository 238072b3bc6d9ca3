# SPDX-License-Identifier: GPL-2.0
"""Find and judge the magic numbers of a kernel tree: python3 -m demagic scan.

discover.py picks the files and runs find_magic.cocci over them;
candidates.py turns its report into one candidate per constant; the modules
of evidence/ read the tree for what the judge needs; judge.py gives the
verdicts: remove, flag, keep or review.  A whole-tree scan leaves out the
host programs of tools/ and scripts/.  Code spatch cannot parse is listed,
never skipped in silence.
"""

from __future__ import annotations

import argparse
import os
import resource
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import List, Optional, Sequence

from demagic import candidates, discover, evidence, judge, scanmodes, scanout
from demagic.discover import Unparsed
from demagic.model import Candidate
from demagic.proc import Progress, UsageError, cap_jobs, run
from demagic.structs import find_define
from demagic.texts import Texts, grep_tree


@dataclass
class Stats:
    """What one scan did: for the summary and the benchmark."""
    listed: int = 0      # files that name MAGIC (or the macros asked for)
    parsed: int = 0      # files handed to spatch after the prefilter
    seconds: float = 0.0


@dataclass
class Scan:
    """The candidates of a tree, judged, and what spatch could not parse."""
    cands: List[Candidate]
    unparsed: List[Unparsed] = field(default_factory=list)
    stats: Stats = field(default_factory=Stats)


def collect(root: Path, subdir: Optional[str] = None, macros: Optional[List[str]] = None,
            jobs: int = os.cpu_count() or 1, progress: Optional[Progress] = None) -> Scan:
    """Every magic number of root (or only macros, in that order), judged."""
    start = time.monotonic()
    progress = progress or Progress(quiet=True)
    root = Path(root)
    if not (root / "Makefile").is_file():
        raise UsageError(f"KDIR={root}: not a kernel tree (no top Makefile)")
    magic_files = discover.list_files(root, subdir, macros)
    texts = Texts(root)
    files = discover.prefilter(magic_files, texts, every=macros is not None)
    stats = Stats(len(magic_files), len(files))
    progress.step(f"prefilter: {len(files)} of {len(magic_files)} files with MAGIC to parse")
    report = discover.run_rule(root, files, jobs, progress)
    found = candidates.build(texts, report.records, magic_files)
    if macros is not None:
        by_name = {}
        for c in found.cands.values():
            by_name.setdefault(c.macro, []).append(c)
        for m in macros:
            if m not in by_name and find_define(texts, magic_files, m) is not None:
                by_name[m] = [Candidate(m, "", None, "", "", "")]
        wanted = [c for m in macros for c in by_name.get(m, [])]
        chosen = _with_mates(wanted, list(found.cands.values()))
    else:
        chosen = [c for c in found.cands.values() if c.sets]
    candidates.mark_groups(chosen)
    ctx = evidence.Context(root, texts, report.records, magic_files, found, report.unparsed)
    _defines(ctx, chosen)
    evidence.gather(ctx, chosen, progress)
    judge.judge_all(chosen)
    if macros is None:
        chosen.sort(key=lambda c: (c.define.file if c.define else c.header, c.macro))
    stats.seconds = time.monotonic() - start
    return Scan(chosen, sorted(report.unparsed, key=lambda u: (u.file, u.first)), stats)


def _with_mates(wanted: List[Candidate], every: List[Candidate]) -> List[Candidate]:
    """The candidates asked for and those sharing their field (a value written when
    the object dies goes with the one checked while it lives)."""
    out = list(wanted)
    for c in wanted:
        for o in every:
            if o not in out and c.struct and (o.header, o.struct, o.field) == \
                    (c.header, c.struct, c.field) and o.sets:
                out.append(o)
    return out


def _defines(ctx: evidence.Context, cands: Sequence[Candidate]) -> None:
    """Where each constant is #defined, and its value."""
    from demagic.structs import _search_files
    index = ctx.texts.magic_index(ctx.files)
    for c in cands:
        if c.local and c.sets:
            near = [c.sets[0].file]
        else:
            near = [s.file for s in c.sets + c.checks]
            near += [i for f in dict.fromkeys(near) for i in _search_files(ctx.texts, f)]
            near += index.get(c.macro, [])
        found = find_define(ctx.texts, list(dict.fromkeys(near)), c.macro)
        if found:
            c.define, c.value = found


def _cpu() -> float:
    """CPU seconds used so far by this process and its finished children."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime


def bench(root: Path, jobs: int, progress: Progress) -> int:
    """Print the scan's wall time beside one naive whole-tree run of the same rule.

    CPU seconds are printed too: on a shared machine they vary less than wall time."""
    cpu0 = _cpu()
    result = collect(root, jobs=jobs, progress=progress)
    stats = result.stats
    scan_cpu = _cpu() - cpu0
    progress.step(f"scan: {stats.seconds:.1f} s, {stats.parsed} files parsed, "
                  f"{len(result.cands)} candidates; now the naive run (slow)")
    nfiles = len(grep_tree(root, ["-l", "-e", ""], ["*.c"]).split())
    start, cpu0 = time.monotonic(), _cpu()
    res = run(["spatch", "--very-quiet", "-D", "report", "--no-includes", "--timeout",
               str(discover.FILE_TIMEOUT), "-j", str(jobs), "--sp-file", str(discover.RULE),
               "--dir", "."], cwd=root, check=False)
    naive, naive_cpu = time.monotonic() - start, _cpu() - cpu0
    load = os.getloadavg()[0]
    nrec = len([r for r in discover.parse_report(res.stdout) if r.what in ("set", "check")])
    print(f"scan:  {stats.seconds:7.1f} s wall, {scan_cpu:7.1f} s cpu, {stats.parsed:6d} files "
          f"parsed ({stats.listed} name MAGIC), jobs {jobs}")
    print(f"naive: {naive:7.1f} s wall, {naive_cpu:7.1f} s cpu, {nfiles:6d} files parsed "
          f"(spatch --dir ., every .c), jobs {jobs}, exit {res.returncode}, "
          f"{nrec} set/check reports")
    print(f"ratio: naive / scan = {naive / max(stats.seconds, 1e-9):.1f} wall, "
          f"{naive_cpu / max(scan_cpu, 1e-9):.1f} cpu (load average at the end {load:.1f})")
    return 0


def write_out(text: str, out: Optional[Path]) -> None:
    """Print text, or write it to out atomically (an interrupted run leaves out as it was)."""
    if out is None:
        sys.stdout.write(text)
        return
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = out.with_name(f".{out.name}.{os.getpid()}.tmp")
    tmp.write_text(text)
    tmp.replace(out)


def parse_args(argv: Sequence[str]) -> argparse.Namespace:
    p = argparse.ArgumentParser(prog="demagic scan", description=__doc__)
    p.add_argument("--kdir", type=Path, help="your own kernel tree")
    p.add_argument("--tree", default="linux-6.1", help="without --kdir, one of Debian's trees")
    p.add_argument("--subdir", help="only this subdirectory of the tree (as M=)")
    p.add_argument("--macros", nargs="+", help="judge only these constants")
    p.add_argument("--format", choices=("text", "json"), default="text")
    p.add_argument("--mode", choices=("report", "org", "context", "patch", ""), default="")
    p.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    p.add_argument("--out", type=Path, help="write here instead of stdout")
    p.add_argument("--bench", action="store_true",
                   help="time the scan beside the naive whole-tree spatch run")
    args = p.parse_args(argv)
    if args.jobs < 1:
        raise UsageError(f"J={args.jobs}: must be a positive number")
    return args


def main(argv: Sequence[str]) -> int:
    args = parse_args(argv)
    from demagic import lock, tree
    args.jobs = cap_jobs(args.jobs)
    name = tree.check_tree_name(args.tree)
    with lock.holding(tree.tree_key(args.kdir, name), "make scan"):
        return _main(args, name)


def _main(args: argparse.Namespace, name: str) -> int:
    from demagic import tree
    from demagic import scancache
    pristine = None if args.kdir else tree.pristine(None, tree_name=name)
    root = args.kdir.resolve() if args.kdir else pristine.repo   # type: ignore[union-attr]
    if args.kdir:
        tree.check_kdir(root)
    progress = Progress()
    if args.bench:
        return bench(root, args.jobs, progress)
    if pristine is not None:    # Debian's tree: its commit pins the content, the cache may serve
        result = scancache.collect(pristine.base, root, args.subdir, args.macros, args.jobs,
                                   progress)
    else:
        result = collect(root, args.subdir, args.macros, args.jobs, progress)
    if args.mode == "context":
        text = scanmodes.context(result.cands, Texts(root))
    elif args.mode == "patch":
        pristine = tree.pristine(args.kdir, progress, name)
        text = scanmodes.patch(result.cands, tree.worktree(pristine), args.jobs,
                               progress)
    else:
        text = scanout.render(result, args.mode or "", args.format, Texts(root))
    write_out(text, args.out)
    progress.step(scanout.summary(result))
    return 0
