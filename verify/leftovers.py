# SPDX-License-Identifier: GPL-2.0
"""Nothing left behind: no reference to what a patch retired, anywhere in the tree.

What counts as a reference, by kind of identifier (see patch.removed_identifiers):

- macro: the name as a whole word in any tracked file: C, headers, assembly,
  Kconfig, Makefiles, Documentation.  A name that is still #defined elsewhere
  (a file-local DEBUG) is searched in its own file only.
- static: the name as a whole word in the file that declared it (file scope).
- docrow: a line starting with the name in any file with the same base name
  (a table row removed from one copy must go from every translation).
- field F of struct S: member names are often common (``magic``), so a bare
  grep would drown in other structs.  A hit is ``x->F`` or ``x.F`` where x is
  declared in the same file as ``struct S`` (or S's typedef), searched in every
  file that mentions S.  When no struct in the tree still declares a member F,
  the name is unique and every ``->F`` / ``.F`` in C, headers and assembly
  counts, whatever its base.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import List, Sequence, Set, Tuple

from demagic.proc import run
from verify.patch import Removed

SOURCES = ("*.c", "*.h", "*.S")


def git_grep(wt: Path, args: Sequence[str], paths: Sequence[str] = ()) -> List[Tuple[str, int, str]]:
    """(file, line, text) of git grep -n; nothing on no match."""
    argv = ["git", "-C", str(wt), "grep", "-n", "-I", *args]
    if paths:
        argv += ["--", *paths]
    res = run(argv, check=False)
    out = []
    for line in res.stdout.splitlines():
        parts = line.split(":", 2)
        if len(parts) == 3 and parts[1].isdigit():
            out.append((parts[0], int(parts[1]), parts[2].strip()))
    return out


def _fmt(hit: Tuple[str, int, str]) -> str:
    return f"{hit[0]}:{hit[1]}: {hit[2][:120]}"


def defined_elsewhere(wt: Path, name: str) -> bool:
    """The macro name is still #defined somewhere: a local macro such as DEBUG."""
    return bool(git_grep(wt, ["-E", rf"^\s*#\s*define\s+{re.escape(name)}\b"]))


def macro_hits(wt: Path, items: Sequence[Removed]) -> List[str]:
    """Global macro names in the whole tree; names defined elsewhere too in their file only."""
    local = [r for r in items if defined_elsewhere(wt, r.name)]
    names = sorted({r.name for r in items if r not in local})
    out = []
    if names:
        pattern = "|".join(re.escape(n) for n in names)
        out = [_fmt(h) for h in git_grep(wt, ["-w", "-E", f"({pattern})"])]
    for item in local:
        if (wt / item.file).is_file():
            out += [_fmt(h) for h in git_grep(wt, ["-w", "-F", item.name], [item.file])]
    return out


def static_hits(wt: Path, item: Removed) -> List[str]:
    if not (wt / item.file).is_file():
        return []
    return [_fmt(h) for h in git_grep(wt, ["-w", "-F", item.name], [item.file])]


def docrow_hits(wt: Path, item: Removed) -> List[str]:
    base = Path(item.file).name
    return [_fmt(h) for h in git_grep(wt, ["-E", f"^{re.escape(item.name)}\\b"],
                                      [base, f"*/{base}"])]


def member_declared_anywhere(wt: Path, name: str) -> bool:
    decl = rf"^\s+[A-Za-z_][A-Za-z0-9_ \t\*]*[ \t\*]{name}\s*(\[[^]]*\])*\s*(:\s*[0-9A-Za-z_]+\s*)?;"
    return bool(git_grep(wt, ["-E", decl], ["*.c", "*.h"]))


def typed_names(text: str, struct: str, typedef: str) -> Set[str]:
    """Variables, parameters and members declared with type struct (pointer or not)."""
    types = [rf"struct\s+{re.escape(struct)}\b"]
    if typedef:
        types.append(rf"\b{re.escape(typedef)}\b")
    pattern = rf"(?:{'|'.join(types)})\s*(?:const\s+)?(?:\*\s*(?:const\s+)?)*([A-Za-z_]\w*)"
    return {m.group(1) for m in re.finditer(pattern, text)} - {"const", "__user", "__iomem"}


def field_hits(wt: Path, item: Removed) -> Tuple[List[str], str]:
    """References to the removed member; and a note saying which rule applied."""
    access = rf"([A-Za-z_]\w*|\))\s*(->|\.)\s*{re.escape(item.name)}\b"
    if not member_declared_anywhere(wt, item.name):
        hits = git_grep(wt, ["-E", rf"(->|\.)[[:space:]]*{item.name}\b"], list(SOURCES))
        return [_fmt(h) for h in hits], f"{item}: unique member name, whole tree"
    words = [f"struct {item.struct}"] + ([item.typedef] if item.typedef else [])
    scope = set(run(["git", "-C", str(wt), "grep", "-l", "-w", *sum(
        (["-e", w] for w in words), [])], check=False).stdout.split())
    if (wt / item.file).is_file():
        scope.add(item.file)
    out = []
    for rel in sorted(scope):
        try:
            text = (wt / rel).read_text(errors="replace")
        except OSError:
            continue
        names = typed_names(text, item.struct, item.typedef)
        for number, line in enumerate(text.split("\n"), 1):
            for match in re.finditer(access, line):
                if match.group(1) in names or re.search(
                        rf"\(\s*struct\s+{re.escape(item.struct)}\s*\*\s*\)", line):
                    out.append(_fmt((rel, number, line.strip())))
                    break
    return out, f"{item}: member name is also used by other structs; searched {len(scope)} " \
                f"files that use struct {item.struct}, accesses through its variables"


def check(wt: Path, removed: Sequence[Removed]) -> Tuple[List[str], List[str]]:
    """(hits, notes) for everything removed, in the worktree after the patch."""
    hits = macro_hits(wt, [r for r in removed if r.kind == "macro"])
    notes: List[str] = []
    for item in removed:
        if item.kind == "static":
            hits += static_hits(wt, item)
        elif item.kind == "docrow":
            hits += docrow_hits(wt, item)
        elif item.kind == "field":
            found, note = field_hits(wt, item)
            hits += found
            notes.append(note)
    return sorted(set(hits)), notes
