# SPDX-License-Identifier: GPL-2.0
"""What the text of a kernel tree tells about a magic number: its #define, the
struct that carries it, and the evidence the judge reads (see judge.py)."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path
from typing import Dict, Iterable, List, Optional, Sequence, Set, Tuple

from demagic.model import Candidate, Site
from demagic.proc import DemagicError, Progress, run

DEFINE_RX = r"^[ \t]*#[ \t]*define[ \t]+%s[ \t]+(.*?)[ \t]*(?:/[*/].*)?$"
ENUM_RX = r"^\s*%s\s*=\s*([^,\n]+?)\s*,?\s*(?:/[*/].*)?$"
# #define F(q, m) ((q)->field = (m))  /  ((q)->field != (m))
SETTER_RX = re.compile(
    rb"#[ \t]*define[ \t]+(\w+)\(\s*(\w+)\s*,\s*(\w+)\s*\)[ \t]*\(*\s*\(?\s*\2\s*\)?"
    rb"\s*->\s*(\w+)\s*([=!]?=)\s*\(?\s*\3\b")
INCLUDE_RX = re.compile(r'^\s*#\s*include\s*([<"])([^>"]+)[>"]', re.M)
OFFSET_RX = re.compile(r"^[ \t]*#[ \t]*define[ \t]+(\w*OFF\w*)[ \t]+\(?(0x[0-9a-fA-F]+|\d+)\)?\b",
                       re.M)
MEMBER_RX = re.compile(r"(\w+)\s*(?:\[[^\]]*\])*\s*(?::\s*\w+\s*)?;")
ENDIAN_RX = re.compile(r"\b(?:__)?(?:le|be)(?:16|32|64)\b")
PACKED_RX = re.compile(r"__packed\b|__attribute__\s*\(\(\s*(?:__)?packed")
# What a struct pointer is cast from when it is memory the kernel does not own.
FIXED_RX = re.compile(r"^(?:[A-Z][A-Z0-9_]*\s*\(|0x[0-9a-fA-F]+|\d+\b|(?:ioremap\w*|phys_to_virt"
                      r"|__va|memremap|early_memremap)\s*\()")
MAPPING_RX = re.compile(r"(?:\(\s*[\w\s]+\*\s*\)\s*)?(?:ioremap\w*|phys_to_virt|__va|memremap"
                        r"|early_memremap)\s*\(")
# Files of programs that run in user space (their reads of a struct make it an ABI).
USERSPACE_RX = re.compile(r"(?:^|/)tools/|^scripts/|^usr/")
# What a struct pointer is taken from when the struct is the layout of a buffer.
BUFFER_RX = re.compile(r"\bskb_(?:put|push|pull)\w*\s*\(|->(?:data|cb|b_data)\b|\bbuf\w*|\bblock\b"
                       r"|_buffer\b|\bpage_address\s*\(|\bkmap\w*\s*\(|\bmsg_buf")
USER_COPY = (r"_*copy_(?:to|from)_user\w*", r"_*(?:get|put)_user\w*", r"memcpy_(?:to|from)io",
             r"\w*(?:queue|post|submit)\w*_(?:msg|message)\w*",
             r"send\w*", r"recv\w*", r"kernel_(?:read|write)\w*", r"\w*write_file\w*")
CONVERT_RX = r"\b(?:cpu_to_(?:le|be)\d+|(?:le|be)\d+_to_cpu\w*|hton[sl]|ntoh[sl])\s*\(\s*%s\s*\)"


def grep_tree(root: Path, options: Sequence[str], globs: Sequence[str],
              dirs: Sequence[str] = (".",)) -> str:
    """grep's output over the files of root matching globs under dirs.

    A git tree is searched with git grep (its index makes it several times
    faster); anything else with grep -r.  No match is not an error."""
    if (root / ".git").exists():
        specs = [f"{d.rstrip('/')}/{g}" if d not in (".", "") else g for d in dirs for g in globs]
        argv = ["git", "-C", str(root), "grep", "-I", *options, "--", *specs]
    else:
        incl = [f"--include={g.rsplit('/', 1)[-1]}" for g in globs]
        dirs = [d for d in dirs if (root / d).exists()]
        if not dirs:
            return ""
        argv = ["grep", "-rI", *incl, *options, *dirs]
    res = run(argv, cwd=root, check=False)
    if res.returncode > 1:
        raise DemagicError(f"grep failed in {root}: {(res.stderr or res.stdout).strip()[:200]}")
    return res.stdout


WORD = frozenset(b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_")


def magic_words(data: bytes) -> List[Tuple[str, int, int]]:
    """Each identifier containing MAGIC in data, with its start and end offsets.

    Found from the literal (fast), not by a regex that starts at every word."""
    out = []
    pos = data.find(b"MAGIC")
    while pos >= 0:
        start, end = pos, pos + 5
        while start > 0 and data[start - 1] in WORD:
            start -= 1
        while end < len(data) and data[end] in WORD:
            end += 1
        if not data[start:start + 1].isdigit():
            out.append((data[start:end].decode(), start, end))
        pos = data.find(b"MAGIC", end)
    return out


class Texts:
    """File contents of a tree, read once."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self._raw: Dict[str, bytes] = {}
        self._text: Dict[str, str] = {}
        self._lines: Dict[str, List[str]] = {}
        self._index: Optional[Dict[str, List[str]]] = None
        self.structs: Dict[str, List["Struct"]] = {}
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

    def lines(self, rel: str) -> List[str]:
        if rel not in self._lines:
            self._lines[rel] = self.text(rel).split("\n")
        return self._lines[rel]

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


