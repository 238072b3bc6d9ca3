# SPDX-License-Identifier: GPL-2.0
"""Error paths: what the statement a check controls does when the magic does not match.

An error path only complains (a message, WARN, BUG), undoes what the function
did before the check (an unlock, a put) and leaves (return, goto, break,
continue), or does some of these; the exit may say it failed (-errno,
ERR_PTR(), goto err).  Anything else is a normal path.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import List

from demagic.kernel.cparse import Token, match_forward, statement_end, statements, text_of

ASSERT_RX = re.compile(r"^(?:\w*BUG_ON\w*|BUG|WARN|WARN_ON|WARN_ONCE|WARN_ON_ONCE|WARN_TAINT\w*"
                       r"|\w*_WARN_ON\w*|\w*ASSERT\w*|assert)$")
PANIC_RX = re.compile(r"^(?:BUG|panic|dump_stack|\w*BUG\w*)$")
# Names of calls that only complain: printk and its wrappers, subsystem log macros.
MESSAGE_PARTS = frozenset("printk printf print err error warn warning dbg debug info notice crit "
                          "alert emerg msg log ratelimited once".split())
MESSAGE_RX = re.compile(r"^(?:pr|dev|netdev|net|dev_dbg|wiphy|drm|ata|ntfs|btrfs|ext4)_|printk|PRINT")
# Calls that only undo what the function did before the check: locks, references.
RELEASE_RX = re.compile(r"(?:^|_)(?:unlock\w*|up|up_read|up_write|irqrestore|restore|put|release)$"
                        r"|^(?:put|kfree|kvfree)\w*$|unlock")
# Calls that only pass a condition through.
EXIT = frozenset({"return", "goto", "break", "continue"})
SIMPLE_VALUE_RX = re.compile(r"^-?\(?-?(?:[A-Za-z_]\w*|0[xX][0-9a-fA-F]+\w*|\d+\w*)\)?$")


def message_call(name: str) -> bool:
    """The call only prints (or warns): printk(), pr_err(), dev_warn(), FOO_DBG()..."""
    if MESSAGE_RX.search(name) or ASSERT_RX.match(name):
        return True
    parts = [p for p in name.lower().split("_") if p]
    return any(p in MESSAGE_PARTS for p in parts)


@dataclass(frozen=True)
class Branch:
    """What an error path does, if the statement is one."""
    ok: bool
    exits: bool        # leaves the function, loop or block (return, goto, break, BUG)
    complains: bool    # prints, warns or crashes
    text: str
    failure: bool = False   # the exit says it failed: -errno, ERR_PTR(), goto err..., BUG()


NOT_ERROR = Branch(False, False, False, "")
# Labels of error exits, and returned values that mean failure.
ERROR_LABEL_RX = re.compile(r"err|fail|bad|inval|abort", re.I)
FAILURE_VALUE_RX = re.compile(r"^(?:-\(?E[A-Z0-9]+\)?|ERR_PTR\(.*\)|-1|NULL|false)$")


def error_path(toks: List[Token], i: int, j: int) -> Branch:
    """Whether toks[i..j] (one statement or a block) is an error path."""
    if i > j:
        return NOT_ERROR
    if toks[i].text == "{" and match_forward(toks, i) == j:
        inner = statements(toks, i + 1, j - 1)
        parts = [_statement(toks, a, b) for a, b in inner]
    else:
        parts = [_statement(toks, i, j)]
    if not parts or not all(p.ok for p in parts):
        return NOT_ERROR
    exits = any(p.exits for p in parts)
    complains = any(p.complains for p in parts)
    if not exits and not complains:
        return NOT_ERROR
    # Nothing may follow an exit inside the same block.
    if exits and not parts[-1].exits:
        return NOT_ERROR
    return Branch(True, exits, complains, "; ".join(p.text for p in parts if p.text),
                  any(p.failure for p in parts))


def _statement(toks: List[Token], i: int, j: int) -> Branch:
    """One statement of an error path: an exit, a message, a release, an error code."""
    words = [t.text for t in toks[i:j + 1]]
    text = text_of(toks, i, j).rstrip(";")
    first = words[0]
    if first == "{":
        return error_path(toks, i, j)
    if first == ";":
        return Branch(True, False, False, "")
    if first in ("break", "continue"):
        return Branch(True, True, False, text)
    if first == "goto" and len(words) == 3:
        return Branch(True, True, False, text, ERROR_LABEL_RX.search(words[1]) is not None)
    if first == "return":
        value = "".join(words[1:-1])
        ok = not value or SIMPLE_VALUE_RX.match(value) is not None or \
            re.fullmatch(r"ERR_PTR\(-?\w+\)", value) is not None
        return Branch(ok, True, False, text, FAILURE_VALUE_RX.match(value) is not None)
    if first == "if" and len(words) > 2 and words[1] == "(":
        close = match_forward(toks, i + 1)
        body = statement_end(toks, close + 1)
        inner = error_path(toks, close + 1, body)
        if not inner.ok or inner.exits:
            return NOT_ERROR   # a condition around the exit: not every mismatch exits
        if body < j:
            other = error_path(toks, body + 2, j)
            if not other.ok or other.exits:
                return NOT_ERROR
        return Branch(True, False, inner.complains, text)
    m = re.match(r"^(\w+)\s*\(", " ".join(words[:2]))
    if m and words[-1] == ";" and match_forward(toks, i + 1) == j - 1:
        name = m.group(1)
        if PANIC_RX.match(name) and not name.endswith("_ON"):
            return Branch(True, True, True, text, True)
        if message_call(name):
            return Branch(True, False, True, text)
        if RELEASE_RX.search(name):
            return Branch(True, False, False, text)
        return NOT_ERROR
    if "=" in words and words[-1] == ";":
        eq = words.index("=")
        lhs, rhs = "".join(words[:eq]), "".join(words[eq + 1:-1])
        if re.fullmatch(r"[A-Za-z_][\w.>\-\[\]]*", lhs) and SIMPLE_VALUE_RX.match(rhs):
            return Branch(True, False, False, text)   # ret = -EINVAL; tty->driver_data = NULL;
    return NOT_ERROR
