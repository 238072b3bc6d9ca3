# SPDX-License-Identifier: GPL-2.0
"""Command line of demagic: python3 -m demagic COMMAND [options]."""

from __future__ import annotations

import importlib
import sys
from typing import Callable, Dict, List, Optional, Sequence

from demagic.core.proc import guarded

# command -> module whose main(argv) runs it
COMMANDS: Dict[str, str] = {
    "deps": "demagic.cli.deps",
    "tree": "demagic.cli.tree",
    "scan": "demagic.cli.scan",
    "test-rules": "demagic.cli.rulecases",
    "test-judge": "demagic.cli.judgecases",
    "spatch": "demagic.cli.spatch",
    "check-series": "demagic.cli.spatch:check_main",
    "check-mail": "demagic.cli.mail",
    "bench": "demagic.cli.bench",
}


def main(argv: Optional[Sequence[str]] = None) -> int:
    args: List[str] = list(sys.argv[1:] if argv is None else argv)
    if not args or args[0] not in COMMANDS:
        print(f"usage: python3 -m demagic {{{','.join(COMMANDS)}}} ...", file=sys.stderr)
        return 2
    module, _, func = COMMANDS[args[0]].partition(":")
    entry: Callable[[List[str]], int] = getattr(importlib.import_module(module), func or "main")
    return guarded("demagic", lambda: entry(args[1:]), "earlier output left as it was")


if __name__ == "__main__":
    sys.exit(main())
