# SPDX-License-Identifier: GPL-2.0
"""make spatch and check-series: python3 -m demagic spatch | check-series."""

from __future__ import annotations

import argparse
import os
from pathlib import Path
from typing import Optional, Sequence

from demagic.core.proc import cap_jobs
from demagic.kernel import tree as trees
from demagic.series.build import build, check, check_out
from demagic.series.commits import parse_identity
from demagic.series.plan import SCOPES
from demagic.series.split import Spatch, split

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
    parser.add_argument("--split", action="store_true", help="one series per maintainer tree, "
                        "each in OUT/<tree>/ with its own cover letter")
    args = parser.parse_args(argv)
    who = parse_identity(args.identity) if args.identity else None
    name = trees.check_tree_name(args.tree)
    check_out(args.kdir, args.out)
    with trees.opened(args.kdir, name, "make spatch"):
        if args.split:
            split(Spatch(args.kdir, tuple(args.targets.split()), args.subdir,
                         cap_jobs(args.jobs), who, name, args.scope or ""), args.out)
        else:
            build(args.kdir, args.out, args.targets.split(), args.subdir, cap_jobs(args.jobs),
                  who, name, args.scope or "")
    return 0


def check_main(argv: Optional[Sequence[str]] = None) -> int:
    parser = argparse.ArgumentParser(prog="demagic check-series", description=check.__doc__)
    parser.add_argument("--series", type=Path, required=True)
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    args = parser.parse_args(argv)
    with trees.opened(None, trees.check_tree_name(args.series.resolve().name), "check-series"):
        return check(args.series, cap_jobs(args.jobs))
