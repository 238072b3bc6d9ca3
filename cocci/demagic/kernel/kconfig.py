# SPDX-License-Identifier: GPL-2.0
"""Kconfig fragments and .config files: parse them, fit fragments to a tree, and say which
requested settings a final .config lacks (kernel/build.py refuses such a build)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Dict, Iterable, List, Sequence, Tuple

from demagic.core.errors import DemagicError
from demagic.kernel.grep import grep_tree

CONFIG_SET = re.compile(r"^(CONFIG_[A-Za-z0-9_]+)=(.*)$")
CONFIG_UNSET = re.compile(r"^# (CONFIG_[A-Za-z0-9_]+) is not set$")


class ConfigError(DemagicError):
    """A fragment or a .config is malformed."""


def parse(text: str, origin: str = "config") -> Dict[str, str]:
    """The options of a .config or fragment; 'n' for '# ... is not set'."""
    options: Dict[str, str] = {}
    for num, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        set_ = CONFIG_SET.match(line)
        unset = CONFIG_UNSET.match(line)
        if set_:
            options[set_.group(1)] = set_.group(2)
        elif unset:
            options[unset.group(1)] = "n"
        elif line and not line.startswith("#"):
            raise ConfigError(f"{origin}:{num}: not a CONFIG_ line: {line}")
    return options


def requested(fragments: Iterable[Path]) -> Dict[str, str]:
    """Every option the fragments ask for; a later fragment wins."""
    options: Dict[str, str] = {}
    for frag in fragments:
        options.update(parse(frag.read_text(), str(frag)))
    return options


def dropped(wanted: Dict[str, str], final: Dict[str, str]) -> List[str]:
    """The wanted options the final configuration does not have, as 'OPT=want (got)'."""
    out = []
    for opt, value in sorted(wanted.items()):
        got = final.get(opt, "n")
        if got != value:
            out.append(f"{opt}={value} (got {'not set' if got == 'n' else got})")
    return out


def declared(tree: Path, symbols: Iterable[str]) -> set:
    """The CONFIG_ symbols of symbols that the tree's Kconfig files declare (one grep)."""
    names = sorted({s[len("CONFIG_"):] for s in symbols if s.startswith("CONFIG_")})
    if not names:
        return set()
    out = grep_tree(tree, ["-h", "-E", rf"^\s*(menu)?config\s+({'|'.join(names)})\s*$"],
                    ["*Kconfig*"])
    return {"CONFIG_" + line.split()[-1] for line in out.splitlines() if line.split()}


def fit(tree: Path, fragments: Sequence[Path], out: Path) -> Tuple[Dict[str, str], List[str]]:
    """One fragment at out with the settings of fragments whose symbol the tree declares;
    (those settings, the symbols left out: drivers the tree does not have)."""
    wanted = requested(fragments)
    known = declared(tree, wanted)
    kept = {k: v for k, v in wanted.items() if k in known}
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(render(kept))
    return kept, sorted(set(wanted) - known)


def render(options: Dict[str, str]) -> str:
    """A fragment of options, in the order given."""
    return "".join(f"{k}={v}\n" if v != "n" else f"# {k} is not set\n"
                   for k, v in options.items())
