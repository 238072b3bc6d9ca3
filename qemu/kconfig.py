# SPDX-License-Identifier: GPL-2.0
"""Kconfig fragments: parse them, and check that the final .config kept every option."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Dict, Iterable, List

CONFIG_SET = re.compile(r"^(CONFIG_[A-Za-z0-9_]+)=(.*)$")
CONFIG_UNSET = re.compile(r"^# (CONFIG_[A-Za-z0-9_]+) is not set$")


class ConfigError(Exception):
    """A fragment is malformed, or Kconfig dropped an option it asked for."""


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
            out.append(f"{opt}={value} (got {got})")
    return out


def check(wanted: Dict[str, str], config: Path) -> None:
    """ConfigError naming every option Kconfig dropped from config."""
    missing = dropped(wanted, parse(config.read_text(), str(config)))
    if missing:
        raise ConfigError(f"{config}: Kconfig dropped {len(missing)} requested option(s): "
                          + ", ".join(missing))
