# SPDX-License-Identifier: GPL-2.0
"""The records that the scan writes and the series writer reads."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from enum import Enum
from typing import Any, Dict, List, Optional


class Verdict(str, Enum):
    REMOVE = "remove"   # in-memory type tag: set at init, checked before use
    FLAG = "flag"       # really a busy/free state flag: becomes a bool
    KEEP = "keep"       # not a magic number: ABI, firmware, on-disk or on-wire format


@dataclass(frozen=True)
class Site:
    """A place in the tree: file relative to the tree top, 1-based line."""
    file: str
    line: int
    function: str = ""   # enclosing function, "" at file scope
    kind: str = ""       # sets: assign, macro, init; checks: early-exit, bug, warn,
                         # message, condition, truth; other uses: see the scan

    def __str__(self) -> str:
        return f"{self.file}:{self.line}"


@dataclass
class Candidate:
    """One magic constant, the field it tags and everything the tree says about it."""
    macro: str                       # FOO_MAGIC (a group shares a field: QUEUE_MAGIC_{FREE,USED})
    value: str                       # as written in its #define
    define: Optional[Site]           # where it is defined
    struct: str                      # struct tag, or typedef name when untagged
    field: str                       # the member that holds it
    header: str                      # file that defines the struct
    sets: List[Site] = field(default_factory=list)
    checks: List[Site] = field(default_factory=list)
    other_uses: List[Site] = field(default_factory=list)
    evidence: Dict[str, Any] = field(default_factory=dict)
    verdict: Verdict = Verdict.REMOVE
    reason: str = ""

    def to_json(self) -> Dict[str, Any]:
        out = asdict(self)
        out["verdict"] = self.verdict.value
        for key in ("sets", "checks", "other_uses"):
            out[key] = [str(Site(**s)) for s in out[key]]
        out["define"] = str(self.define) if self.define else None
        return out
