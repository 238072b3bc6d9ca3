# SPDX-License-Identifier: GPL-2.0
"""A target: what one patch retires, one magic or a group of them sharing a field."""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Sequence, Tuple

from demagic.model.candidate import Verdict


@dataclass(frozen=True)
class Target:
    """What to retire: one magic, or a group sharing a field."""
    macros: Tuple[str, ...]
    struct: str
    member: str
    header: str
    verdict: Verdict
    flag: str = "busy"
    flag_comment: str = ""   # what the bool says, for its declaration
    keep_define: bool = False   # the constant is used elsewhere: only the field goes
    defined_in: str = ""        # the file of the constant's #define ("": the only one)
    switch: str = ""            # a dead switch that goes with the field (#undef FOO_DEBUG)
    noops: Tuple[str, ...] = ()  # the macros its #else leaves as no-ops: they go, with calls

    @property
    def name(self) -> str:
        """How a subject or a table names the target (see group_name)."""
        return group_name(self.macros)


def group_name(macros: Sequence[str]) -> str:
    """QUEUE_MAGIC_FREE + QUEUE_MAGIC_USED -> QUEUE_MAGIC_{FREE,USED}."""
    if len(macros) == 1:
        return macros[0]
    head = os.path.commonprefix(list(macros))
    head = head[:head.rfind("_") + 1] if "_" in head else head
    return head + "{" + ",".join(m[len(head):] for m in macros) + "}"
