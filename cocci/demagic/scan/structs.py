# SPDX-License-Identifier: GPL-2.0
"""Where a magic lives: its #define, setter macros, and the struct (and header) of its field."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path
from typing import Dict, Iterable, List, Optional, Sequence, Set, Tuple

from demagic.model.candidate import Candidate, Site, SiteKind
from demagic.kernel.source import Texts, wrapper_macros

DEFINE_RX = r"^[ \t]*#[ \t]*define[ \t]+%s[ \t]+(.*?)[ \t]*(?:/[*/].*)?$"
ENUM_RX = r"^\s*%s\s*=\s*([^,\n]+?)\s*,?\s*(?:/[*/].*)?$"
# #define F(q, m) ((q)->field = (m))  /  ((q)->field != (m))
INCLUDE_RX = re.compile(r'^\s*#\s*include\s*([<"])([^>"]+)[>"]', re.M)
MEMBER_RX = re.compile(r"(\w+)\s*(?:\[[^\]]*\])*\s*(?::\s*\w+\s*)?;")
ENDIAN_RX = re.compile(r"\b(?:__)?(?:le|be)(?:16|32|64)\b")
PACKED_RX = re.compile(r"__packed\b|__attribute__\s*\(\(\s*(?:__)?packed")


def setter_macros(texts: Texts, files: Iterable[str]) -> Dict[str, Tuple[str, str]]:
    """Wrapper macros F(q, m) that store or compare m in q->field: F -> (field, op)."""
    return {w.name: (w.member, w.op) for f in files for w in wrapper_macros(texts.raw(f))}


def find_define(texts: Texts, files: Iterable[str], name: str) -> Optional[Tuple[Site, str]]:
    """Where name is #defined (or an enumerator), and its value as written."""
    rxs = [re.compile(DEFINE_RX % re.escape(name), re.M), re.compile(ENUM_RX % re.escape(name), re.M)]
    for rx in rxs:
        for f in files:
            if name.encode() not in texts.raw(f):
                continue
            text = texts.text(f)
            m = rx.search(text)
            if m:
                return Site(f, text.count("\n", 0, m.start()) + 1, "", SiteKind.DEFINE), m.group(1)
    return None


def _block(text: str, brace: int) -> str:
    """text from the { at brace to its matching }."""
    depth = 0
    for i in range(brace, len(text)):
        if text[i] == "{":
            depth += 1
        elif text[i] == "}":
            depth -= 1
            if depth == 0:
                return text[brace:i + 1]
    return text[brace:]


class Struct:
    """A struct definition found in a file."""

    def __init__(self, name: str, file: str, line: int, body: str, tail: str,
                 tag: str = "") -> None:
        self.name, self.file, self.line, self.body, self.tail = name, file, line, body, tail
        self.tag = tag or name   # what the scan calls it: the tag, else the typedef name

    def member(self, field: str) -> Optional[str]:
        """The declaration of field at the top level of the body."""
        inner, depth, start = self.body[1:-1], 0, 0
        for i, ch in enumerate(inner):
            if ch == "{":
                depth += 1
            elif ch == "}":
                depth -= 1
            elif ch == ";" and depth == 0:
                decl = inner[start:i + 1]
                start = i + 1
                m = MEMBER_RX.search(decl.rsplit("}", 1)[-1])
                if m and m.group(1) == field:
                    code = [l for l in decl.split("\n") if not l.strip().startswith("#")]
                    return " ".join(" ".join(code).split())
        return None

    def members(self) -> List[str]:
        return MEMBER_RX.findall(re.sub(r"\{[^{}]*\}", ";", self.body[1:-1]))


def structs_in(texts: Texts, rel: str) -> List[Struct]:
    """The struct definitions (and typedef aliases) of rel, parsed once."""
    if rel not in texts.structs:
        texts.structs[rel] = _parse_structs(texts, rel)
    return texts.structs[rel]


def _parse_structs(texts: Texts, rel: str) -> List[Struct]:
    text = texts.code(rel)
    out = []
    for m in re.finditer(r"\b(typedef\s+)?struct\s+(\w*)\s*\{", text):
        body = _block(text, m.end() - 1)
        after = text[m.end() - 1 + len(body):m.end() - 1 + len(body) + 200]
        tail = after.split(";", 1)[0]
        name = m.group(2)
        if not name and m.group(1):
            names = re.findall(r"\w+", re.sub(r"__attribute__\s*\(\(.*?\)\)|__\w+", " ", tail))
            name = names[0] if names else ""
        if name:
            out.append(Struct(name, rel, text.count("\n", 0, m.start()) + 1, body, tail))
        if m.group(1):
            for td in re.findall(r"\w+", tail):
                if td != name and not td.startswith("__"):
                    out.append(Struct(td, rel, text.count("\n", 0, m.start()) + 1, body, tail,
                                      name))
    for m in re.finditer(r"\btypedef\s+struct\s+(\w+)\s+(\w+)\s*;", text):
        out.append(Struct(m.group(2), rel, -1, m.group(1), ""))   # alias, body = tag
    return out


def _includes(texts: Texts, rel: str) -> List[str]:
    """Files rel includes that exist in the tree (arch headers of its own arch)."""
    if rel not in texts.includes:
        texts.includes[rel] = _find_includes(texts, rel)
    return texts.includes[rel]