def setter_macros(texts: Texts, files: Iterable[str]) -> Dict[str, Tuple[str, str]]:
    """Function-like macros F(q, m) that store or compare m in q->field: F -> (field, op)."""
    out: Dict[str, Tuple[str, str]] = {}
    for f in files:
        data = texts.raw(f)
        if b"define" not in data:
            continue
        for m in SETTER_RX.finditer(data):
            out[m.group(1).decode()] = (m.group(4).decode(), m.group(5).decode())
    return out


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
                return Site(f, text.count("\n", 0, m.start()) + 1, "", "define"), m.group(1)
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


def _strip_comments(text: str) -> str:
    return re.sub(r"/\*.*?\*/|//[^\n]*", lambda m: re.sub(r"[^\n]", " ", m.group(0)), text,
                  flags=re.S)


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
    text = _strip_comments(texts.text(rel))
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
    out = grep_tree(texts.root, ["-o", "-w", "-F", *[a for n in todo for a in ("-e", n)]],
                    ["*.h"], ["include", "arch", "drivers", "fs", "net", "sound"])
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


def place_struct(root: Path, texts: Texts, c: Candidate,
                 bases: Sequence[Tuple[Site, str, str]], search: bool = True) -> bool:
    """Fill struct/header of c from the types of its sets and checks; False if not found.

    search=False looks only in the files the sites include."""
    found: Counter[Tuple[str, str, int]] = Counter()
    decls: Dict[Tuple[str, str, int], Struct] = {}
    tried: Set[Tuple[str, str]] = set()
    for site, _expr, typ in sorted(bases, key=lambda b: (b[2] == "", b[0].kind != "assign")):
        if (site.file, typ) in tried:
            continue
        tried.add((site.file, typ))
        s = resolve_struct(texts, site.file, typ, c.field, search)
        if s is not None:
            key = (s.tag, s.file, s.line)
            found[key] += 1
            decls[key] = s
    if not found:
        return False
    (name, header, line), _n = found.most_common(1)[0]
    s = decls[(name, header, line)]
    c.struct, c.header = s.tag, s.file
    if s.name != s.tag:
        c.evidence["typedef"] = s.name
    c.evidence["struct_line"] = s.line
    decl = s.member(c.field) or ""
    c.evidence["field_decl"] = decl
    others = sorted({k[0] for k in found if k[0] != name})
    if others:
        c.evidence["other_structs"] = others
    if ENDIAN_RX.search(decl):
        c.evidence["endian"] = decl
    wire = [d for d in s.body.split(";") if ENDIAN_RX.search(d)]
    if wire and not ENDIAN_RX.search(decl):
        c.evidence["endian_members"] = " ".join(wire[0].split()) + ";"
    if PACKED_RX.search(s.tail) or PACKED_RX.search(s.body[-1:] + s.tail):
        c.evidence["packed"] = True
    if re.search(r"\bvolatile\b", decl):
        c.evidence["volatile"] = True
    c.evidence["members"] = s.members()
    return True


