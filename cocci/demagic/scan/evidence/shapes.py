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
from dataclasses import replace
from typing import TYPE_CHECKING, List, Optional, Sequence, Tuple

from demagic.kernel.cparse import (Token, blank_preprocessor, match_forward, statement_end,
                                   text_of, tokenize)
from demagic.scan.evidence.conditions import Climb, climb, compare_span
from demagic.scan.evidence.errorpaths import error_path
from demagic.model.candidate import Candidate, CheckShape, Role, Site, SiteKind
from demagic.kernel.source import Texts, function_body, function_name_at, wrapper_macros

if TYPE_CHECKING:
    from demagic.scan.evidence import Context

def classify(texts: Texts, site: Site, col: int, const: str, guarded: bool = False) -> CheckShape:
    """The shape of the check at site (spatch's column of the field or checker macro)."""
    toks, _start, f = _window(texts, site, col) if col >= 0 else ([], 0, None)
    if f is None:
        return CheckShape(site, Role.UNKNOWN, "unread", "the compare is not where spatch saw it")
    wrapped = _checker_macro(texts, site, toks[f].text)
    if wrapped is not None:
        return replace(wrapped, role=Role.DEBUG, kind="dead",
                       mismatch="never compiled: " + wrapped.mismatch) \
            if guarded and wrapped.role is not Role.DEBUG else wrapped
    span = compare_span(toks, f, const)
    if span is None:
        return CheckShape(site, Role.UNKNOWN, "unread", "no == or != with the constant here")
    first, last, mismatch = span
    c = climb(toks, first, last, mismatch)
    kept = "; ".join(k for k in (c.kept or []) if k)
    shape = _judge_climb(toks, c, site, kept)
    if c.context == "return":
        shape = _through_helper(texts, site, toks, c, kept) or shape
    shape = replace(shape, last_line=_last_line(toks, c, site.line))
    if guarded and shape.role != Role.DEBUG:
        return CheckShape(site, Role.DEBUG, "dead", "never compiled: " + shape.mismatch, kept)
    return shape


def _through_helper(texts: Texts, site: Site, toks: List[Token], inner: Climb,
                    kept: str) -> Optional[CheckShape]:
    """A compare a small helper returns (static bool foo_valid(p) { return p && p->magic ==
    FOO_MAGIC; }) is judged where the helper is called: a debug check when every caller of
    the file tests the result the way a check would be tested, a path picker when one caller
    picks a path by it.  None otherwise."""
    body = [t.text for t in toks if t.line >= site.line - 3]
    if not site.function or toks[0].text != "{" or body.count(";") > 1 or \
            re.search(rf"^\s*EXPORT_SYMBOL\w*\(\s*{re.escape(site.function)}\s*\)",
                      texts.code(site.file), re.M):
        return None
    shapes: List[CheckShape] = []
    code = texts.code(site.file)
    for m in re.finditer(rf"\b{re.escape(site.function)}\s*\(", code):
        line = code.count("\n", 0, m.start()) + 1
        if line == site.line or texts.lines(site.file)[line - 1].startswith(
                ("static", "bool", "int", site.function)):
            continue
        call = Site(site.file, line, function_name_at(texts, site.file, line))
        col = m.start() - code.rfind("\n", 0, m.start()) - 1
        ctoks, _s, f = _window(texts, call, col)
        if f is None or f + 1 >= len(ctoks) or ctoks[f + 1].text != "(":
            return None
        outer = climb(ctoks, f, match_forward(ctoks, f + 1), inner.sense_mismatch)
        outer.up, outer.down = outer.up and inner.up, outer.down and inner.down
        shapes.append(_judge_climb(ctoks, outer, call, kept))
    picks = next((s for s in shapes if s.role is Role.FUNCTIONAL), None)
    if picks is not None:
        return CheckShape(site, Role.FUNCTIONAL, picks.kind, f"{site.function}() is tested "
                          f"by a caller at line {picks.site.line}: {picks.mismatch}", kept,
                          last_line=site.line)
    if not shapes or any(s.role is not Role.DEBUG for s in shapes):
        return None
    kinds = sorted({s.kind for s in shapes})
    return CheckShape(site, Role.DEBUG, "helper", f"{site.function}() is tested by its "
                      f"callers ({', '.join(kinds)}): {shapes[0].mismatch}", kept,
                      last_line=site.line)


def _checker_macro(texts: Texts, site: Site, name: str) -> Optional[CheckShape]:
    """The shape of a check made by a statement MAGIC_CHECK(p->magic, FOO_MAGIC), whose macro
    (defined in the same file) compares its two arguments: what its body does when they
    differ.  None when name is no such macro."""
    body = next((w for w in wrapper_macros(texts.raw(site.file)) if w.name == name), None)
    if body is None or body.member:
        return None
    m = re.search(rf"^[ \t]*#[ \t]*define[ \t]+{re.escape(name)}\s*\([^)]*\)((?:[^\n]*\\\n)*"
                  r"[^\n]*)", texts.code(site.file), re.M)
    toks = tokenize(m.group(1).replace("\\\n", " \n")) if m else []
    at = next((k for k, t in enumerate(toks) if t.text == "if"), None)
    if at is None or at + 1 >= len(toks) or toks[at + 1].text != "(":
        return CheckShape(site, Role.UNKNOWN, "macro", f"{name}() does not test its arguments")
    close = match_forward(toks, at + 1)
    branch = error_path(toks, close + 1, statement_end(toks, close + 1))
    if not branch.ok:
        return CheckShape(site, Role.FUNCTIONAL, "selects", f"{name}() picks a path")
    kind = "assert" if re.search(r"\b(?:\w*BUG\w*|panic)\s*\(", branch.text) else \
        "message" if branch.complains and not branch.exits else "early-exit"
    return CheckShape(site, Role.DEBUG, kind, f"{name}(): {branch.text}")


def _quoted(toks: List[Token], i: int, j: int) -> str:
    """A branch as a quoted phrase: 'foo(p);' (cut at 80 characters)."""
    text = _inner_text(toks, i, j)
    return "'" + (text if len(text) <= 80 else text[:77] + "...") + "'"


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
                              "a mismatch runs " + _quoted(toks, then_first, then_last), kept)
        if not c.sense_mismatch and c.down:
            if has_else:
                other = error_path(toks, else_first, else_last)
                if other.ok:
                    return CheckShape(site, Role.DEBUG, "else-error", other.text, kept,
                                      match=_inner_text(toks, then_first, then_last))
            if then.ok and (then.complains or then.failure):
                return CheckShape(site, Role.DEBUG, "match-error", then.text, kept)
            return CheckShape(site, Role.FUNCTIONAL, "selects",
                              "a match runs " + _quoted(toks, then_first, then_last)
                              + (" and a mismatch does not" if not has_else else
                                 " and a mismatch runs the else branch"), kept)
        if not c.sense_mismatch and c.up and then.ok and (then.complains or then.failure):
            return CheckShape(site, Role.DEBUG, "match-error", then.text, kept)
        if not c.sense_mismatch and c.up:
            return CheckShape(site, Role.FUNCTIONAL, "selects",
                              "a match runs " + _quoted(toks, then_first, then_last), kept)
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
