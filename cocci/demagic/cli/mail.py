# SPDX-License-Identifier: GPL-2.0
"""make check-mail: python3 -m demagic check-mail --series DIR."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Optional, Sequence

from demagic.core.proc import Progress
from demagic.kernel import tree as trees
from demagic.model.series import Series
from demagic.series import mailcheck
from demagic.series.mailcheck import check


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = argparse.ArgumentParser(prog="demagic check-mail", description=mailcheck.__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--series", type=Path, required=True)
    parser.add_argument("--kdir", type=Path)
    parser.add_argument("--tree", help="Debian's tree (default: the one the series names)")
    args = parser.parse_args(argv)
    series = Series.load(args.series)
    name = trees.check_tree_name(args.tree) if args.tree else trees.tree_of_series(series)
    with trees.opened(args.kdir, name, "check-mail") as tree:
        report = check(series, tree, Progress())
    for note in report.notes:
        print(f"  {note}")
    for failure in report.failures:
        print(f"FAIL {failure}")
    print(f"check-mail: {'FAILED' if report.failures else 'passed'} ({args.series})")
    return 1 if report.failures else 0
