# SPDX-License-Identifier: GPL-2.0
"""What SmPL cannot say: the layout a kernel reviewer expects after a removal.

spatch decides which code goes; this pass decides which blank lines and
comments go with it, line by line against the original:
- a removed line takes its own trailing comment, never a neighbour's;
- a whole-line comment outside the removed braces stays, unless the code it
  headed is all gone (a section comment left empty);
- blank lines stay, but a removal never leaves two in a row, nor one just
  inside a brace or at the top of the file;
- changed lines carry no trailing blanks.
"""

from __future__ import annotations

import difflib
import re
from typing import List, Set, Tuple

COMMENT_LINE = re.compile(r"^\s*(/\*.*\*/|//.*)\s*$")
COMMENT_START = re.compile(r"^\s*/\*")
COMMENT_BODY = re.compile(r"^\s*(\*|/\*)")
TRAILING_COMMENT = re.compile(r"\s*(/\*[^/]*\*/|//.*)\s*$")


def _blank(line: str) -> bool:
    return not line.strip()


def _comment_run(lines: List[str], i: int) -> int:
    """End (exclusive) of the comment starting at lines[i], or i if none."""
    if COMMENT_LINE.match(lines[i]) or (COMMENT_START.match(lines[i])
                                         and lines[i].rstrip().endswith("*/")):
        return i + 1
    if not COMMENT_START.match(lines[i]):
        return i
    j = i
    while j < len(lines):
        if "*/" in lines[j]:
            return j + 1
        j += 1
    return i


class _Merge:
    """The rebuilt file, with the places where something was removed."""

    def __init__(self) -> None:
        self.out: List[str] = []
        self.cuts: Set[int] = set()      # indexes in out just after a removal
        self.kept_comments: List[Tuple[int, int]] = []   # restored comment spans

    def removed(self, old: List[str]) -> None:
        """Keep blank lines and top-level whole-line comments of a removed run."""
        depth = 0
        i = 0
        self.cuts.add(len(self.out))
        while i < len(old):
            end = _comment_run(old, i) if depth == 0 else i
            if end > i:
                start = len(self.out)
                self.out.extend(old[i:end])
                self.kept_comments.append((start, len(self.out)))
                i = end
                continue
            line = old[i]
            if _blank(line):
                self.out.append(line)
            else:
                code = TRAILING_COMMENT.sub("", line)
                depth = max(0, depth + code.count("{") - code.count("}"))
            i += 1
            self.cuts.add(len(self.out))

    def changed(self, old: List[str], new: List[str]) -> None:
        """A replaced run: align again once stray comments are put back."""
        fixed = [_unsteal(line, old) for line in new]
        if all(_blank(line) for line in fixed):
            self.removed(old)
            return
        matcher = difflib.SequenceMatcher(None, old, fixed, autojunk=False)
        for tag, i1, i2, j1, j2 in matcher.get_opcodes():
            if tag == "equal":
                self.out.extend(old[i1:i2])
            elif tag == "delete":
                self.removed(old[i1:i2])
            else:
                self.cuts.add(len(self.out))
                olds, news = old[i1:i2], fixed[j1:j2]
                if len(olds) == len(news):
                    news = [realign(o, n) for o, n in zip(olds, news)]
                self.out.extend(line.rstrip() + "\n" for line in news)
                self.cuts.add(len(self.out))


TOKEN = re.compile(r"\s*(/\*.*?\*/|//.*|\"(?:\\\\.|[^\"\\\\])*\"|'(?:\\\\.|[^'\\\\])*'"
                   r"|\w+|->|\+\+|--|<<=?|>>=?|[=!<>]=|&&|\|\||[-+*/%&|^]=|\S)")


def _tokens(line: str) -> List[Tuple[str, str]]:
    """(leading whitespace, token) pairs of one line."""
    out = []
    pos = 0
    body = line.rstrip("\n")
    while pos < len(body):
        m = TOKEN.match(body, pos)
        if not m or m.end() == pos:
            break
        out.append((body[pos:m.start(1)], m.group(1)))
        pos = m.end()
    return out


def realign(old: str, new: str) -> str:
    """new, with the spacing of old wherever their tokens correspond.

    spatch reprints the lines it changes with its own spacing; a reviewer
    wants the alignment that was there (cp->magic\t\t= X becomes
    cp->busy\t\t= true, not cp->busy = true).
    """
    old_t, new_t = _tokens(old), _tokens(new)
    matcher = difflib.SequenceMatcher(None, [t for _, t in old_t], [t for _, t in new_t],
                                      autojunk=False)
    spaced = list(new_t)
    gap = False     # old tokens were skipped: the next token keeps spatch's spacing
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal" or (tag == "replace" and i2 - i1 == j2 - j1):
            for k in range(0 if not gap else 1, j2 - j1):
                spaced[j1 + k] = (old_t[i1 + k][0], new_t[j1 + k][1])
        gap = tag in ("delete", "insert") or (tag == "replace" and i2 - i1 != j2 - j1)
    # Kernel style has no blanks around member access, whatever was there.
    for k, (ws, tok) in enumerate(spaced):
        if tok == "->" or (k > 0 and spaced[k - 1][1] == "->"):
            spaced[k] = ("", tok)
    return "".join(ws + tok for ws, tok in spaced) + "\n"


def _unsteal(line: str, old: List[str]) -> str:
    """Drop a trailing comment that spatch moved here from a removed line."""
    m = TRAILING_COMMENT.search(line)
    if not m:
        return line
    bare = line[:m.start()]
    if any(o.rstrip("\n") == bare for o in old):
        return bare + "\n"
    return line


