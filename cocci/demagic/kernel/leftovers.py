# SPDX-License-Identifier: GPL-2.0
"""Nothing left behind: no reference to what a patch retired, anywhere in the tree.

What counts as a reference, by kind of identifier (see patch.removed_identifiers):

- macro: the name as a whole word in any tracked file: C, headers, assembly,
  Kconfig, Makefiles, Documentation.  A name that is still #defined elsewhere
  (a file-local DEBUG) is searched in its own file only.
- static: the name as a whole word in the file that declared it (file scope).
- docrow: a line starting with the name in any file with the same base name
  (a table row removed from one copy must go from every translation).
- document (a deleted Documentation/D/N.rst): "D/N" named anywhere, or N as
  an entry of Documentation/D/index.rst (its toctree).
- label (a removed ``.. _name:``): a :ref: to it anywhere.
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
from typing import List, Optional, Sequence, Set, Tuple

from demagic.kernel.grep import Grep, Hit, WordIndex
from demagic.model.patches import Removed

SOURCES = (".c", ".h", ".S")


def _fmt(hit: Hit) -> str:
    return f"{hit[0]}:{hit[1]}: {hit[2].strip()[:120]}"


def _word(name: str) -> re.Pattern[str]:
    return re.compile(rf"(?<![A-Za-z0-9_]){re.escape(name)}(?![A-Za-z0-9_])")


def defined_elsewhere(hits: Sequence[Hit], name: str) -> bool:
    """The macro name is still #defined somewhere: a local macro such as DEBUG."""
    define = re.compile(rf"^\s*#\s*define\s+{re.escape(name)}\b")
    return any(define.match(h[2]) for h in hits)


def macro_hits(hits: Sequence[Hit], item: Removed) -> List[str]:
    """A global macro name anywhere; a name defined elsewhere too in its own file only."""
    word = _word(item.name)
    local = defined_elsewhere(hits, item.name)
    return [_fmt(h) for h in hits if word.search(h[2]) and (not local or h[0] == item.file)]


def static_hits(hits: Sequence[Hit], item: Removed) -> List[str]:
    word = _word(item.name)
    return [_fmt(h) for h in hits if h[0] == item.file and word.search(h[2])]


def docrow_hits(hits: Sequence[Hit], item: Removed) -> List[str]:
    base = item.file.rpartition("/")[2]
    row = re.compile(rf"^{re.escape(item.name)}\b")
    return [_fmt(h) for h in hits if h[0].rpartition("/")[2] == base and row.match(h[2])]


def document_hits(hits: Sequence[Hit], item: Removed) -> List[str]:
    """A deleted document: its path named anywhere, or its name in its directory's toctree."""
    directory, _, stem = item.name.rpartition("/")
    toc = f"Documentation/{directory}/index.rst" if directory else "Documentation/index.rst"
    return [_fmt(h) for h in hits if item.name in h[2] or
            (h[0] == toc and h[2].strip() in (stem, f"{stem}.rst"))]


def label_hits(hits: Sequence[Hit], item: Removed) -> List[str]:
    """A removed reST label: any :ref: to it."""
    ref = re.compile(rf":ref:`(?:{re.escape(item.name)}|[^`]*<{re.escape(item.name)}>)`")
    return [_fmt(h) for h in hits if ref.search(h[2])]


def member_declared(hits: Sequence[Hit], name: str) -> bool:
    decl = re.compile(rf"^\s+[A-Za-z_][A-Za-z0-9_ \t*]*[ \t*]{re.escape(name)}\s*"
                      rf"(\[[^]]*\]\s*)*(:\s*\w+\s*)?;")
    return any(name in h[2] and h[0].endswith((".c", ".h")) and decl.match(h[2]) for h in hits)


def typed_names(text: str, struct: str, typedef: str) -> Set[str]:
    """Variables, parameters and members declared with type struct (pointer or not)."""
    types = [rf"struct\s+{re.escape(struct)}\b"]
    if typedef:
        types.append(rf"\b{re.escape(typedef)}\b")
    pattern = rf"(?:{'|'.join(types)})\s*(?:const\s+)?(?:\*\s*(?:const\s+)?)*([A-Za-z_]\w*)"
    return {m.group(1) for m in re.finditer(pattern, text)} - {"const", "__user", "__iomem"}


def field_hits(wt: Path, hits: Sequence[Hit], item: Removed) -> Tuple[List[str], str]:
    """References to the removed member; and a note saying which rule applied."""
    name = re.escape(item.name)
    if not member_declared(hits, item.name):
        access = re.compile(rf"(->|\.)\s*{name}(?![A-Za-z0-9_])")
        found = [_fmt(h) for h in hits
                 if item.name in h[2] and h[0].endswith(SOURCES) and access.search(h[2])]
        return found, f"{item}: unique member name, searched the whole tree"
    tag = re.compile(rf"struct\s+{re.escape(item.struct)}\b" +
                     (rf"|\b{re.escape(item.typedef)}\b" if item.typedef else ""))
    tags = (item.struct, item.typedef) if item.typedef else (item.struct,)
    scope = {h[0] for h in hits if any(t in h[2] for t in tags) and tag.search(h[2])}
    if (wt / item.file).is_file():
        scope.add(item.file)
    access = re.compile(rf"([A-Za-z_]\w*|\))\s*(->|\.)\s*{name}\b")
    cast = re.compile(rf"\(\s*struct\s+{re.escape(item.struct)}\s*\*\s*\)")
    out = []
    for rel in sorted(scope):
        try:
            text = (wt / rel).read_text(errors="replace")
        except OSError:
            continue
        names = typed_names(text, item.struct, item.typedef)
        for number, line in enumerate(text.split("\n"), 1):
            if item.name not in line:
                continue
            if any(m.group(1) in names for m in access.finditer(line)) or \
                    (access.search(line) and cast.search(line)):
                out.append(_fmt((rel, number, line)))
    return out, (f"{item}: member name also used by other structs; searched {len(scope)} "
                 f"files that use struct {item.struct}, accesses through its variables")


def words_of(removed: Sequence[Removed]) -> List[str]:
    words = []
    for item in removed:
        words.append(item.name.rpartition("/")[2] if item.kind == "document" else item.name)
        if item.kind == "field":
            words += [item.struct] + ([item.typedef] if item.typedef else [])
    return words


def check(wt: Path, removed: Sequence[Removed],
          index: Optional[WordIndex] = None) -> Tuple[List[str], List[str]]:
    """(hits, notes) for everything removed, in the worktree after the patch; index, when
    given, answers for the tree instead of a git grep of its own."""
    if not removed:
        return [], []
    hits = (index or Grep(wt).word_lines)(words_of(removed))
    found: List[str] = []
    notes: List[str] = []
    for item in removed:
        if item.kind == "macro":
            found += macro_hits(hits, item)
        elif item.kind == "static":
            found += static_hits(hits, item)
        elif item.kind == "docrow":
            found += docrow_hits(hits, item)
        elif item.kind == "document":
            found += document_hits(hits, item)
        elif item.kind == "label":
            found += label_hits(hits, item)
        elif item.kind == "field":
            more, note = field_hits(wt, hits, item)
            found += more
            notes.append(note)
    return sorted(set(found)), notes
