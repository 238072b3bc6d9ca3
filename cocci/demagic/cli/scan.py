# SPDX-License-Identifier: GPL-2.0
"""make scan: find and judge the magic numbers of a kernel tree, in coccicheck's modes.

MODE=report (the default) prints the candidates grouped by verdict (text, or
JSON lines), MODE=org as coccicheck does, MODE=context the lines each
candidate sets and checks marked with *, MODE=patch the diff make spatch
would apply for each remove or flag verdict.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import List, Optional, Sequence

from demagic.core.files import write_atomic
from demagic.core.proc import Progress, cap_jobs, run
from demagic.core.timing import timed
from demagic.core.errors import UsageError
from demagic.judge import scans
from demagic.kernel import tree
from demagic.kernel.source import Texts
from demagic.kernel.grep import grep_tree
from demagic.model.candidate import Candidate, Verdict
from demagic.rewrite import apply as rewrite
from demagic.rewrite.apply import ResidueError
from demagic.scan import discover, report
from demagic.rewrite.targets import group, target_of


def bench(root: Path, jobs: int, progress: Progress) -> int:
    """Print the scan's wall time beside one naive whole-tree run of the same rule.

    CPU seconds are printed too: on a shared machine they vary less than wall time."""
    _, scan_cpu, result = timed(lambda: scans.judged(root, jobs=jobs, progress=progress))
    stats = result.stats
    progress.step(f"scan: {stats.seconds:.1f} s, {stats.parsed} files parsed, "
                  f"{len(result.cands)} candidates; now the naive run (slow)")
    nfiles = len(grep_tree(root, ["-l", "-e", ""], ["*.c"]).split())
    naive, naive_cpu, res = timed(lambda: run(
        ["spatch", "--very-quiet", "-D", "report", "--no-includes", "--timeout",
         str(discover.FILE_TIMEOUT), "-j", str(jobs), "--sp-file", str(discover.RULE),
         "--dir", "."], cwd=root, check=False))
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
    write_atomic(out, text)


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
    args.jobs = cap_jobs(args.jobs)
    name = tree.check_tree_name(args.tree)
    progress = Progress()
    if args.kdir is not None and args.mode != "patch":
        # the user's tree, read in place: no copy of it to share
        tree.check_kdir(args.kdir.resolve())
        return _main(args, args.kdir.resolve(), None, progress)
    # a read of the pristine copy goes on beside other runs; MODE=patch also rewrites the
    # work copy, one run at a time
    with tree.opened(args.kdir, name, "make scan", progress, work=args.mode == "patch") as t:
        return _main(args, args.kdir.resolve() if args.kdir else t.repo, t, progress)


def _main(args: argparse.Namespace, root: Path, pristine: Optional[tree.Tree],
          progress: Progress) -> int:
    if args.bench:
        return bench(root, args.jobs, progress)
    if pristine is not None and args.kdir is None:
        # Debian's tree: its commit pins the content, the cache may serve
        result = scans.cached(pristine.base, root, args.subdir, args.macros, args.jobs,
                              progress)
    else:
        result = scans.judged(root, args.subdir, args.macros, args.jobs, progress)
    if args.mode == "context":
        text = report.context(result.cands, Texts(root))
    elif args.mode == "patch":
        assert pristine is not None
        text = patch(result.cands, tree.worktree(pristine), args.jobs, progress)
    else:
        text = report.render(result, args.mode or "", args.format, Texts(root))
    write_out(text, args.out)
    progress.step(report.summary(result))
    return 0


def patch(cands: Sequence[Candidate], work: Path, jobs: int, progress: Progress) -> str:
    """The diff of each remove or flag verdict, made in work (a git worktree) and undone."""
    out: List[str] = []
    for macros, members in group([c for c in cands
                                  if c.verdict in (Verdict.REMOVE, Verdict.FLAG)]):
        target = target_of(macros, members)
        name = "/".join(macros)
        progress.step(f"{name}: {members[0].verdict.value}")
        try:
            result = rewrite.apply(work, target, jobs)
            note = "; ".join(result.manual)
            diff = run(["git", "-C", str(work), "diff"]).stdout if not note else ""
        except ResidueError as exc:
            diff, note = "", str(exc)
        run(["git", "-C", str(work), "checkout", "-q", "--", "."])
        out.append(f"// {name}: {members[0].verdict.value}: {members[0].reason}")
        out.append(diff.rstrip("\n") if diff else f"// {name}: needs a manual fix: {note}")
    return "\n".join(out) + ("\n" if out else "")
