# SPDX-License-Identifier: GPL-2.0
"""Enough of the Kconfig language to ask for a driver with what it depends on.

Kconfig has no solver: a fragment that sets CONFIG_FOO=m while FOO's
"depends on" is unmet is silently dropped by olddefconfig.  requirements()
walks the tree's Kconfig from the top (source, if/endif, menu ... depends on,
choice), and for a symbol returns the settings that make its dependencies
hold: each plain symbol of an && chain, for an || the first alternative that
needs nothing (FOO || !FOO) or avoids COMPILE_TEST.  Symbols without a prompt
are not asked for (they follow their defaults and selects).  The caller
still checks the final .config: whatever did not stick is reported, never
assumed.
"""

from __future__ import annotations

import glob
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Dict, List, Optional, Sequence, Tuple

CONFIG_RE = re.compile(r"^\s*(?:menu)?config\s+(\w+)\s*$")
TYPE_RE = re.compile(r"^\s*(bool|tristate|string|int|hex|def_bool|def_tristate)\b\s*(.*)$")
SOURCE_RE = re.compile(r'^\s*o?source\s+"([^"]+)"')
SELECT_RE = re.compile(r"^\s*select\s+(\w+)")
DEPENDS_RE = re.compile(r"^\s*depends\s+on\s+(.*)$")
PROMPT_RE = re.compile(r'^\s*prompt\s+"')
AVOID = frozenset({"COMPILE_TEST", "BROKEN", "EXPERT"})
MAX_DEPTH = 12


@dataclass
class Entry:
    name: str
    kind: str = ""                      # bool, tristate, ...
    prompt: bool = False                # the user can set it
    depends: List[str] = field(default_factory=list)   # own and inherited expressions


class Reader:
    """The tree's Kconfig entries for one source architecture."""

    def __init__(self, tree: Path, srcarch: str) -> None:
        self.tree = tree
        self.srcarch = srcarch
        self.entries: Dict[str, Entry] = {}
        self.selected_by: Dict[str, List[str]] = {}
        self._read("Kconfig", [])

    def _read(self, rel: str, outer: List[str]) -> None:
        rel = rel.replace("$(SRCARCH)", self.srcarch).replace("$(HEADER_ARCH)", self.srcarch)
        if "$" in rel:
            return
        paths = sorted(glob.glob(str(self.tree / rel))) if any(c in rel for c in "*?[") \
            else [str(self.tree / rel)]
        for path in paths:
            try:
                text = Path(path).read_text(errors="replace")
            except OSError:
                continue
            self._parse(text.replace("\\\n", " ").splitlines(), list(outer))

    def _parse(self, lines: Sequence[str], outer: List[str]) -> None:
        stack: List[Tuple[str, Optional[str]]] = []   # (if|menu|choice, condition)
        cur: Optional[Entry] = None
        menu_open = False       # a "depends on" right after menu belongs to the menu

        def conds() -> List[str]:
            return outer + [c for _, c in stack if c]

        help_indent = -1        # inside a help text indented deeper than this
        for raw in lines:
            indent = len(raw.expandtabs(8)) - len(raw.expandtabs(8).lstrip())
            if help_indent >= 0:
                if not raw.strip() or indent > help_indent:
                    continue
                help_indent = -1
            line = raw.split("#", 1)[0]
            word = line.split()[0] if line.split() else ""
            if word in ("help", "---help---"):
                help_indent = indent
                continue
            m = CONFIG_RE.match(line)
            if m:
                cur = self.entries.setdefault(m.group(1), Entry(m.group(1)))
                cur.depends += [c for c in conds() if c not in cur.depends]
                menu_open = False
                continue
            if word in ("if", "menu", "choice"):
                cond = line.split(None, 1)[1].strip() if word == "if" else None
                stack.append((word, cond))
                cur, menu_open = None, word in ("menu", "choice")
                continue
            if word in ("endif", "endmenu", "endchoice"):
                if stack:
                    stack.pop()
                cur, menu_open = None, False
                continue
            if word in ("comment", "mainmenu"):
                cur, menu_open = None, False
                continue
            src = SOURCE_RE.match(line)
            if src:
                self._read(src.group(1), conds())
                cur, menu_open = None, False
                continue
            dep = DEPENDS_RE.match(line)
            if dep:
                expr = dep.group(1).strip()
                if menu_open and stack:
                    kind, cond = stack[-1]
                    stack[-1] = (kind, f"({cond}) && ({expr})" if cond else expr)
                elif cur is not None:
                    cur.depends.append(expr)
                continue
            sel = SELECT_RE.match(line)
            if sel and cur is not None:
                self.selected_by.setdefault(sel.group(1), []).append(cur.name)
                continue
            t = TYPE_RE.match(line)
            if t and cur is not None:
                cur.kind = t.group(1).replace("def_", "")
                cur.prompt = cur.prompt or t.group(1) in ("bool", "tristate", "string", "int",
                                                          "hex") and t.group(2).startswith('"')
                continue
            if PROMPT_RE.match(line) and cur is not None:
                cur.prompt = True

    def requirements(self, symbol: str, want: str = "m",
                     known: Optional[Dict[str, str]] = None) -> Tuple[Dict[str, str], List[str]]:
        """(settings, unmet): the settings (name without CONFIG_ -> y or m) that ask for
        symbol with its dependencies, and what cannot be had on this arch (an undeclared
        symbol, a dependency on !X where known, the arch's own settings, has X)."""
        out: Dict[str, str] = {}
        unmet: List[str] = []
        self._want(symbol, want, out, unmet, known or {}, 0)
        return out, unmet

    def _want(self, symbol: str, want: str, out: Dict[str, str], unmet: List[str],
              known: Dict[str, str], depth: int) -> bool:
        entry = self.entries.get(symbol)
        if entry is None:
            unmet.append(f"{symbol} is not an option of {self.srcarch}")
            return False
        if entry.kind == "bool":
            want = "y"
        if out.get(symbol) == "y" or out.get(symbol) == want or depth > MAX_DEPTH:
            return True
        if entry.prompt:
            out[symbol] = want
        elif not any(out.get(c) in ("y", "m") or known.get(c) in ("y", "m")
                     for c in self.selected_by.get(symbol, [])):
            # set by a select or a default: ask for the first selector the user can set
            for chooser in self.selected_by.get(symbol, []):
                if self._usable(chooser) and self.entries[chooser].prompt:
                    if self._want(chooser, want, out, unmet, known, depth + 1):
                        break
        # a bool is y as soon as its dependencies are m
        below = "m" if entry.kind == "bool" else want
        for expr in entry.depends:
            needed = need(expr, self._usable, known)
            if needed is None:
                unmet.append(f"{symbol} depends on {expr}")
                return False
            for sym, val in needed:
                if not self._want(sym, "y" if val == "y" else below, out, unmet, known,
                                  depth + 1):
                    return False
        return True

    def _usable(self, symbol: str) -> bool:
        return symbol in self.entries and symbol not in AVOID


