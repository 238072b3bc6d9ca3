# SPDX-License-Identifier: GPL-2.0
"""The text of a kernel tree, read once: files, MAGIC words, functions, #if guards, and the
wrapper macros that store or compare a member."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Dict, Iterable, List, Optional, Sequence, Tuple

from demagic.kernel.cparse import blank_preprocessor, closing
from demagic.kernel.grep import Grep
from demagic.model.candidate import Site

WORD = frozenset(b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_")
# The first line of a function definition: starts at column 0, names the function.
FUNC_START = re.compile(r"^[A-Za-z_][\w \t\*]*?\b(\w+)\s*\(")


MAGIC_PART_RX = re.compile(r"^(?:\w*MAGIC|MAGIC\d*|MAGIC[A-Z]?\d+)$")


def magic_name(name: str) -> bool:
    """The name speaks of a magic number: a part (between _) that ends with MAGIC or is
    MAGIC and digits, not MAGICIAN."""
    return any(MAGIC_PART_RX.match(part) for part in name.split("_"))


def magic_words(data: bytes) -> List[Tuple[str, int, int]]:
    """Each identifier naming a magic number in data (see magic_name), with its start
    and end offsets.

    Found from the literal (fast), not by a regex that starts at every word."""
    out = []
    pos = data.find(b"MAGIC")
    while pos >= 0:
        start, end = pos, pos + 5
        while start > 0 and data[start - 1] in WORD:
            start -= 1
        while end < len(data) and data[end] in WORD:
            end += 1
        name = data[start:end].decode()
        if not data[start:start + 1].isdigit() and magic_name(name):
            out.append((name, start, end))
        pos = data.find(b"MAGIC", end)
    return out


WRAPPER_RX = re.compile(rb"^[ \t]*#[ \t]*define[ \t]+(\w+)\(\s*(\w+)\s*,\s*(\w+)\s*\)"
                        rb"((?:[^\n]*\\\n)*[^\n]*)", re.M)


@dataclass(frozen=True)
class Wrapper:
    """A SET_MAGIC()/BAD_MAGIC()-style macro: two parameters, and a body that stores the
    second into the first one's member (op "=") or compares them (op "!=" or "=="); with
    member "", a MAGIC_CHECK(is, should)-style one that compares its arguments, the first
    being the field itself."""
    name: str
    member: str
    op: str


def wrapper_macros(data: bytes) -> List[Wrapper]:
    """The wrapper macros #defined in data (a file's bytes), in order."""
    out = []
    if b"define" not in data:
        return out
    for m in WRAPPER_RX.finditer(data):
        a, b = re.escape(m.group(2)), re.escape(m.group(3))
        use = re.search(rb"\(?\s*" + a + rb"\s*\)?\s*->\s*(\w+)\s*([=!]?=)\s*\(?\s*" + b + rb"\b",
                        m.group(4))
        if use:
            out.append(Wrapper(m.group(1).decode(), use.group(1).decode(), use.group(2).decode()))
        elif re.search(rb"\(?\s*" + a + rb"\s*\)?\s*!=\s*\(?\s*" + b + rb"\b", m.group(4)):
            out.append(Wrapper(m.group(1).decode(), "", "!="))
    return out


def strip_comments(text: str) -> str:
    """text with comments blanked out, offsets and line numbers kept."""
    return re.sub(r"/\*.*?\*/|//[^\n]*", lambda m: re.sub(r"[^\n]", " ", m.group(0)), text,
                  flags=re.S)


class Texts:
    """File contents of a tree, read once, and what is parsed from them."""

    def __init__(self, root: Path, grep: Optional[Grep] = None) -> None:
        self.root = root
        self.grep = grep or Grep(root)     # how the tree is grepped (see kernel/grep.py)
        self._raw: Dict[str, bytes] = {}
        self._text: Dict[str, str] = {}
        self._code: Dict[str, str] = {}
        self._lines: Dict[str, List[str]] = {}
        self._index: Optional[Dict[str, List[str]]] = None
        self.structs: Dict[str, list] = {}      # file -> [structs.Struct], see structs.py
        self.includes: Dict[str, List[str]] = {}
        self.defined_in: Dict[str, List[str]] = {}

    def raw(self, rel: str) -> bytes:
        if rel not in self._raw:
            try:
                self._raw[rel] = (self.root / rel).read_bytes()
            except OSError:
                self._raw[rel] = b""
        return self._raw[rel]

    def text(self, rel: str) -> str:
        if rel not in self._text:
            self._text[rel] = self.raw(rel).decode("utf-8", "replace")
        return self._text[rel]

    def code(self, rel: str) -> str:
        """The text with comments blanked (same offsets and lines)."""
        if rel not in self._code:
            self._code[rel] = strip_comments(self.text(rel))
        return self._code[rel]

    def lines(self, rel: str) -> List[str]:
        if rel not in self._lines:
            self._lines[rel] = self.text(rel).split("\n")
        return self._lines[rel]

    def offset(self, rel: str, line: int, col: int = 0) -> int:
        """The character offset of line (1-based) and column (0-based) in rel."""
        lines = self.lines(rel)
        return sum(len(l) + 1 for l in lines[:max(0, line - 1)]) + col

    def line_of(self, rel: str, offset: int) -> int:
        return self.text(rel).count("\n", 0, offset) + 1

    def magic_index(self, files: Iterable[str]) -> Dict[str, List[str]]:
        """MAGIC name -> the files (of files) that mention it; built once."""
        if self._index is None:
            index: Dict[str, List[str]] = {}
            for f in files:
                for name in {w for w, _s, _e in magic_words(self.raw(f))}:
                    index.setdefault(name, []).append(f)
            self._index = index
        return self._index

    def exists(self, rel: str) -> bool:
        return (self.root / rel).is_file()


