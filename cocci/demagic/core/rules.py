# SPDX-License-Identifier: GPL-2.0
"""The semantic patches of cocci/, and the spatch options each asks for in its header.

As coccicheck does, demagic takes a rule's spatch flags from its `// Options:`
line instead of writing them beside the code that runs it."""

from __future__ import annotations

from pathlib import Path
from typing import List

from demagic.core.paths import COCCI

FIND = COCCI / "find_magic.cocci"       # the scan's report of sets and checks
REMOVE = COCCI / "remove_magic.cocci"   # a magic removed
FLAG = COCCI / "magic_to_bool.cocci"    # a magic that is a state flag, made a bool


def rule_options(rule: Path) -> List[str]:
    """The spatch flags the rule's `// Options:` header line asks for."""
    for line in rule.read_text().splitlines():
        if line.startswith("// Options:"):
            return line.split(":", 1)[1].split()
    return []