# A dependency expression: || of && of terms; a term is !t, (expr), SYM, SYM=val, SYM!=val.
TOKEN_RE = re.compile(r"\s*(\|\||&&|!=|=|!|\(|\)|\"[^\"]*\"|[\w.-]+)")


def _tokens(expr: str) -> List[str]:
    out, pos = [], 0
    while pos < len(expr):
        m = TOKEN_RE.match(expr, pos)
        if not m:
            break
        out.append(m.group(1))
        pos = m.end()
    return out


def need(expr: str, usable, known: Dict[str, str]  # type: ignore[no-untyped-def]
         ) -> Optional[List[Tuple[str, str]]]:
    """The (symbol, y|m) settings that make expr hold; [] when it needs none, None when
    nothing here can (a symbol not usable, !X where known has X)."""
    toks = _tokens(expr)
    pos = [0]

    def peek() -> str:
        return toks[pos[0]] if pos[0] < len(toks) else ""

    def take() -> str:
        pos[0] += 1
        return toks[pos[0] - 1]

    def or_() -> Optional[List[Tuple[str, str]]]:
        alts = [and_()]
        while peek() == "||":
            take()
            alts.append(and_())
        if len(alts) == 1:
            return alts[0]
        ok = [a for a in alts if a is not None]
        if any(a == [] for a in ok):
            return []
        return ok[0] if ok else None

    def and_() -> Optional[List[Tuple[str, str]]]:
        parts = [term()]
        while peek() == "&&":
            take()
            parts.append(term())
        if any(p is None for p in parts):
            return None
        return [x for p in parts for x in p]   # type: ignore[union-attr]

    def term() -> Optional[List[Tuple[str, str]]]:
        tok = take() if peek() else ""
        if tok == "!":
            if re.match(r"^\w+$", peek()) and pos[0] + 1 >= len(toks) or \
                    re.match(r"^\w+$", peek()) and toks[pos[0] + 1] in ("&&", "||", ")"):
                sym = take()
                return None if known.get(sym, "n") in ("y", "m") else []
            term()
            return []
        if tok == "(":
            inner = or_()
            if peek() == ")":
                take()
            return inner
        if peek() in ("=", "!="):
            op, val = take(), take().strip('"')
            if op == "=" and val in ("y", "m") and re.match(r"^\w+$", tok):
                return [(tok, val)] if usable(tok) else None
            return []
        if tok in ("y", "m"):
            return []
        if tok == "n" or not re.match(r"^\w+$", tok):
            return None if tok == "n" else []
        return [(tok, "m")] if usable(tok) else None

    return or_()
