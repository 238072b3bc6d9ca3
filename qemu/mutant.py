# SPDX-License-Identifier: GPL-2.0
"""Deliberately wrong variants of a series, made from its text, that the boot tests must catch.

- assignments-only: of every hunk keep only the removal of magic assignments
  (``x->magic = FOO_MAGIC;``): the checks stay, the value is never set.
- no-null-test: the same, and each magic check the series rewrote also loses
  the NULL test beside it (``!x || x->magic != FOO_MAGIC``).
"""

from __future__ import annotations

import re
import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Dict, List, Tuple

from demagic.proc import DemagicError
from qemu import patchtext

MAGIC_ASSIGNMENT = re.compile(
    r"^\s*\.?(?:[\w\[\]]+\s*(?:\.|->)\s*)*\w*magic\w*\s*=(?!=)\s*\(?\w*MAGIC\w*\)?\s*[;,]")
MAGIC_CHECK = re.compile(r"\bmagic\w*\s*[!=]=\s*\w*MAGIC")
NULL_TEST = re.compile(r"(?:!\s*(\w+)|\b(\w+)\s*==\s*NULL)\s*\|\|\s*(?=(\w+)\s*->)")


def assignments_only(line: str) -> Tuple[bool, List[str]]:
    return bool(MAGIC_ASSIGNMENT.match(line)), []


def drop_null_test(line: str) -> str:
    """line without the NULL test that guards the magic check beside it."""
    def repl(m: "re.Match[str]") -> str:
        var = m.group(1) or m.group(2)
        return "" if var == m.group(3) else m.group(0)
    return NULL_TEST.sub(repl, line)


def no_null_test(line: str) -> Tuple[bool, List[str]]:
    if MAGIC_ASSIGNMENT.match(line):
        return True, []
    if MAGIC_CHECK.search(line):
        bare = drop_null_test(line)
        if bare != line:
            return True, [bare]
    return False, []


MUTANTS: Dict[str, Callable[[str], Tuple[bool, List[str]]]] = {
    "assignments-only": assignments_only,
    "no-null-test": no_null_test,
}


@dataclass(frozen=True)
class Mutant:
    name: str
    series: Path
    mutated: List[str]    # names of the original patches that left something


def make(series: List[Path], name: str, outdir: Path) -> Mutant:
    """Write mutant name of series (its patch files) to outdir."""
    rule = MUTANTS[name]
    tmp = outdir.with_name(outdir.name + ".tmp")
    shutil.rmtree(tmp, ignore_errors=True)
    tmp.mkdir(parents=True)
    mutated = []
    for patch in series:
        try:
            text = patchtext.rewrite(patchtext.parse(patch.read_text()), rule)
        except patchtext.PatchError as exc:
            raise DemagicError(f"{patch.name}: {exc}") from exc
        if text is not None:
            mutated.append(patch.name)
            (tmp / patch.name).write_text(text)
    if not mutated:
        raise DemagicError(f"mutant {name}: no patch of the series assigns a magic value")
    shutil.rmtree(outdir, ignore_errors=True)
    tmp.rename(outdir)
    return Mutant(name, outdir, mutated)
