# SPDX-License-Identifier: GPL-2.0
"""Commit messages written from what the scan found, in kernel style."""

from __future__ import annotations

import os
import re
import textwrap
from pathlib import Path
from typing import Dict, List, Optional, Sequence

from demagic.model import Candidate, Site, Verdict
from demagic.proc import run
from demagic.rewrite import Result, Target

PREFIXES = Path(__file__).resolve().parents[1] / "subject-prefixes"
WHY = ("Type-safe interfaces, slab debugging and KASAN find what such a tag "
       "was meant to find; the tag itself only costs a field and a compare "
       "on every use.")


def group_name(macros: Sequence[str]) -> str:
    """QUEUE_MAGIC_FREE + QUEUE_MAGIC_USED -> QUEUE_MAGIC_{FREE,USED}."""
    if len(macros) == 1:
        return macros[0]
    head = os.path.commonprefix(list(macros))
    head = head[:head.rfind("_") + 1] if "_" in head else head
    return head + "{" + ",".join(m[len(head):] for m in macros) + "}"


GENERIC_DIRS = {"arch", "drivers", "include", "linux", "asm", "uapi", "kernel", "hw", "core",
                "common", "src", "lib"}


def prefix_for(tree: Path, files: Sequence[str], has_history: bool) -> str:
    """The subsystem's own subject prefix for the most changed file."""
    code = [f for f in files if not f.startswith("Documentation/")] or list(files)
    if has_history:
        for rel in code:
            res = run(["git", "-C", str(tree), "log", "-20", "--format=%s", "--", rel], check=False)
            subjects = [s for s in res.stdout.splitlines() if ":" in s and not s.startswith("Merge")]
            if subjects:
                return subjects[0].rsplit(":", 1)[0]
    best = ""
    prefix = "Documentation" if not code else ""
    for line in PREFIXES.read_text().splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        path, _, value = line.partition("\t")
        if any(f.startswith(path) for f in code[:1]) and len(path) > len(best):
            best, prefix = path, value.strip()
    if prefix:
        return prefix
    # No entry: the nearest directory that names something (drivers/fsi -> fsi).
    dirs = [d for d in code[0].split("/")[:-1] if d not in GENERIC_DIRS]
    return dirs[-1] if dirs else code[0].split("/")[-1].split(".")[0]


def _fns(sites: Sequence[Site]) -> str:
    names = []
    for s in sites:
        label = f"{s.function}()" if s.function else Path(s.file).name
        if label not in names:
            names.append(label)
    if len(names) == 1:
        return names[0]
    return ", ".join(names[:-1]) + " and " + names[-1]


def _count(n: int, one: str, many: str) -> str:
    words = ["no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine"]
    return f"{words[n] if n < len(words) else n} {one if n == 1 else many}"


def _checks(c: Candidate) -> List[str]:
    kinds: Dict[str, List[Site]] = {}
    for site in c.checks:
        kinds.setdefault(site.kind or "condition", []).append(site)
    out = []
    text = {
        "early-exit": ("returns early on a mismatch, in {f}, hiding the very corruption it finds",
                       "return early on a mismatch, in {f}, hiding the very corruption they find"),
        "message": ("prints a message and returns, in {f}", "print a message and return, in {f}"),
        "bug": ("is a BUG_ON(), in {f}, that crashes the machine over it",
                "are BUG_ON()s, in {f}, that crash the machine over it"),
        "warn": ("warns, in {f}", "warn, in {f}"),
        "condition": ("is part of a condition, in {f}", "are parts of conditions, in {f}"),
        "truth": ("tests it for truth, in {f}", "test it for truth, in {f}"),
    }
    for kind, sites in kinds.items():
        one, many = text.get(kind, text["condition"])
        n = len(sites)
        out.append(f"{_count(n, 'check', 'checks').capitalize()} "
                   f"{(one if n == 1 else many).format(f=_fns(sites))}.")
    return out


def _flow(paragraph: str) -> str:
    return textwrap.fill(paragraph, width=72, break_on_hyphens=False, break_long_words=False)


def body(target: Target, cands: Sequence[Candidate], result: Result, rule: Path) -> str:
    """The commit message body for a removal or a flag conversion."""
    c = cands[0]
    name = group_name(target.macros)
    sets = [s for cand in cands for s in cand.sets]
    checks = [s for cand in cands for s in cand.checks]
    merged = Candidate(name, c.value, c.define, c.struct, c.field, c.header, sets, checks)
    paras = []
    where = f"struct {c.struct}" + (f" ({c.header})" if c.header else "")
    verb = "are" if len(target.macros) > 1 else "is"
    intro = f"{name} {verb} kept in the {c.field} field of {where}"
    if sets:
        intro += f" and set in {_fns(sets)}"
    paras.append(intro + ".")
    if checks:
        paras.append(" ".join(_checks(merged)))
    else:
        paras.append("Nothing ever checks it: the field is written and never read.")
    guard = c.evidence.guard
    if guard:
        paras.append(f"The checks are only built with {guard} defined, and nothing in the "
                     "tree defines it: they are dead code.")
    what = [("the check" if len(checks) == 1 else "the checks") if checks else "",
            "the assignment" if len(sets) == 1 else "the assignments",
            "the field", "the #define" if len(target.macros) == 1 else "the #defines"]
    if result.wrappers:
        what.append("the macros that wrapped them")
    what = [w for w in what if w]
    listed = ", ".join(what[:-1]) + " and " + what[-1]
    if target.verdict is Verdict.FLAG:
        sites = c.evidence.flag_sets
        where_flag = f" in {_fns(sites)}" if sites else ""
        paras.append(f"Besides the magic value, the field is also set to 0 and 1{where_flag} "
                     "and tested for truth: it is really a busy flag. Make it a bool "
                     f"{target.flag}, true where the magic was set and false where it was "
                     "cleared; the one comparison with the magic becomes a truth test.")
        paras.append("As for magic numbers: " + WHY[0].lower() + WHY[1:])
    else:
        paras.append(f"{WHY} Remove {listed}.")
    if result.offsets:
        paras.append("Assembly reaches this structure through hand-written offsets; "
                     "they move down with the field: " + ", ".join(result.offsets) + ".")
    opts = " ".join(f"-D {k}={v}" for k, v in result.defines.items())
    again = (f", then again with magic={', '.join(target.macros[1:])}"
             if len(target.macros) > 1 else "")
    paras.append(f"Generated by demagic: spatch --sp-file cocci/{rule.name} {opts}{again}.")
    return "\n\n".join(_flow(p) for p in paras)


def keep_body(c: Candidate) -> str:
    return _flow(f"{c.macro} is not a magic number: {c.reason.rstrip('.')}. "
                 "Drop it from the registry; the code stays as it is.")


REMOVAL_BODY = _flow(
    "Every magic number the registry listed is now either gone or not a magic "
    "number at all, and new code should not add any: remove the registry and "
    "its translations.")