def _headed_nothing(out: List[str], end: int) -> bool:
    """True when a comment ending at end is followed only by blanks and then
    another comment, a closing #endif or the end of the file."""
    j = end
    while j < len(out) and _blank(out[j]):
        j += 1
    return j == len(out) or bool(COMMENT_START.match(out[j])) or out[j].startswith("#endif")


def units(text: str) -> List[str]:
    """Lines, except that a block comment spanning lines is one unit."""
    lines = text.splitlines(keepends=True)
    out: List[str] = []
    i = 0
    while i < len(lines):
        end = _comment_run(lines, i)
        if end > i + 1:
            out.append("".join(lines[i:end]))
            i = end
        else:
            out.append(lines[i])
            i += 1
    return out


def tidy(original: str, rewritten: str) -> str:
    """The rewritten file with blank lines and comments put right."""
    old = units(original)
    new = units(rewritten)
    merge = _Merge()
    matcher = difflib.SequenceMatcher(None, old, new, autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            merge.out.extend(old[i1:i2])
        elif tag == "delete":
            merge.removed(old[i1:i2])
        elif tag == "insert":
            merge.changed([], new[j1:j2])
        else:
            merge.changed(old[i1:i2], new[j1:j2])
    out = merge.out
    drop: Set[int] = set()
    # A section comment whose code all went goes too (with its blank line).
    for start, end in merge.kept_comments:
        before_blank = start == 0 or _blank(out[start - 1])
        if before_blank and _headed_nothing(out, end):
            drop.update(range(start, end))
            merge.cuts.add(start)
    # A comment that headed only the removed code (blank or a brace after it) goes too.
    for c in sorted(merge.cuts):
        if 1 < c <= len(out) and COMMENT_START.match(out[c - 1]) and (c - 1) not in drop \
                and (_blank(out[c - 2]) or out[c - 2].rstrip().endswith("{")) \
                and (c == len(out) or _blank(out[c]) or out[c].strip().startswith("}")):
            drop.add(c - 1)
            merge.cuts.add(c - 1)
    out = [line for k, line in enumerate(out) if k not in drop]
    cuts = _renumber(merge.cuts, drop)
    out = [_unmagic(line) if any(-15 <= k - c <= 3 for c in cuts) else line
           for k, line in enumerate(out)]
    return "".join(_collapse(out, cuts))


# Phrases of a comment that spoke of the magic check a removal took away.
MAGIC_PHRASES = (re.compile(r"\s+and\s+magic(?:\s+(?:integrity|number|value|check))?\b", re.I),
                 re.compile(r"\bmagic(?:\s+(?:integrity|number|value|check))?\s+and\s+", re.I),
                 re.compile(r",\s*magic(?:\s+(?:integrity|number|value|check))?\b", re.I))


def _unmagic(unit: str) -> str:
    """A comment near a removal without its words about the magic, when they are a phrase
    joined by 'and' or a comma ('presence and magic integrity' -> 'presence')."""
    if not COMMENT_START.match(unit) or not re.search(r"\bmagic\b", unit, re.I):
        return unit
    for rx in MAGIC_PHRASES:
        unit = rx.sub("", unit, count=1)
    return unit


def _renumber(cuts: Set[int], drop: Set[int]) -> Set[int]:
    ordered = sorted(drop)
    out = set()
    for c in cuts:
        out.add(c - sum(1 for d in ordered if d < c))
    return out


def _collapse(out: List[str], cuts: Set[int]) -> List[str]:
    """Blank lines next to a removal: no two in a row, none inside braces."""
    near: Set[int] = set()
    for c in cuts:
        # every blank line of the blank run touching the cut
        for step in (-1, 1):
            k = c if step == 1 else c - 1
            while 0 <= k < len(out) and _blank(out[k]):
                near.add(k)
                k += step
    result: List[str] = []
    for k, line in enumerate(out):
        if k in near and _blank(line):
            prev = result[-1] if result else None
            nxt = out[k + 1] if k + 1 < len(out) else None
            if prev is None or _blank(prev):
                continue
            if prev.rstrip().endswith("{") or (nxt is not None and nxt.strip().startswith(
                    ("}", "break;", "case ", "default:"))):
                continue
            if nxt is not None and _blank(nxt) and (k + 1) not in near:
                continue
        result.append(line)
    return result


def drop_member_doc(original: str, text: str, struct: str, member: str) -> str:
    """text without the kernel-doc line (` * @member: ...` and its continuation lines) of
    member in the comment just above struct, once the rewrite removed the member; the
    comment is left alone while the member is still declared."""
    opening = re.compile(rf"^(?:typedef\s+)?struct\s+{re.escape(struct)}\s*\{{", re.M)
    m = opening.search(text)
    if not m or not opening.search(original):
        return text
    decl = re.compile(rf"^\s+[^;/]*[\s*]{re.escape(member)}\s*(?:\[[^\]]*\]\s*)*(?::\s*\w+\s*)?;",
                      re.M)
    body_end = text.find("\n}", m.end())
    if decl.search(text, m.end(), body_end if body_end > 0 else len(text)):
        return text
    head = text[:m.start()]
    close = head.rstrip().endswith("*/") and head.rstrip().rfind("*/")
    start = head.rfind("/**", 0, close or 0) if close else -1
    if start < 0:
        return text
    lines = head[start:].split("\n")
    out, skip = [], False
    for line in lines:
        if re.match(rf"^\s*\*\s*@{re.escape(member)}\s*:", line):
            skip = True
            continue
        if skip and re.match(r"^\s*\*\s+\S", line) and not re.match(r"^\s*\*\s*@", line) and \
                not line.strip().startswith("*/"):
            continue        # the entry's continuation lines
        skip = False
        out.append(line)
    return head[:start] + "\n".join(out) + text[m.start():]
