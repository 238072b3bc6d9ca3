# SPDX-License-Identifier: GPL-2.0
"""python3 -m demagic deps TARGET...: the Debian packages of each make target, checked and,
as root, installed (--list: only print them)."""

from __future__ import annotations

import argparse
import sys
from typing import Sequence

from demagic.core.deps import PACKAGES, ensure
from demagic.core.errors import DemagicError


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="demagic deps", description=__doc__)
    parser.add_argument("targets", nargs="+", choices=sorted(PACKAGES))
    parser.add_argument("--list", action="store_true", help="print the packages only")
    args = parser.parse_args(argv)
    try:
        for target in args.targets:
            if args.list:
                print(" ".join(PACKAGES[target]))
            else:
                ensure(target)
    except DemagicError as exc:
        print(f"demagic: {exc}", file=sys.stderr)
        return 1
    return 0

