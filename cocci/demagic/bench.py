# SPDX-License-Identifier: GPL-2.0
"""make bench (spatch part): the series writer against the naive whole-tree run."""

from __future__ import annotations

import argparse
import os
import time
from pathlib import Path
from typing import Optional, Sequence

from demagic import rewrite, series, tree as trees
from demagic.proc import run


def naive(tree: Path, macro: str, member: str, sname: str, jobs: int) -> float:
    """The same rule, spatch --dir over the whole tree, no prefilter."""
    rule = rewrite.RULES / "remove_magic.cocci"
    start = time.monotonic()
    run(["spatch", "--very-quiet", *rewrite.rule_options(rule), "-D", "patch",
         "-D", f"magic={macro}", "-D", f"member={member}", "-D", f"sname={sname}",
         "--sp-file", str(rule), "--dir", str(tree), "-j", str(jobs)], timeout=3600)
    return time.monotonic() - start


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = argparse.ArgumentParser(prog="demagic bench", description=__doc__)
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--naive-target", default="YAM_MAGIC magic yam_port",
                        help="MACRO MEMBER STRUCT for the naive whole-tree run")
    parser.add_argument("--no-naive", action="store_true", help="skip the slow naive run")
    args = parser.parse_args(argv)
    tree = trees.pristine()
    out = trees.BUILD / "bench" / "series"
    start = time.monotonic()
    series.build(None, out, [], None, args.jobs, None)
    whole = time.monotonic() - start
    macro, member, sname = args.naive_target.split()
    start = time.monotonic()
    series.build(None, trees.BUILD / "bench" / "one", [macro], None, args.jobs, None)
    one = time.monotonic() - start
    print(f"bench: make spatch, whole series on {tree.name}: {whole:.1f} s")
    print(f"bench: make spatch TARGETS={macro}: {one:.1f} s")
    if not args.no_naive:
        slow = naive(tree.repo, macro, member, sname, args.jobs)
        print(f"bench: naive spatch --dir over the whole tree for {macro}: {slow:.1f} s "
              f"(ratio {slow / one:.1f}x)")
    return 0