def _function_text(texts: Texts, site: Site) -> List[str]:
    """The lines of site's function up to site (the function's opening line on)."""
    lines = texts.lines(site.file)
    start = site.line - 1
    pat = re.compile(rf"\b{re.escape(site.function)}\s*\(") if site.function else None
    while start > 0 and not (pat and pat.search(lines[start]) and not lines[start].startswith((" ", "\t"))):
        start -= 1
        if site.line - start > 400:
            break
    return lines[start:site.line]


def pointer_sources(texts: Texts, bases: Sequence[Tuple[Site, str, str]]) -> Dict[str, str]:
    """Where the sets' struct pointers come from: "fixed_address" (cast of a fixed
    address), "kernel_address" (&object in kernel memory)."""
    out: Dict[str, str] = {}
    for site, expr, _typ in bases:
        base = " ".join((expr or "").split()).replace(" (", "(").replace("( ", "(").replace(" )", ")")
        if FIXED_RX.match(base) or re.match(r"\(\s*\w[\w\s]*\*\s*\)\s*(?:[A-Z]\w*\s*\(|0x)", base):
            out.setdefault("fixed_address", base)
        if not re.fullmatch(r"\w+", expr or ""):
            continue
        body = "\n".join(_function_text(texts, site))
        for m in re.finditer(rf"\b{expr}\s*=\s*\(\s*[\w\s]+\*\s*\)\s*([^;]+);", body):
            src = " ".join(m.group(1).split())
            if FIXED_RX.match(src):
                out.setdefault("fixed_address", src)
        for m in re.finditer(rf"\b{expr}\s*=\s*([^;=]+);", body):
            src = " ".join(m.group(1).split())
            if MAPPING_RX.match(src):
                out.setdefault("fixed_address", src)
            if BUFFER_RX.search(src) and not FIXED_RX.match(src):
                out.setdefault("buffer", src)
        for m in re.finditer(rf"\b{expr}\s*=\s*(&[^;,]+)[;,]", body):
            out.setdefault("kernel_address", " ".join(m.group(1).split()))
        if re.search(rf"__user\s*\*\s*{expr}\b", body):
            out.setdefault("user_pointer", expr)
    return out


def copied_names(expr: str, line: str, field: str) -> List[str]:
    """What, passed whole to a copy, carries the struct that expr.field lives in:
    expr itself and, when the struct is a member embedded in an outer object
    (expr.field with expr = outer->member), that outer object too."""
    expr = re.sub(r"\s*(->|\.)\s*", r"\1", (expr or "").strip())
    if not re.fullmatch(r"\w+(?:(?:->|\.)\w+)*", expr):
        return []
    names = [expr]
    outer = re.match(r"(.*\w)(?:->|\.)\w+$", expr)
    if outer and field and re.search(rf"{chain_rx(expr)}\s*\.\s*{re.escape(field)}\b", line):
        names.append(outer.group(1))
    return names


def chain_rx(chain: str) -> str:
    """A regex for a member chain (a->b.c) written with any spacing."""
    return r"\s*".join(re.escape(p) for p in re.split(r"(->|\.)", chain))


def user_copies(texts: Texts, bases: Sequence[Tuple[Site, str, str]], field: str = "") -> List[Site]:
    """Calls in a set or check function that copy the struct to or from user space or I/O."""
    out = []
    for site, expr, _typ in bases:
        lines = texts.lines(site.file)
        here = lines[site.line - 1] if 0 < site.line <= len(lines) else ""
        names = copied_names(expr, here, field)
        if not names:
            continue
        start = site.line - len(_function_text(texts, site))
        alts = "|".join(chain_rx(n) for n in names)
        rx = re.compile(rf"\b(?:{'|'.join(USER_COPY)})\s*\((?:[^;]*,)?\s*(?:\([^()]*\)\s*)?&?\s*"
                        rf"(?:{alts})\s*(?:\+[^,;()]*)?[,)]")
        end = min(len(lines), site.line + 80)
        for i in range(max(0, start), end):
            if rx.search(lines[i]):
                out.append(Site(site.file, i + 1, site.function, "user-copy"))
    return _one_per_line(out)


