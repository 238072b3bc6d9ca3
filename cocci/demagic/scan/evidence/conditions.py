# SPDX-License-Identifier: GPL-2.0
"""Where a compare sits: the condition around it, followed out through !, parentheses,
likely() and the || or && chains, and the operands of that condition that stay when the
compare goes."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import List, Optional, Tuple

from demagic.kernel.cparse import Token, match_backward, match_forward, text_of
from demagic.scan.evidence.errorpaths import ASSERT_RX

TRANSPARENT = frozenset({"likely", "unlikely", "__builtin_expect", "WARN_ON", "WARN_ON_ONCE",
                         "WARN", "WARN_ONCE"})


@dataclass
class Climb:
    """A compare followed out of its condition: what it ends up controlling."""
    sense_mismatch: bool   # the expression so far is true on a mismatch
    up: bool               # expression true => the whole condition true
    down: bool             # the whole condition true => expression true
    warned: str = ""       # the WARN_ON() (or WARN...) it passed through on its way
    context: str = ""      # if, assert, ternary, loop, return, assign, call
    at: int = -1           # index of the token that owns the condition
    close: int = -1        # index of the condition's closing parenthesis
    kept: List[str] = None  # type: ignore[assignment]


def compare_span(toks: List[Token], f: int, const: str) -> Optional[Tuple[int, int, bool]]:
    """(first, last, op is !=) of the compare that holds the field token toks[f]."""
    # field then op then constant: E->fld != C, E->fld != (C)
    k = f + 1
    while k < len(toks) and toks[k].text in ("[", ")"):
        k = match_forward(toks, k) + 1 if toks[k].text == "[" else k + 1
    if k + 1 < len(toks) and toks[k].text in ("==", "!=") and \
            const in [t.text for t in toks[k + 1:k + 4]]:
        last = next(m for m in range(k + 1, k + 4) if toks[m].text == const)
        while last + 1 < len(toks) and toks[last + 1].text == ")" and \
                match_backward(toks, last + 1) > k:
            last += 1
        first = _operand_start(toks, f)
        return first, last, toks[k].text == "!="
    # constant then op then field: C != E->fld
    first = _operand_start(toks, f)
    if first >= 2 and toks[first - 1].text in ("==", "!=") and toks[first - 2].text == const:
        return first - 2, f, toks[first - 1].text == "!="
    # a checker macro: F(E, C), the site is F
    if f + 1 < len(toks) and toks[f + 1].text == "(":
        return f, match_forward(toks, f + 1), True
    return None


def _operand_start(toks: List[Token], f: int) -> int:
    """The first token of the member chain that ends with toks[f] (E->a.b[2]->fld)."""
    k = f
    while k >= 2 and toks[k - 1].text in ("->", "."):
        k -= 2
        while toks[k].text in (")", "]"):
            k = match_backward(toks, k) - (1 if toks[k].text == "]" else 0)
            if toks[k].text == "(" and k > 0 and re.match(r"\w", toks[k - 1].text) \
                    and toks[k - 1].text not in ("if", "while", "return"):
                k -= 1   # a call: f(x)->fld
                break
    return k


def _other_operands(toks: List[Token], lo: int, hi: int, i: int, j: int) -> List[str]:
    """The operands of the && / || chain toks[lo..hi] other than the one holding toks[i..j]."""
    out, start, k = [], lo, lo
    while k <= hi + 1:
        if k == hi + 1 or toks[k].text in ("&&", "||"):
            if not (start <= i and j <= k - 1) and start <= k - 1:
                out.append(text_of(toks, start, k - 1))
            start = k + 1
        elif toks[k].text in ("(", "["):
            k = match_forward(toks, k)
        k += 1
    return out


def climb(toks: List[Token], first: int, last: int, mismatch: bool) -> Climb:
    """Follow the compare toks[first..last] out to what owns it."""
    c = Climb(mismatch, True, True, kept=[])
    i, j = first, last
    while True:
        if i > 0 and toks[i - 1].text == "!":
            c.sense_mismatch = not c.sense_mismatch
            c.up, c.down = c.down, c.up
            i -= 1
        # the operators around [i, j] at this level, up to the enclosing brackets
        left, right = i - 1, j + 1
        ops: List[str] = []
        while left >= 0 and toks[left].text not in STOP_LEFT:
            if toks[left].text in (")", "]"):
                left = match_backward(toks, left)
            elif toks[left].text in ("&&", "||"):
                ops.append(toks[left].text)
            left -= 1
        while right < len(toks) and toks[right].text not in STOP_RIGHT:
            if toks[right].text in ("(", "["):
                right = match_forward(toks, right)
            elif toks[right].text in ("&&", "||"):
                ops.append(toks[right].text)
            right += 1
        if "&&" in ops and "||" in ops:
            c.up = c.down = False   # a && b || c: precedence makes neither hold reliably
        elif "||" in ops:
            c.down = False
        elif "&&" in ops:
            c.up = False
        if ops:
            c.kept += _other_operands(toks, left + 1, right - 1, i, j)
        if left < 0 or right >= len(toks):
            c.context = "unknown"
            return c
        opener, closer = toks[left].text, toks[right].text
        owner = toks[left - 1].text if left > 0 else ""
        if opener == "(" and (closer == ")" or (closer == "," and _first_argument(toks, left, i))):
            if owner in ("if", "while", "switch", "for") and closer == ")":
                c.context, c.at, c.close = owner, left - 1, right
                return c
            if ASSERT_RX.match(owner):
                call_end = match_forward(toks, left)
                c.warned = c.warned or (owner if owner.startswith("WARN") else "")
                if owner in TRANSPARENT and not _statement_start(toks, left - 1):
                    i, j = left - 1, call_end   # if (WARN_ON(...)): the if decides
                    continue
                c.context, c.at, c.close = "assert", left - 1, call_end
                return c
            if owner in TRANSPARENT and closer == ")":
                i, j = left - 1, right
                continue
            if re.match(r"\w", owner) and owner not in ("return", "sizeof", "typeof"):
                c.context, c.at = "call", left - 1
                return c
            if closer == ")":
                i, j = left, right   # plain parentheses
                continue
        if opener == "?" or closer == "?":
            c.context = "ternary"
            return c
        if opener == "=":
            c.context = "assign"
            return c
        if opener == "return":
            c.context = "return"
            return c
        if opener == "(" and closer == ",":
            c.context, c.at = ("call", left - 1) if re.match(r"\w", owner) else ("unknown", -1)
            return c
        c.context = "unknown"
        return c


STOP_LEFT = frozenset(["(", "[", "{", ";", ",", "?", ":", "=", "return"])
STOP_RIGHT = frozenset([")", "]", "}", ";", ",", "?", ":"])


def _first_argument(toks: List[Token], open_at: int, i: int) -> bool:
    """toks[i] is in the first argument of the call whose ( is toks[open_at]."""
    return all(toks[k].text != "," for k in range(open_at + 1, i))


def _statement_start(toks: List[Token], k: int) -> bool:
    return k == 0 or toks[k - 1].text in (";", "{", "}", ")", "else", ":")
