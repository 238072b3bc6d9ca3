# SPDX-License-Identifier: GPL-2.0
"""The text of a kernel tree, read once: files, grep, MAGIC words, functions, #if guards."""

from __future__ import annotations

import contextlib
import fnmatch
import functools
import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Dict, Iterator, Iterable, List, Optional, Sequence, Tuple

from demagic.core import memo
from demagic.model.candidate import Site
from demagic.core.errors import DemagicError
from demagic.core.proc import run

WORD = frozenset(b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_")
# The first line of a function definition: starts at column 0, names the function.
FUNC_START = re.compile(r"^[A-Za-z_][\w \t\*]*?\b(\w+)\s*\(")


def grep_tree(root: Path, options: Sequence[str], globs: Sequence[str],
              dirs: Sequence[str] = (".",)) -> str:
    """grep's output over the files of root matching globs under dirs.

    A git tree is searched with git grep (its index makes it several times
    faster); anything else with grep -r.  No match is not an error."""
    if (root / ".git").exists():
        specs = [f"{d.rstrip('/')}/{g}" if d not in (".", "") else g for d in dirs for g in globs]
        pristine = _PRISTINE.get(root)
        if pristine is not None and _flags(options) is not None:
            return _pristine_grep(root, *pristine, options, specs)
        argv = ["git", "-C", str(root), "grep", "-I", *options, "--", *specs]
    else:
        incl = [f"--include={g.rsplit('/', 1)[-1]}" for g in globs]
        dirs = [d for d in dirs if (root / d).exists()]
        if not dirs:
            return ""
        argv = ["grep", "-rI", *incl, *options, *dirs]
    out = _run_grep(argv, root)
    if argv[0] == "grep":   # grep -r . names files ./a/b: make them a/b as git grep does
        return re.sub(r"(?m)^\./", "", out)
    return out


def _run_grep(argv: Sequence[str], root: Path) -> str:
    """grep's output; no match is not an error, a failure is, naming the tree."""
    res = run(argv, cwd=root, check=False)
    if res.returncode > 1:
        raise DemagicError(f"grep failed in {root}: {(res.stderr or res.stdout).strip()[:200]}")
    return res.stdout


_PRISTINE: Dict[Path, Tuple[str, Optional[List[str]]]] = {}
_FLAGS = frozenset("lnhowEPFiI")
GREP_FORMAT = 1


@contextlib.contextmanager
def pristine_greps(root: Path, base: str, frozen: bool = False) -> Iterator[None]:
    """Within it, a grep of root, a git work tree made from commit base, is the grep of
    base (kept in the cache by base, the only input it depends on) with the files
    that differ from base now grepped again: the same output as a grep of the whole
    tree, from a grep of a few files.  frozen: nothing writes to root within, so the
    files that differ are found once, not at each grep."""
    _PRISTINE[root] = (base, _changed(root, base) if frozen else None)
    try:
        yield
    finally:
        _PRISTINE.pop(root, None)


def _changed(root: Path, base: str) -> List[str]:
    """The files of root that differ from commit base (or may: stat data is enough)."""
    diff = run(["git", "-C", str(root), "diff-index", "--name-only", "-z", "--no-renames", base])
    return [p for p in diff.stdout.split("\0") if p]


def _flags(options: Sequence[str]) -> Optional[str]:
    """The one-letter flags of options, or None when one of them changes what a line of
    output is (context, counts): then only a grep of the whole tree will do."""
    flags, k = "", 0
    while k < len(options):
        opt = options[k]
        if opt == "-e":
            k += 1
        elif opt.startswith("-"):
            if not set(opt[1:]) <= _FLAGS:
                return None
            flags += opt[1:]
        k += 1
    return flags


Records = List[Tuple[str, str]]   # (file, what git grep --null printed after its name)


def _records(out: str, listing: bool, prefix: str = "") -> Records:
    if listing:
        return [(name[len(prefix):], "") for name in out.split("\0") if name]
    found = []
    for line in out.split("\n"):
        if line:
            name, _, rest = line.partition("\0")
            found.append((name[len(prefix):], rest))
    return found


def _in_specs(path: str, specs: Sequence[str]) -> bool:
    """path matches one of git's pathspecs (no magic: * crosses /; else a prefix)."""
    for spec in specs:
        if any(c in spec for c in "*?["):
            if fnmatch.fnmatchcase(path, spec):
                return True
        elif path == spec.rstrip("/") or path.startswith(spec.rstrip("/") + "/"):
            return True
    return False


def _splice(records: Records, changed: Sequence[str], fresh: Records) -> Records:
    """records with the files of changed replaced by fresh, in git's order (by path)."""
    gone = set(changed)
    kept = [r for r in records if r[0] not in gone] + fresh
    order = sorted({r[0] for r in kept}, key=lambda p: p.encode())
    by_file: Dict[str, List[Tuple[str, str]]] = {}
    for r in kept:
        by_file.setdefault(r[0], []).append(r)
    return [r for p in order for r in by_file[p]]


def _pristine_grep(root: Path, base: str, frozen: Optional[List[str]], options: Sequence[str],
                   specs: Sequence[str]) -> str:
    flags = _flags(options) or ""
    hide, listing = "h" in flags, "l" in flags
    opts, k = [], 0
    while k < len(options):           # options without -h: each line names its file
        if options[k] == "-e":
            opts += options[k:k + 2]
            k += 2
            continue
        opt = options[k]
        if opt.startswith("-") and "h" in opt:
            opt = opt.replace("h", "")
        if opt != "-":
            opts.append(opt)
        k += 1
    grep = ["git", "-C", str(root), "grep", "-I", "--null", *opts]

    changed = [p for p in (_changed(root, base) if frozen is None else frozen)
               if _in_specs(p, specs)]
    name = memo.key("grep", str(GREP_FORMAT), base, json.dumps([opts, list(specs)]))
    cached = memo.get("grep", name)
    if cached is None:
        now = _records(_run_grep(grep + ["--", *specs], root), listing)
        then = now
        if changed:     # what base had in the files that differ now
            then = _splice(now, changed, _records(_run_grep(grep + [base, "--", *changed], root),
                                                  listing, f"{base}:"))
        memo.put("grep", name, json.dumps(then).encode())
    else:
        then = [(p, r) for p, r in json.loads(cached)]
        now = then
        if changed:
            now = _splice(then, changed,
                          _records(_run_grep(grep + ["--", *changed], root), listing))
    if listing:
        return "".join(p + "\n" for p, _ in now)
    return "".join((r if hide else p + ":" + r).replace("\0", ":") + "\n" for p, r in now)


@functools.lru_cache(maxsize=None)
def _git_has_pcre(root: Path) -> bool:
    res = run(["git", "-C", str(root), "grep", "-q", "-P", "x", "--", "Makefile"], check=False)
    return res.returncode in (0, 1)


def _pcre(root: Path) -> bool:
    """root is searched with git grep, and that git has PCRE (-P)."""
    return (root / ".git").exists() and _git_has_pcre(root)


def grep_words(root: Path, words: Sequence[str], globs: Sequence[str],
               dirs: Sequence[str] = (".",), options: Sequence[str] = ()) -> str:
    """Lines of the files under root that hold one of words as a whole word.

    Many words at once: git grep -w -F with several patterns is slow (tens of
    seconds on a kernel tree), so a git tree is searched with one PCRE
    alternation when git has PCRE, a plain tree with grep -rwF."""
    words = sorted(set(words))
    if not words:
        return ""
    if _pcre(root):
        alt = "|".join(re.escape(w) for w in words)
        return grep_tree(root, [*options, "-P", rf"(?<![\w])(?:{alt})(?![\w])"], globs, dirs)
    return grep_tree(root, [*options, "-w", "-F", *[a for w in words for a in ("-e", w)]],
                     globs, dirs)


def grep_ere(root: Path, pattern: str, globs: Sequence[str], dirs: Sequence[str] = (".",),
             options: Sequence[str] = ()) -> str:
    """grep -E of pattern, an expression that means the same to PCRE (\\s, groups,
    alternatives of whole names, no back references): a git tree with PCRE is
    searched with -P, which git runs faster: a grep of the 6.1 tree for
    assignments to six members, three times each way, interleaved, took 5.0 s
    (9.6 CPU-seconds) with -E and 1.4 s (2.5) with -P, the same output."""
    if _pcre(root):
        return grep_tree(root, [*options, "-P", pattern], globs, dirs)
    return grep_tree(root, [*options, "-E", pattern], globs, dirs)


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


WRAPPER_RX = re.compile(rb"^[ \t]*#[ \t]*define[ \t]+(\w+)\(\s*(\w+)\s*,\s*(\w+)\s*\)([^\n]*)",
                        re.M)


@dataclass(frozen=True)
class Wrapper:
    """A SET_MAGIC()/BAD_MAGIC()-style macro: two parameters, and a body that stores the
    second into the first one's member (op "=") or compares them (op "!=" or "==")."""
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
    return out


def strip_comments(text: str) -> str:
    """text with comments blanked out, offsets and line numbers kept."""
    return re.sub(r"/\*.*?\*/|//[^\n]*", lambda m: re.sub(r"[^\n]", " ", m.group(0)), text,
                  flags=re.S)


class Texts:
    """File contents of a tree, read once, and what is parsed from them."""

    def __init__(self, root: Path) -> None:
        self.root = root
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
    end = matching(code, pos + 1)
    return (pos + 1, end) if end >= at else (-1, -1)


def matching(code: str, open_at: int) -> int:
    """The offset of the bracket closing the one at open_at (or len(code))."""
    pairs = {"(": ")", "{": "}", "[": "]"}
    opener, closer = code[open_at], pairs[code[open_at]]
    depth = 0
    i = open_at
    while i < len(code):
        ch = code[i]
        if ch in "\"'":
            i = _skip_literal(code, i)
            continue
        if ch == opener:
            depth += 1
        elif ch == closer:
            depth -= 1
            if depth == 0:
                return i
        i += 1
    return len(code)


def _skip_literal(code: str, i: int) -> int:
    quote = code[i]
    i += 1
    while i < len(code) and code[i] != quote and code[i] != "\n":
        i += 2 if code[i] == "\\" else 1
    return i + 1


def function_name_at(texts: Texts, rel: str, line: int) -> str:
    """The name of the function whose body holds line ("" at file scope)."""
    start, _end = function_body(texts, rel, line)
    if start < 0:
        return ""
    head = texts.code(rel)[max(0, start - 400):start]
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