def _one_per_line(sites: Iterable[Site]) -> List[Site]:
    """Sites sorted, one per file:line (windows of a set and a check overlap)."""
    return sorted({(s.file, s.line): s for s in sites}.values(), key=lambda s: (s.file, s.line))


def sized_records(texts: Texts, bases: Sequence[Tuple[Site, str, str]], tag: str) -> List[Site]:
    """Where a set or check function measures the struct against a length, or
    stores its size into it: a record laid out in a buffer, not an object."""
    out = []
    for site, expr, _typ in bases:
        simple = bool(re.fullmatch(r"\w+", expr or ""))
        what = [rf"struct\s+{re.escape(tag)}\b"] if tag else []
        if simple:
            what.append(rf"\*\s*{expr}\b")
        if not what:
            continue
        size = rf"sizeof\s*\(\s*(?:{'|'.join(what)})\s*\)"
        # a length too short for the struct is an error (a clamp is an allocation size)
        short = re.compile(rf"(?:[<>]=?\s*{size}|{size}\s*[<>])[^;]*\)\s*(?:return|goto)\b")
        stored = re.compile(rf"\b{expr}\s*->\s*\w+\s*=\s*{size}") if simple else None
        lines = texts.lines(site.file)
        start = site.line - len(_function_text(texts, site))
        end = min(len(lines), site.line + 40)
        for i in range(max(0, start), end):
            if (stored and stored.search(lines[i])) or short.search(" ".join(lines[i:i + 2])):
                out.append(Site(site.file, i + 1, site.function, "sized"))
    return _one_per_line(out)