def function_start(texts: Texts, site: Site) -> int:
    """The 1-based line where site's function starts (the site's line when unknown)."""
    lines = texts.lines(site.file)
    start = site.line - 1
    pat = re.compile(rf"\b{re.escape(site.function)}\s*\(") if site.function else None
    while start > 0 and not (pat and pat.search(lines[start])
                             and not lines[start].startswith((" ", "\t"))):
        start -= 1
        if site.line - start > 400:
            break
    return start + 1


def function_text(texts: Texts, site: Site) -> List[str]:
    """The lines of site's function up to site (the function's opening line on)."""
    return texts.lines(site.file)[function_start(texts, site) - 1:site.line]


def function_body(texts: Texts, rel: str, line: int) -> Tuple[int, int]:
    """(start, end) offsets in texts.code(rel) of the function body ({ to }) around line.

    A function body is a { at the start of a line (kernel style) and its match;
    (-1, -1) outside any function."""
    code = texts.code(rel)
    at = texts.offset(rel, line)
    pos = code.rfind("\n{", 0, at + 1)
    if pos < 0:
        return -1, -1
    end = closing(code, pos + 1)
    return (pos + 1, end) if end >= at else (-1, -1)


def function_name_at(texts: Texts, rel: str, line: int) -> str:
    """The name of the function whose body holds line ("" at file scope)."""
    start, _end = function_body(texts, rel, line)
    if start < 0:
        return ""
    # a macro above the function (#define f(x) do {} while (0)) is no head of it
    head = blank_preprocessor(texts.code(rel)[max(0, start - 400):start])
    m = list(re.finditer(r"\b(\w+)\s*\([^;{}]*\)\s*(?:__\w+\s*)*$", head))
    return m[-1].group(1) if m else ""


def enclosing_call(code: str, at: int) -> str:
    """The name of the call whose parentheses hold offset at ("" if none in the statement)."""
    depth = 0
    k = at
    while k > 0:
        k -= 1
        ch = code[k]
        if ch == ")":
            depth += 1
        elif ch == "(":
            if depth == 0:
                m = re.search(r"(\w+)\s*$", code[max(0, k - 80):k])
                return m.group(1) if m else ""
            depth -= 1
        elif ch in ";{}" and depth == 0:
            return ""
    return ""


def one_per_line(sites: Iterable[Site]) -> List[Site]:
    """Sites sorted, one per file:line (windows of a set and a check overlap)."""
    return sorted({(s.file, s.line): s for s in sites}.values(), key=lambda s: (s.file, s.line))


def matching_lines(texts: Texts, files: Iterable[str], rx: "re.Pattern[str]",
                   kind: str) -> List[Site]:
    """A Site for each line of files that rx matches (outside preprocessor lines)."""
    out = []
    for f in files:
        text = texts.text(f)
        for m in rx.finditer(text):
            start = text.rfind("\n", 0, m.start()) + 1
            if not text[start:m.start()].lstrip().startswith("#"):
                out.append(Site(f, text.count("\n", 0, m.start()) + 1, "", kind))
    return sorted(set(out), key=lambda s: (s.file, s.line))


def guards_at(lines: Sequence[str], line: int) -> List[str]:
    """Preprocessor symbols whose #ifdef/#if defined() encloses line (!X for #ifndef X)."""
    stack: List[List[str]] = []
    for text in lines[:line - 1]:
        m = re.match(r"\s*#\s*(ifdef|ifndef|if|elif|else|endif)\b(.*)", text)
        if not m:
            continue
        what, rest = m.groups()
        if what in ("ifdef", "ifndef"):
            sym = rest.split()[0] if rest.split() else ""
            stack.append([sym if what == "ifdef" else "!" + sym])
        elif what == "if":
            stack.append(re.findall(r"(?<!!)defined\s*\(?\s*(\w+)", rest)
                         or ["!" + s for s in re.findall(r"!\s*defined\s*\(?\s*(\w+)", rest)]
                         or [rest.strip()])
        elif what in ("else", "elif") and stack:
            stack[-1] = ["!" + s if not s.startswith("!") else s[1:] for s in stack[-1]]
        elif what == "endif" and stack:
            stack.pop()
    return [s for frame in stack for s in frame]


def call_alone(lines: Sequence[str], no: int, name: str) -> bool:
    """The call of name at line no is a statement of its own, on its own line, after a
    statement, a brace or a label: removing the line leaves valid code."""
    text = strip_comments(lines[no - 1]).strip()
    m = re.fullmatch(rf"{re.escape(name)}\s*\((.*)\)\s*;", text)
    if not m or m.group(1).count("(") != m.group(1).count(")"):
        return False
    for back in range(no - 1, 0, -1):
        prev = strip_comments(lines[back - 1]).strip()
        if not prev or prev.startswith(("#", "*", "/*")) or prev.endswith("*/"):
            continue
        return prev.endswith((";", "{", "}", ":"))
    return True
