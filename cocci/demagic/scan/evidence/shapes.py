# SPDX-License-Identifier: GPL-2.0
"""How each check behaves: is it a debug check, or does code depend on its outcome?

A check is a debug check (role DEBUG) only with positive evidence: a
mismatch takes an error path (an early exit, possibly after a message or
the release of a lock, an error return, a message, WARN or BUG) and a match
runs on into code that runs anyway once the check is gone.  The compare is
followed out of its condition through !, parentheses, likely() and the
|| or && chains around it:

- `if (!p || p->magic != M) <error path>`: a mismatch makes the condition
  true; the error path is the check.  The else branch, if any, is the
  match's own path and stays.
- `if (p->magic == M) A else <error path>`: a mismatch makes the condition
  false; A always runs afterwards.
- BUG_ON(), WARN_ON() and friends: the assertion is the error path.

Anything else is FUNCTIONAL (the outcome chooses between two normal paths:
`if (p->magic == M) A` with no error path, a loop condition, ?:) or
UNKNOWN (the value is returned, stored or passed on).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, List, Optional, Sequence, Tuple

from demagic.kernel.cparse import (Token, blank_preprocessor, match_backward, match_forward,
                                   statement_end, statements, text_of, tokenize)
from demagic.model.candidate import Candidate, CheckShape, Role, Site, SiteKind
from demagic.kernel.source import Texts, function_body

if TYPE_CHECKING:
    from demagic.scan.evidence import Context

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
TRANSPARENT = frozenset({"likely", "unlikely", "__builtin_expect", "WARN_ON", "WARN_ON_ONCE",
                         "WARN", "WARN_ONCE"})
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


def _compare_span(toks: List[Token], f: int, const: str) -> Optional[Tuple[int, int, bool]]:
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


def classify(texts: Texts, site: Site, col: int, const: str, guarded: bool = False) -> CheckShape:
    """The shape of the check at site (spatch's column of the field or checker macro)."""
    toks, _start, f = _window(texts, site, col) if col >= 0 else ([], 0, None)
    if f is None:
        return CheckShape(site, Role.UNKNOWN, "unread", "the compare is not where spatch saw it")
    span = _compare_span(toks, f, const)
    if span is None:
        return CheckShape(site, Role.UNKNOWN, "unread", "no == or != with the constant here")
    first, last, mismatch = span
    c = climb(toks, first, last, mismatch)
    kept = "; ".join(k for k in (c.kept or []) if k)
    shape = _judge_climb(toks, c, site, kept)
    shape = replace(shape, last_line=_last_line(toks, c, site.line))
    if guarded and shape.role != Role.DEBUG:
        return CheckShape(site, Role.DEBUG, "dead", "never compiled: " + shape.mismatch, kept)
    return shape


def _inner_text(toks: List[Token], i: int, j: int) -> str:
    """A statement or the inside of a block, as code."""
    if toks[i].text == "{" and match_forward(toks, i) == j:
        i, j = i + 1, j - 1
    return text_of(toks, i, j) if i <= j else ""


def _last_line(toks: List[Token], c: Climb, line: int) -> int:
    """The last line of the statement that holds the check."""
    if c.context == "if" and c.close >= 0:
        end = statement_end(toks, c.close + 1)
        if end + 1 < len(toks) and toks[end + 1].text == "else":
            end = statement_end(toks, end + 2)
        return toks[min(end, len(toks) - 1)].line
    if c.context == "assert" and c.close >= 0:
        return toks[min(c.close, len(toks) - 1)].line
    return line


def _judge_climb(toks: List[Token], c: Climb, site: Site, kept: str) -> CheckShape:
    if c.context == "assert":
        if c.up or (c.down and c.sense_mismatch):
            fired = text_of(toks, c.at, c.close)
            return CheckShape(site, Role.DEBUG, "warn" if toks[c.at].text.startswith("WARN")
                              else "assert", fired, kept)
        return CheckShape(site, Role.UNKNOWN, "assert-mixed",
                          "the assertion also depends on other operands joined by &&", kept)
    if c.context == "if":
        then_first = c.close + 1
        then_last = statement_end(toks, then_first)
        has_else = then_last + 1 < len(toks) and toks[then_last + 1].text == "else"
        else_first = then_last + 2
        else_last = statement_end(toks, else_first) if has_else else -1
        then = error_path(toks, then_first, then_last)
        if c.sense_mismatch and (c.up or c.down):
            if then.ok:
                kind = "early-exit" if then.exits and not then.complains else \
                    ("message" if then.complains else "early-exit")
                text = then.text
                if c.warned:
                    kind = "warn"
                    text = f"{c.warned}(...); {text}"   # if (WARN_ON(...)) return -E...
                return CheckShape(site, Role.DEBUG, kind, text, kept)
            return CheckShape(site, Role.UNKNOWN, "mismatch-work",
                              "a mismatch runs " + text_of(toks, then_first, then_last)[:80], kept)
        if not c.sense_mismatch and c.down:
            if has_else:
                other = error_path(toks, else_first, else_last)
                if other.ok:
                    return CheckShape(site, Role.DEBUG, "else-error", other.text, kept,
                                      match=_inner_text(toks, then_first, then_last))
            if then.ok and (then.complains or then.failure):
                return CheckShape(site, Role.DEBUG, "match-error", then.text, kept)
            return CheckShape(site, Role.FUNCTIONAL, "selects",
                              "a match runs " + text_of(toks, then_first, then_last)[:80]
                              + (", a mismatch does not" if not has_else else
                                 ", a mismatch runs the else branch"), kept)
        if not c.sense_mismatch and c.up and then.ok and (then.complains or then.failure):
            return CheckShape(site, Role.DEBUG, "match-error", then.text, kept)
        if not c.sense_mismatch and c.up:
            return CheckShape(site, Role.FUNCTIONAL, "selects",
                              "a match runs " + text_of(toks, then_first, then_last)[:80], kept)
        return CheckShape(site, Role.UNKNOWN, "mixed",
                          "the condition joins the compare with && and || so that a mismatch "
                          "does not decide it", kept)
    if c.context in ("while", "for"):
        return CheckShape(site, Role.FUNCTIONAL, "loop", "a loop condition", kept)
    if c.context == "switch":
        return CheckShape(site, Role.FUNCTIONAL, "switch", "a switch", kept)
    if c.context == "ternary":
        return CheckShape(site, Role.FUNCTIONAL, "ternary", "?: picks a value by it", kept)
    if c.context == "return":
        return CheckShape(site, Role.UNKNOWN, "returned", "the outcome is returned to the caller", kept)
    if c.context == "assign":
        return CheckShape(site, Role.UNKNOWN, "stored", "the outcome is stored in a variable", kept)
    if c.context == "call":
        return CheckShape(site, Role.UNKNOWN, "passed",
                          f"the outcome is passed to {toks[c.at].text}()", kept)
    return CheckShape(site, Role.UNKNOWN, "unread", "the scan cannot tell what uses the outcome", kept)


def _window(texts: Texts, site: Site, col: int) -> Tuple[List[Token], int, Optional[int]]:
    """The tokens of the function (or macro) around site, and the index of the token at col."""
    code = texts.code(site.file)
    at = texts.offset(site.file, site.line, col)
    start, end = function_body(texts, site.file, site.line)
    if _in_macro(texts, site.file, site.line):
        start, end = _macro_span(texts, site.file, site.line)
        clean = code[start:end].replace("\\\n", " \n")
    else:
        if start < 0:
            start = texts.offset(site.file, max(1, site.line - 60))
            end = texts.offset(site.file, min(len(texts.lines(site.file)), site.line + 60))
        clean = blank_preprocessor(code[start:end + 1])
    first_line = code.count("\n", 0, start) + 1
    toks = [Token(t.text, t.start + start, t.line) for t in tokenize(clean, 0, None, first_line)]
    index = next((k for k, t in enumerate(toks) if t.start == at), None)
    if index is None:
        index = next((k for k, t in enumerate(toks) if t.start <= at < t.start + len(t.text)),
                     None)
    return toks, start, index


def _in_macro(texts: Texts, rel: str, line: int) -> bool:
    lines = texts.lines(rel)
    k = line - 1
    while k > 0 and lines[k - 1].rstrip().endswith("\\"):
        k -= 1
    return lines[k].lstrip().startswith("#") and "define" in lines[k]


def _macro_span(texts: Texts, rel: str, line: int) -> Tuple[int, int]:
    lines = texts.lines(rel)
    k = line - 1
    while k > 0 and lines[k - 1].rstrip().endswith("\\"):
        k -= 1
    e = line - 1
    while e < len(lines) - 1 and lines[e].rstrip().endswith("\\"):
        e += 1
    start = texts.offset(rel, k + 1)
    end = texts.offset(rel, e + 1) + len(lines[e])
    # skip "#define NAME(args)"
    head = re.match(r"\s*#\s*define\s+\w+(?:\([^)]*\))?", texts.code(rel)[start:end])
    return start + (head.end() if head else 0), end


def gather(ctx: "Context", cands: Sequence[Candidate]) -> None:
    """shapes: one per compare of the field with the constant (truth tests are states)."""
    for c in cands:
        guarded = bool(c.evidence.guard)
        c.evidence.shapes = [
            CheckShape(s, Role.FUNCTIONAL, "switch",
                       f"switch ({ctx.found.switches.get((s.file, s.line, c.macro), '')}) picks "
                       f"its case {c.macro} by it") if s.kind == "switch"
            else classify(ctx.texts, s, ctx.col(c, s), c.macro, guarded)
            for s in c.checks if s.kind is not SiteKind.TRUTH]