def _matching_lines(texts: Texts, files: Iterable[str], rx: "re.Pattern[str]",
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


def bitwise_uses(texts: Texts, files: Iterable[str], const: str) -> List[Site]:
    """Where const is used as a bit in a mask (x & C, x |= C, C | D)."""
    c = re.escape(const)
    rx = re.compile(rf"[&|]=?[ \t]*\(?[ \t]*{c}\b|\b{c}[ \t]*\)?[ \t]*[&|](?![&|])")
    return _matching_lines(texts, files, rx, "bitwise")


def conversions(texts: Texts, files: Iterable[str], const: str, value: str) -> List[Site]:
    """Where const goes through a byte-order conversion (an on-disk or on-wire value)."""
    out = _matching_lines(texts, files, re.compile(CONVERT_RX % re.escape(const)), "byte-order")
    if re.search(CONVERT_RX % r"[^()]*", value or ""):
        out.append(Site("", 0, "", "byte-order"))
    return out


def offset_macros(texts: Texts, c: Candidate) -> Dict[str, str]:
    """Hand-written offset macros of the struct's header, macro -> member."""
    members = c.evidence.get("members", [])
    out = {}
    for name, _val in OFFSET_RX.findall(texts.text(c.header)) if c.header else []:
        words = [w for w in name.lower().split("_") if w not in ("off", "offset", "ofs", "")]
        best = ""
        for m in members:
            mw = m.split("_")
            if len(mw) <= len(words) and words[-len(mw):] == mw and len(m) > len(best):
                best = m
        if best:
            out[name] = best
    return out


def asm_context(texts: Texts, rel: str, line: int) -> bool:
    """line of rel is assembly: a .S file, __ASSEMBLY__ code, or an assembler macro file."""
    if rel.endswith(".S"):
        return True
    lines = texts.lines(rel)
    if any(re.match(r"\s*\.macro\b", l) for l in lines):
        return True
    return "__ASSEMBLY__" in " ".join(s for s in guards_at(lines, line) if not s.startswith("!"))


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


def never_defined(root: Path, symbols: Iterable[str], dirs: Sequence[str]) -> Set[str]:
    """The symbols that no #define or -D flag in dirs (and include/) defines."""
    syms = sorted({s for s in symbols if re.fullmatch(r"[A-Za-z_]\w*", s)
                   and not s.startswith(("CONFIG_", "__"))})
    if not syms:
        return set()
    pats = [a for s in syms for a in ("-e", s)]
    where = sorted({d for d in dirs if d} | {"include"})
    out = grep_tree(root, ["-h", "-F", *pats], ["*.[chS]", "*Makefile*", "*Kbuild*"], where)
    rx = re.compile(r"(?:#\s*define\s+|-D)(%s)\b" % "|".join(syms))
    defined = {m.group(1) for m in rx.finditer(out)}
    return set(syms) - defined


def asm_users(root: Path, texts: Texts, names: Iterable[str],
              defs: Dict[str, str]) -> List[Site]:
    """Uses of the offset macros names outside their #define, in assembly code."""
    names = sorted(set(names))
    if not names:
        return []
    found = grep_tree(root, ["-nwE", "|".join(names)], ["*.[chS]"], ["arch", "include"])
    out = []
    for line in found.splitlines():
        f, n, text = line.split(":", 2)
        if re.match(r"\s*#\s*define\s+(%s)\b" % "|".join(names), text):
            continue
        if asm_context(texts, f, int(n)):
            out.append(Site(f, int(n), "", "asm"))
    return out


def complete(root: Path, texts: Texts, cands: Sequence[Candidate],
             bases: Dict[str, List[Tuple[Site, str, str]]], files: Sequence[str],
             progress: Progress) -> None:
    """Everything the judge reads, for each candidate."""
    index = texts.magic_index(files)
    for c in cands:
        near = [s.file for s in c.sets + c.checks]
        near += [i for f in dict.fromkeys(near) for i in _search_files(texts, f)]
        found = find_define(texts, list(dict.fromkeys(near + index.get(c.macro, []))), c.macro)
        if found:
            c.define, c.value = found
    progress.step(f"evidence for {len(cands)} candidates")
    guard_syms: Dict[str, Set[str]] = {}
    offsets: Dict[str, str] = {}
    for c in cands:
        b = bases.get(c.macro, [])
        ev = c.evidence
        for path in (c.header, c.define.file if c.define else ""):
            if re.match(r"(?:arch/[^/]+/)?include/uapi/", path or ""):
                ev.setdefault("uapi", path)
        ev.update(pointer_sources(texts, b))
        copies = user_copies(texts, b, c.field)
        if copies:
            ev["user_copy"] = copies
        sized = sized_records(texts, b, c.struct)
        if sized:
            ev["sized_record"] = sized
        conv = conversions(texts, index.get(c.macro, []), c.macro, c.value)
        if conv:
            ev["byte_order"] = [s for s in conv if s.file] or ["#define " + c.value]
        bits = bitwise_uses(texts, sorted({s.file for s in c.sets + c.checks}), c.macro)
        if bits:
            ev["bitwise"] = bits
        users = [s for s in c.sets + c.checks if USERSPACE_RX.search(s.file)]
        if users:
            ev["userspace_users"] = users
        if c.field == "s_magic" or "super" in c.struct.lower():
            ev["superblock"] = True
        ev["write_only"] = not any(s.kind != "truth" for s in c.checks)
        om = offset_macros(texts, c)
        if om:
            ev["offset_macros"] = om
            offsets.update(om)
        real = [s for s in c.checks if s.kind != "truth"]
        if real:
            common = set(guards_at(texts.lines(real[0].file), real[0].line))
            for s in real[1:]:
                common &= set(guards_at(texts.lines(s.file), s.line))
            guard_syms[c.macro] = {g for g in common if not g.startswith("!")}
    guarded = [c for c in cands if guard_syms.get(c.macro)]
    dead = never_defined(root, {g for gs in guard_syms.values() for g in gs},
                         [str(Path(s.file).parent) for c in guarded for s in c.checks + c.sets]
                         + [str(Path(c.header).parent) for c in guarded if c.header])
    users = asm_users(root, texts, offsets, offsets)
    for c in cands:
        g = sorted(guard_syms.get(c.macro, set()) & dead)
        if g:
            c.evidence["guard"] = g[0]
        om = c.evidence.get("offset_macros", {})
        if om:
            rx = re.compile(r"\b(%s)\b" % "|".join(om))
            mine = [s for s in users if rx.search(texts.lines(s.file)[s.line - 1])]
            if mine:
                c.evidence["asm_users"] = mine
        c.evidence.pop("members", None)
        for key in ("user_copy", "sized_record", "asm_users", "bitwise", "userspace_users"):
            c.other_uses += c.evidence.get(key, [])
