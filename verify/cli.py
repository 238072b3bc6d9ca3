# SPDX-License-Identifier: GPL-2.0
"""verify run | selftest | bench: the command line of the verification stage."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Callable, Dict, Optional, Sequence

from demagic.core.proc import Progress, cap_jobs, guarded
from demagic.core.errors import UsageError
from demagic.core.paths import REPO_ROOT
from demagic.kernel.tree import check_tree_name, opened, tree_of_series
from demagic.model.series import Series
from verify import bench, selftest
from verify.matrix import render_json, render_markdown, render_text
from verify.run import Options, default_out, verify, write_reports

DEFAULT_SERIES = REPO_ROOT / "generated-patches" / "linux-6.1"
DEFAULT_REF = REPO_ROOT.parent / "shared" / "reference"


def add_run_opts(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--kdir", type=Path, help="your own kernel tree")
    parser.add_argument("--tree", help="without --kdir, one of Debian's trees (default: the one "
                        "the series names)")
    parser.add_argument("--series", type=Path, default=DEFAULT_SERIES, help="format-patch directory")
    parser.add_argument("--ref", type=Path, help="upstream patches (default: %s when present; "
                        "'none' to skip)" % DEFAULT_REF)
    parser.add_argument("--out", type=Path, help="report directory (default build/verify/<tree>)")
    parser.add_argument("--jobs", type=int, default=2, help="make -j (default 2)")
    parser.add_argument("--fast", action="store_true",
                        help="no build after each patch: bisect n.a., builds/layout vs the whole series")
    parser.add_argument("--prereq", type=Path, help="patches (a file or a directory) the series "
                        "depends on, applied before it and not verified")


def options(args: argparse.Namespace, series: Series) -> Options:
    if args.jobs < 1:
        raise UsageError(f"--jobs={args.jobs}: must be a positive number")
    args.jobs = cap_jobs(args.jobs)
    ref: Optional[Path] = args.ref
    if ref is None and DEFAULT_REF.is_dir():
        ref = DEFAULT_REF
    elif ref is not None and str(ref) == "none":
        ref = None
    tree = check_tree_name(args.tree) if args.tree else tree_of_series(series)
    return Options(kdir=args.kdir, series=series, ref=ref, out=args.out,
                   jobs=args.jobs, fast=args.fast, tree=tree, prereq=args.prereq)


def do_run(opts: Options) -> int:
    matrix = verify(opts, Progress())
    text = render_text(matrix)
    print(text, end="")
    write_reports(matrix, opts.out or default_out(opts.kdir, opts.tree), text,
                  render_markdown(matrix), render_json(matrix), opts.series.path
                  if opts.series else None)
    return 1 if matrix.failed() else 0


HANDLERS: Dict[str, Callable[[Options], int]] = {
    "run": do_run, "selftest": selftest.main, "bench": bench.main,
}


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = argparse.ArgumentParser(prog="verify", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)
    for name, help_text in (("run", "verify a series and write the reports"),
                            ("selftest", "feed verify broken series: the right cell must fail"),
                            ("bench", "time a cold and a warm run")):
        add_run_opts(sub.add_parser(name, help=help_text))
    args = parser.parse_args(argv)

    def body() -> int:
        series = Series.load(args.series)      # read once, before any extraction
        name = args.tree or (tree_of_series(series) if args.kdir is None else "")
        with opened(args.kdir, name, f"verify {args.command}"):
            return HANDLERS[args.command](options(args, series))
    return guarded("verify", body, "no compiler left running")
