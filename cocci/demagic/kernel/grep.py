# SPDX-License-Identifier: GPL-2.0
"""Greps of a kernel tree: git grep (or grep -r), and the greps of a work tree answered
from its pristine commit's.

A Grep belongs to one tree and is handed to whatever greps it (the scan, the
rewrite, the series writer), so that how a tree is grepped is said once, where
the tree is made, and never by a setting beside the code.
"""

from __future__ import annotations

import fnmatch
import functools
import json
import re
from pathlib import Path
from typing import Dict, FrozenSet, Iterable, List, Optional, Sequence, Set, Tuple

from demagic.core import memo
from demagic.core.errors import DemagicError
from demagic.core.proc import run

Hit = Tuple[str, int, str]   # file, line, text


class Grep:
    """The greps of the tree at root.

    Grep(root) greps the tree as it is: a git tree with git grep (its index
    makes it several times faster), anything else with grep -r.  With base, the
    commit a git work tree was made from, a grep is base's grep (kept in the
    cache by base, the only input it depends on) with the files that differ
    from base now grepped again: the same output as a grep of the whole tree,
    from a grep of a few files.  frozen: nothing writes to root while this
    Grep is used, so the files that differ are found once, not at each grep.
    No match is not an error."""

    def __init__(self, root: Path, base: Optional[str] = None, frozen: bool = False) -> None:
        self.root = root
        self.base = base if base is not None and (root / ".git").exists() else None
        self._frozen = _changed(root, self.base) if self.base is not None and frozen else None

    def tree(self, options: Sequence[str], globs: Sequence[str],
             dirs: Sequence[str] = (".",)) -> str:
        """grep's output over the files matching globs under dirs."""
        root = self.root
        if (root / ".git").exists():
            specs = [f"{d.rstrip('/')}/{g}" if d not in (".", "") else g
                     for d in dirs for g in globs]
            if self.base is not None and _flags(options) is not None:
                return self._pristine(self.base, options, specs)
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

    def words(self, words: Sequence[str], globs: Sequence[str], dirs: Sequence[str] = (".",),
              options: Sequence[str] = ()) -> str:
        """Lines of the files that hold one of words as a whole word.

        Many words at once: git grep -w -F with several patterns is slow (tens of
        seconds on a kernel tree), so a git tree is searched with one PCRE
        alternation when git has PCRE, a plain tree with grep -rwF."""
        words = sorted(set(words))
        if not words:
            return ""
        if self._pcre():
            alt = "|".join(re.escape(w) for w in words)
            return self.tree([*options, "-P", rf"(?<![\w])(?:{alt})(?![\w])"], globs, dirs)
        return self.tree([*options, "-w", "-F", *[a for w in words for a in ("-e", w)]],
                         globs, dirs)

    def ere(self, pattern: str, globs: Sequence[str], dirs: Sequence[str] = (".",),
            options: Sequence[str] = ()) -> str:
        """grep -E of pattern, an expression that means the same to PCRE (\\s, groups,
        alternatives of whole names, no back references): a git tree with PCRE is
        searched with -P, which git runs faster: a grep of the 6.1 tree for
        assignments to six members, three times each way, interleaved, took 5.0 s
        (9.6 CPU-seconds) with -E and 1.4 s (2.5) with -P, the same output."""
        if self._pcre():
            return self.tree([*options, "-P", pattern], globs, dirs)
        return self.tree([*options, "-E", pattern], globs, dirs)

    def word_lines(self, words: Sequence[str]) -> List[Hit]:
        """(file, line, text) of every line of every file holding one of the words."""
        out = []
        for line in self.words(words, ["*"], options=["-n"]).splitlines():
            parts = line.split(":", 2)
            if len(parts) == 3 and parts[1].isdigit():
                out.append((parts[0], int(parts[1]), parts[2]))
        return out

    def _pcre(self) -> bool:
        """The tree is searched with git grep, and that git has PCRE (-P)."""
        return (self.root / ".git").exists() and git_has_pcre(self.root)

    def _pristine(self, base: str, options: Sequence[str], specs: Sequence[str]) -> str:
        root, frozen = self.root, self._frozen
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
                old = _run_grep(grep + [base, "--", *changed], root)
                then = _splice(now, changed, _records(old, listing, f"{base}:"))
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


def grep_tree(root: Path, options: Sequence[str], globs: Sequence[str],
              dirs: Sequence[str] = (".",)) -> str:
    """A grep of the tree at root as it is (see Grep)."""
    return Grep(root).tree(options, globs, dirs)


class WordIndex:
    """One grep for every word a run will ask about, answered again and again while the
    tree changes only in files it is told of (touched): their lines are read afresh at
    each question.  A question with a word outside the first grep's gets a grep of its
    own, so the answer is always the tree's."""

    def __init__(self, grep: Grep, words: Sequence[str]) -> None:
        self.grep = grep
        self.words: FrozenSet[str] = frozenset(words)
        self.hits = grep.word_lines(sorted(self.words)) if self.words else []
        self.dirty: Set[str] = set()

    def touched(self, files: Iterable[str]) -> None:
        self.dirty.update(files)

    def __call__(self, words: Sequence[str]) -> List[Hit]:
        if not set(words) <= self.words:
            return self.grep.word_lines(words)
        rx = re.compile(r"(?<![A-Za-z0-9_])(?:%s)(?![A-Za-z0-9_])"
                        % "|".join(re.escape(w) for w in sorted(set(words))))
        out = [h for h in self.hits if h[0] not in self.dirty and rx.search(h[2])]
        for rel in sorted(self.dirty):
            try:
                text = (self.grep.root / rel).read_text(errors="replace")
            except OSError:     # removed by the patch, or never a file
                continue
            out += [(rel, n, line) for n, line in enumerate(text.split("\n"), 1)
                    if rx.search(line)]
        return sorted(out)


def _run_grep(argv: Sequence[str], root: Path) -> str:
    """grep's output; no match is not an error, a failure is, naming the tree."""
    res = run(argv, cwd=root, check=False)
    if res.returncode > 1:
        raise DemagicError(f"grep failed in {root}: {(res.stderr or res.stdout).strip()[:200]}")
    return res.stdout


_FLAGS = frozenset("lnhowEPFiI")
GREP_FORMAT = 1


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


@functools.lru_cache(maxsize=None)
def git_has_pcre(root: Path) -> bool:
    res = run(["git", "-C", str(root), "grep", "-q", "-P", "x", "--", "Makefile"], check=False)
    return res.returncode in (0, 1)
