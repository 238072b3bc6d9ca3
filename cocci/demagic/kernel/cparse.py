# SPDX-License-Identifier: GPL-2.0
"""Just enough C to follow a compare: tokens, brackets, statements.

The scan knows from spatch where each compare of a magic is; what it needs
next is what the code does with the outcome.  This module reads the tokens
around a compare (comments and preprocessor lines blanked) and answers in
terms of them: the enclosing condition, the statement that condition
controls, the statements of a block.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import List, Optional, Tuple

TOKEN_RX = re.compile(
    r"\"(?:\\.|[^\"\\\n])*\"|'(?:\\.|[^'\\\n])*'|[A-Za-z_]\w*|0[xX][0-9a-fA-F]+\w*|\d[\w.]*"
    r"|->|\+\+|--|<<=|>>=|<<|>>|<=|>=|==|!=|&&|\|\||[-+*/%&|^]=|\.\.\.|\S")
KEYWORDS = frozenset("if else while for do switch case default return goto break continue "
                     "sizeof typeof struct union enum static const volatile".split())


@dataclass(frozen=True)
class Token:
    text: str
    start: int     # offset in the text the tokens came from
    line: int      # 1-based


def blank_preprocessor(code: str) -> str:
    """code with preprocessor directives (and their continuation lines) blanked."""
    out = []
    cont = False
    for line in code.split("\n"):
        directive = cont or line.lstrip().startswith("#")
        cont = directive and line.rstrip().endswith("\\")
        out.append(" " * len(line) if directive else line)
    return "\n".join(out)


STRING_RX = re.compile(r"\"(?:\\.|[^\"\\\n])*\"|'(?:\\.|[^'\\\n])*'")


def blank_strings(code: str) -> str:
    """code with the insides of its string and character literals blanked (offsets kept):
    what a regular expression over code must not read as code."""
    return STRING_RX.sub(lambda m: m.group(0)[0] + " " * (len(m.group(0)) - 2) + m.group(0)[-1],
                         code)


def tokenize(code: str, start: int = 0, end: Optional[int] = None, first_line: int = 1) -> List[Token]:
    """The tokens of code[start:end], their offsets in code and their lines."""
    end = len(code) if end is None else end
    out = []
    line = first_line
    pos = start
    for m in TOKEN_RX.finditer(code, start, end):
        line += code.count("\n", pos, m.start())
        pos = m.start()
        out.append(Token(m.group(0), m.start(), line))
    return out


def match_forward(toks: List[Token], i: int) -> int:
    """Index of the bracket that closes toks[i] (len(toks) if none)."""
    pairs = {"(": ")", "[": "]", "{": "}"}
    opener = toks[i].text
    closer = pairs[opener]
    depth = 0
    for k in range(i, len(toks)):
        if toks[k].text == opener:
            depth += 1
        elif toks[k].text == closer:
            depth -= 1
            if depth == 0:
                return k
    return len(toks)


def closing(code: str, open_at: int) -> int:
    """The offset in code of the bracket closing the one at open_at (len(code) if none),
    string and character literals skipped."""
    opener = code[open_at]
    closer = {"(": ")", "{": "}", "[": "]"}[opener]
    depth = 0
    for m in TOKEN_RX.finditer(code, open_at):
        if m.group(0) == opener:
            depth += 1
        elif m.group(0) == closer:
            depth -= 1
            if depth == 0:
                return m.start()
    return len(code)


def match_backward(toks: List[Token], i: int) -> int:
    """Index of the bracket that opens toks[i] (-1 if none)."""
    pairs = {")": "(", "]": "[", "}": "{"}
    closer = toks[i].text
    opener = pairs[closer]
    depth = 0
    for k in range(i, -1, -1):
        if toks[k].text == closer:
            depth += 1
        elif toks[k].text == opener:
            depth -= 1
            if depth == 0:
                return k
    return -1


def statement_end(toks: List[Token], i: int) -> int:
    """Index of the last token of the statement starting at toks[i]."""
    if i >= len(toks):
        return len(toks) - 1
    t = toks[i].text
    if t == "{":
        return match_forward(toks, i)
    if t in ("if", "while", "for", "switch") and i + 1 < len(toks) and toks[i + 1].text == "(":
        close = match_forward(toks, i + 1)
        body_end = statement_end(toks, close + 1)
        if t == "if" and body_end + 1 < len(toks) and toks[body_end + 1].text == "else":
            return statement_end(toks, body_end + 2)
        return body_end
    if t == "do":
        body_end = statement_end(toks, i + 1)
        k = body_end + 1
        while k < len(toks) and toks[k].text != ";":
            k = match_forward(toks, k) + 1 if toks[k].text == "(" else k + 1
        return min(k, len(toks) - 1)
    k = i
    while k < len(toks) and toks[k].text != ";":
        if toks[k].text in ("(", "[", "{"):
            k = match_forward(toks, k)
        k += 1
    return min(k, len(toks) - 1)


def statements(toks: List[Token], i: int, j: int) -> List[Tuple[int, int]]:
    """The statements of toks[i..j] (the inside of a block), as (first, last) indexes."""
    out = []
    k = i
    while k <= j:
        end = statement_end(toks, k)
        out.append((k, min(end, j)))
        k = end + 1
    return out


def text_of(toks: List[Token], i: int, j: int) -> str:
    """toks[i..j] as a line of code with kernel spacing, roughly."""
    out = ""
    unary_next = False
    for k in range(i, j + 1):
        t = toks[k].text
        prev = toks[k - 1].text if k > i else ""
        tight = (unary_next or t in (")", "]", ";", ",", "->", ".", "++", "--")
                 or prev in ("(", "[", "->", ".", "!", "~")
                 or (t in ("(", "[") and (re.match(r"\w", prev) and prev not in KEYWORDS
                                          or prev in (")", "]"))))
        out += t if (not out or tight) else " " + t
        unary_next = t in ("-", "&", "*", "+") and (
            not prev or prev in ("(", "[", ",", "=", "return", "?", ":", "&&", "||", "!")
            or prev in ("==", "!=", "<", ">", "<=", ">="))
    return out


def shortened(code: str, limit: int = 50) -> str:
    """code as a reason quotes it: whole when it fits in limit characters, else its calls'
    arguments elided (kmem_cache_zalloc(...)), else cut at a word with "..."."""
    code = re.sub(r"\s+", " ", code.strip())
    if len(code) <= limit:
        return code
    out, i = [], 0
    while i < len(code):
        if code[i] == "(" and i and (code[i - 1].isalnum() or code[i - 1] == "_"):
            end = closing(code, i)
            if end > i:
                out.append("(...)")
                i = end + 1
                continue
        out.append(code[i])
        i += 1
    code = "".join(out)
    if len(code) <= limit:
        return code
    cut = code[:limit - 3]
    return (cut[:cut.rfind(" ")] if " " in cut else cut).rstrip() + "..."
