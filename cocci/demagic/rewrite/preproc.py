# SPDX-License-Identifier: GPL-2.0
"""Preprocessor scaffolding a removal leaves behind, which spatch does not see.

- #define lines of macros that no longer have a use (FOO_MAGIC inside an
  #ifdef, SET_MAGIC()/BAD_MAGIC() wrappers, *_OFFSET of a removed field);
- #if/#ifdef blocks whose every branch is now empty;
- a bare #define SYM that only enabled such blocks and enables nothing else.
"""

from __future__ import annotations

import re
from typing import Iterable, List, Set, Tuple

DEFINE = re.compile(r"^\s*#\s*define\s+(\w+)")
COMMENT = re.compile(r"/\*.*?\*/|//[^\n]*", re.S)
COND_OPEN = re.compile(r"^\s*#\s*(if|ifdef|ifndef)\b")
COND_MID = re.compile(r"^\s*#\s*(else|elif)\b")
COND_END = re.compile(r"^\s*#\s*endif\b")
# Calls that #define DEBUG switches on: a file using them still needs it.
DEBUG_USERS = re.compile(r"\b(pr_debug|dev_dbg|netdev_dbg|pr_devel|print_hex_dump_debug|"
                         r"dev_vdbg|dynamic_pr_debug)\b")


def logical_end(lines: List[str], i: int) -> int:
    """End (exclusive) of the logical line at i, following backslashes."""
    j = i
    while j < len(lines) and lines[j].rstrip("\n").endswith("\\"):
        j += 1
    return j + 1


def uses(text: str, name: str) -> int:
    """Occurrences of name as a word in code, outside its own #define lines."""
    count = 0
    for line in COMMENT.sub(" ", text).splitlines():
        m = DEFINE.match(line)
        if m and m.group(1) == name:
            continue
        count += len(re.findall(rf"\b{re.escape(name)}\b", line))
    return count


def drop_defines(text: str, names: Iterable[str]) -> str:
    """Remove the #define of each name that nothing in text uses any more."""
    dead = {n for n in names if uses(text, n) == 0}
    lines = text.splitlines(keepends=True)
    out: List[str] = []
    i = 0
    while i < len(lines):
        m = DEFINE.match(lines[i])
        if m and m.group(1) in dead:
            i = logical_end(lines, i)
            continue
        out.append(lines[i])
        i += 1
    return "".join(out)


def _blocks(lines: List[str]) -> List[Tuple[int, List[int], int]]:
    """(open, [else/elif...], endif) line indexes of every conditional."""
    stack: List[Tuple[int, List[int]]] = []
    found = []
    for k, line in enumerate(lines):
        if COND_OPEN.match(line):
            stack.append((k, []))
        elif COND_MID.match(line) and stack:
            stack[-1][1].append(k)
        elif COND_END.match(line) and stack:
            start, mids = stack.pop()
            found.append((start, mids, k))
    return found


def _empty(lines: List[str], block: Tuple[int, List[int], int]) -> bool:
    start, mids, end = block
    return all(not lines[k].strip() for k in range(start + 1, end) if k not in mids)


def _symbols(line: str) -> Set[str]:
    words = set(re.findall(r"\b[A-Za-z_]\w*\b", line))
    return words - {"if", "ifdef", "ifndef", "defined"}


def drop_empty_conditionals(original: str, text: str) -> Tuple[str, Set[str]]:
    """Remove #if blocks that a removal left with only blank lines in every
    branch (blocks that were empty before are left alone).

    Returns the text and the symbols those blocks tested.
    """
    before = original.splitlines(keepends=True)
    was_empty = [_empty(before, b) for b in sorted(_blocks(before))]
    lines = text.splitlines(keepends=True)
    blocks = sorted(_blocks(lines))
    if len(blocks) != len(was_empty):
        return text, set()
    tested: Set[str] = set()
    drop: Set[int] = set()
    for block, empty_before in zip(blocks, was_empty):
        if _empty(lines, block) and not empty_before:
            start, _, end = block
            tested |= _symbols(lines[start])
            drop.update(range(start, end + 1))
    return "".join(l for k, l in enumerate(lines) if k not in drop), tested


def drop_enablers(text: str, symbols: Iterable[str]) -> str:
    """Remove a bare '#define SYM' whose conditionals are all gone."""
    for sym in symbols:
        if uses(text, sym):
            continue
        if sym == "DEBUG" and DEBUG_USERS.search(text):
            continue
        text = "".join(line for line in text.splitlines(keepends=True)
                       if not re.match(rf"^\s*#\s*define\s+{re.escape(sym)}\s*$", line))
    return text


def clean(original: str, text: str, dead_macros: Iterable[str]) -> str:
    """All of the above, in order."""
    text = drop_defines(text, dead_macros)
    text, tested = drop_empty_conditionals(original, text)
    return drop_enablers(text, tested)
