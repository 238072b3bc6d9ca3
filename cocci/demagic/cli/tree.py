# SPDX-License-Identifier: GPL-2.0
"""python3 -m demagic tree [--kdir K] [--worktree [--series DIR] [--upto N]]: print the
pristine copy's path, or the work copy's with the series applied."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Optional, Sequence

from demagic.kernel.tree import DEFAULT_NAME, opened, worktree
from demagic.model.series import Series


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = argparse.ArgumentParser(prog="demagic tree", description=__doc__)
    parser.add_argument("--kdir", type=Path)
    parser.add_argument("--tree", default=DEFAULT_NAME)
    parser.add_argument("--worktree", action="store_true")
    parser.add_argument("--series", type=Path)
    parser.add_argument("--upto", type=int)
    args = parser.parse_args(argv)
    series = Series.load(args.series) if args.series else None
    with opened(args.kdir, args.tree, "demagic tree", work=args.worktree) as tree:
        print(worktree(tree, series, args.upto) if args.worktree else tree.repo)
    return 0