def _find_includes(texts: Texts, rel: str) -> List[str]:
    arch = rel.split("/")[1] if rel.startswith("arch/") else "*"
    here = str(Path(rel).parent)
    out = []
    for kind, name in INCLUDE_RX.findall(texts.text(rel)):
        opts = [f"{here}/{name}"] if kind == '"' else []
        opts += [f"include/{name}", f"include/uapi/{name}"]
        if name.startswith("asm/"):
            arches = [arch] if arch != "*" else ["x86"]
            opts += [f"arch/{a}/include/{name}" for a in arches]
            opts += [f"arch/{a}/include/uapi/{name}" for a in arches]
            opts.append(f"include/asm-generic/{name[4:]}")
        elif "/" not in name and arch != "*":
            opts.append(f"arch/{arch}/include/{name}")
        opts += [f"arch/{arch}/include/{name}"] if arch != "*" and name.startswith("mach") else []
        out += [o for o in opts if texts.exists(o)]
    return out


def _search_files(texts: Texts, rel: str) -> List[str]:
    """rel, what it includes, and what those include (two levels)."""
    seen: List[str] = [rel]
    for f in list(_includes(texts, rel)):
        if f not in seen:
            seen.append(f)
    for f in list(seen[1:]):
        for g in _includes(texts, f):
            if g not in seen:
                seen.append(g)
    return seen


def resolve_struct(texts: Texts, rel: str, typ: str, field: str,
                   search: bool = True) -> Optional[Struct]:
    """The struct (by its type as spatch gave it, or by field) that rel sees.

    Looks in rel and what it includes, then (search=True) in any header."""
    name = type_name(typ)
    here = str(Path(rel).parent) + "/"
    for f in _search_files(texts, rel):
        if not name and not f.startswith(here):
            continue   # by field name alone, only the file's own directory is trusted
        if (name or field).encode() not in texts.raw(f):
            continue
        for s in structs_in(texts, f):
            if s.line < 0:
                if name and s.name == name and re.fullmatch(r"\w+", s.body):
                    name = s.body
                continue
            if (not name or s.name == name) and s.member(field):
                return s
    if name and search:
        return grep_struct(texts, name, field, rel)
    return None


def prefetch_definitions(texts: Texts, names: Iterable[str]) -> None:
    """One grep for the headers that name each of names (for grep_struct)."""
    todo = sorted({n for n in names if re.fullmatch(r"\w+", n) and n not in texts.defined_in})
    if not todo:
        return
    out = texts.grep.words(todo, ["*.h"], ["include", "arch", "drivers", "fs", "net", "sound"],
                     options=["-o"])
    for n in todo:
        texts.defined_in[n] = []
    for line in out.splitlines():
        path, _sep, word = line.rpartition(":")
        if word in texts.defined_in and path not in texts.defined_in[word]:
            texts.defined_in[word].append(path)


def type_name(typ: str) -> str:
    """The struct tag or typedef name of a type as spatch prints it."""
    return re.sub(r"^(?:const\s+|volatile\s+)*(?:struct\s+)?", "", typ).strip().rstrip("*").strip()


def grep_struct(texts: Texts, name: str, field: str, near: str = "") -> Optional[Struct]:
    """A last resort: a header in include/, arch/ or near's directory that defines name."""
    if not re.fullmatch(r"\w+", name):
        return None
    if name not in texts.defined_in:
        prefetch_definitions(texts, [name])
    here = str(Path(near).parent)
    files = sorted(texts.defined_in[name], key=lambda f: (not f.startswith(here), f))
    for f in files:
        if name.encode() + b" {" not in texts.raw(f) and b"}" not in texts.raw(f):
            continue
        for s in structs_in(texts, f):
            if s.name == name and s.line > 0 and s.member(field):
                return s
    return None


def place_struct(texts: Texts, c: Candidate, bases: Sequence[Tuple[Site, str, str]],
                 search: bool = True) -> Optional[Struct]:
    """Fill struct/header of c from the types of its sets and checks; the struct, or None.

    search=False looks only in the files the sites include."""
    found: Counter[Tuple[str, str, int]] = Counter()
    decls: Dict[Tuple[str, str, int], Struct] = {}
    tried: Set[Tuple[str, str]] = set()
    for site, _expr, typ in sorted(bases, key=lambda b: (b[2] == "", b[0].kind is not SiteKind.ASSIGN)):
        if (site.file, typ) in tried:
            continue
        tried.add((site.file, typ))
        s = resolve_struct(texts, site.file, typ, c.field, search)
        if s is not None:
            key = (s.tag, s.file, s.line)
            found[key] += 1
            decls[key] = s
    if not found:
        return None
    (name, header, line), _n = found.most_common(1)[0]
    s = decls[(name, header, line)]
    c.struct, c.header = s.tag, s.file
    ev = c.evidence
    if s.name != s.tag:
        ev.typedef = s.name
    ev.struct_line = s.line
    decl = s.member(c.field) or ""
    ev.field_decl = decl
    members = s.members()
    ev.leading = bool(members) and members[0] == c.field
    ev.other_structs = sorted({k[0] for k in found if k[0] != name})
    if ENDIAN_RX.search(decl):
        ev.endian = decl
    wire = [d for d in s.body.split(";") if ENDIAN_RX.search(d)]
    if wire and not ENDIAN_RX.search(decl):
        ev.endian_members = " ".join(wire[0].split()) + ";"
    if PACKED_RX.search(s.tail) or PACKED_RX.search(s.body[-1:] + s.tail):
        ev.packed = True
    if re.search(r"\bvolatile\b", decl):
        ev.volatile = True
    return s
