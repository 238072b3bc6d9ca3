# SPDX-License-Identifier: GPL-2.0
"""Whose memory the struct is, where the magic is written: the kernel's own object, or
bytes that something else reads as a whole.

A write-only magic may still be read: by a device, by user space, by a dump
reader, by code that compares the raw bytes.  The field can only go when each
write lands in memory the kernel allocated for itself (a k*alloc(), a member
of another object, a driver's private data, a local variable) and nothing
copies the object out as bytes (&obj with sizeof(obj), sizeof(struct S)
outside an allocation), and the constant appears nowhere but in its
#define and those writes.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Dict, List, Sequence, Set, Tuple

from demagic.kernel.cparse import shortened
from demagic.scan.evidence.callers import handed_in_owner
from demagic.scan.evidence.exposure import DMA_RX, definition
from demagic.scan.evidence.provenance import source_of
from demagic.scan.evidence.formats import format_reason
from demagic.model.candidate import Candidate, Finding, Site, SiteKind
from demagic.kernel.source import Texts, enclosing_call, function_text

if TYPE_CHECKING:
    from demagic.scan.evidence import Context

ALLOC_RX = re.compile(r"^(?:\(\s*[\w\s]+\*\s*\)\s*)?(?:k[mzc]?alloc\w*|kv[mz]alloc\w*|kmem_cache_\w*alloc"
                      r"\w*|v[mz]alloc\w*|devm_k[mzc]alloc\w*|kmemdup\w*|kzalloc_node)\s*\(")
OWN_RX = re.compile(r"^&|^(?:container_of|list_entry|list_first_entry\w*|netdev_priv|\w+_priv)\s*\(")
SHARED_RX = re.compile(r"\b(?:dma_alloc\w*|dmam_alloc\w*|\w*_map\w*|ioremap\w*|memremap|"
                       r"\w*gem\w*|\w*_bo_\w*|page_address|kmap\w*|__va|phys_to_virt)\s*\(")
ALLOC_CALL_RX = re.compile(r"\b(?:k[mzc]?alloc\w*|kv[mz]alloc\w*|\w*kmem_cache_create\w*|v[mz]alloc\w*|"
                           r"devm_k[mzc]alloc\w*|kmemdup\w*|alloc\w*|\w+_alloc\w*)\s*\($")


def where_written(texts: Texts, site: Site, expr: str, member: str) -> Finding:
    """What memory the set at site writes into, as a finding: owned or not."""
    if site.kind is SiteKind.INIT:
        return initialised(texts, site)
    expr = re.sub(r"\s*(->|\.)\s*", r"\1", (expr or "").strip())
    if re.search(r"(?:->|\.)\w+$", expr):
        line = texts.lines(site.file)[site.line - 1] if site.line <= len(texts.lines(site.file)) \
            else ""
        if re.search(rf"{_chain(expr)}\s*\.\s*{re.escape(member)}\b", line):
            return Finding(site, f"owned: {expr}, a member of another object")
        return Finding(site, f"unknown: {expr} points to memory the scan cannot follow")
    if not re.fullmatch(r"\w+", expr):
        return Finding(site, f"unknown: {expr}")
    body = "\n".join(function_text(texts, site))
    if re.search(rf"\bstruct\s+\w+\s+{re.escape(expr)}\s*[;=]", body):
        return Finding(site, f"owned: {expr}, a local variable")
    src = source_of(texts, site, expr)
    if not src:
        table = handed_in_owner(texts, texts.grep, site.file, site.function, site.line, expr) \
            if site.function else None
        if table is not None:
            return Finding(site, f"owned: {expr} is handed in, and every caller passes a static "
                                 f"object of the driver's own: {table}")
        return Finding(site, f"unknown: {expr} is handed in")
    if SHARED_RX.search(src):
        return Finding(site, f"shared: {expr} = {shortened(src)}")
    if ALLOC_RX.match(src) or OWN_RX.match(src):
        return Finding(site, f"owned: {expr} = {shortened(src)}")
    call = re.match(r"^(\w+)\s*\(", src)
    inner = own_allocator(texts, site.file, call.group(1)) if call else ""
    if inner:
        return Finding(site, f"owned: {expr} = {shortened(src)}, which takes it from {inner}()")
    if re.match(r"^\(\s*[\w\s]+\*\s*\)", src):
        return Finding(site, f"shared: {expr} = {shortened(src)}, laid over memory it does "
                             "not allocate")
    return Finding(site, f"unknown: {expr} = {shortened(src)}")


def initialised(texts: Texts, site: Site) -> Finding:
    """The object a designated initialiser (.magic = FOO_MAGIC) fills: site.function names
    it.  One declared at file scope is a static object of the code's own; one declared
    in a function, a local variable."""
    obj = site.function
    code = texts.code(site.file)
    m = re.search(rf"^([ \t]*)[^;{{}}()\n]*\b{re.escape(obj)}\s*(?:\[[^\]]*\]\s*)*=\s*\{{", code,
                  re.M) if re.fullmatch(r"\w+", obj or "") else None
    if m is None:
        return Finding(site, f"unknown: the object that the initialiser at line {site.line} "
                             "fills")
    if m.group(1):
        return Finding(site, f"owned: {obj}, a local variable")
    return Finding(site, f"owned: {obj}, a static object of the code's own")


def own_allocator(texts: Texts, rel: str, call: str, depth: int = 3) -> str:
    """The kernel allocator that call, a helper of the code's own (a function or macro of
    rel or of a header beside it, followed depth levels down), returns memory from: ""
    when it is not one, or when it also reaches DMA memory (exposure.py)."""
    for where in [rel] + sorted(p.relative_to(texts.root).as_posix()
                                for p in (texts.root / rel).parent.glob("*.h")):
        body = definition(texts, where, call)
        if not body:
            continue
        if DMA_RX.search(body):
            return ""
        m = re.search(r"\b(k[mzc]?alloc\w*|kv[mz]alloc\w*|kmem_cache_\w*alloc\w*|"
                      r"v[mz]alloc\w*)\s*\(", body)
        if m:
            return m.group(1)
        if depth > 1:
            for inner in dict.fromkeys(re.findall(r"\b([A-Za-z_]\w*)\s*\(", body)):
                found = own_allocator(texts, where, inner, depth - 1) if inner != call else ""
                if found:
                    return found
        return ""
    return ""


def copies(texts: Texts, files: Sequence[str], c: Candidate, exprs: Set[str]) -> List[Finding]:
    """Where the object is copied out as bytes: sizeof(struct S) outside an allocation,
    &x together with sizeof(x) for an x that holds the field, or its address kept as an
    integer in a page's private slot, from where raw reads may reach it."""
    names = [re.escape(c.struct)] + ([re.escape(c.evidence.typedef)] if c.evidence.typedef else [])
    struct_rx = re.compile(rf"sizeof\s*\(\s*(?:struct\s+{names[0]}|{'|'.join(names[1:]) or '$^'})"
                           r"\s*\)")
    out = []
    for rel in files:
        code = texts.code(rel)
        for m in struct_rx.finditer(code):
            if ALLOC_CALL_RX.search(enclosing_call(code, m.start()) + "("):
                continue
            line = code.count("\n", 0, m.start()) + 1
            out.append(Finding(Site(rel, line), f"sizeof(struct {c.struct}) outside an allocation"))
        for e in exprs:
            if re.fullmatch(r"\w+", e):
                # a pointer passed with the size of what it points to: memcpy(buf, p, sizeof(*p))
                rx = re.compile(rf"\b{e}\s*,[^;]*sizeof\s*\(\s*\*\s*{e}\s*\)"
                                rf"|sizeof\s*\(\s*\*\s*{e}\s*\)[^;]*,\s*{e}\s*[,)]")
                for m in rx.finditer(code):
                    if ALLOC_CALL_RX.search(enclosing_call(code, m.start()) + "("):
                        continue
                    line = code.count("\n", 0, m.start()) + 1
                    out.append(Finding(Site(rel, line), f"*{e} copied as bytes"))
                rx = re.compile(rf"\b(?:set_page_private|attach_page_private|"
                                rf"folio_attach_private)\s*\([^;]*\b{e}\s*\)"
                                rf"|(?:->|\.)\s*private\s*=\s*\(\s*(?:unsigned\s+long|uintptr_t)"
                                rf"\s*\)\s*{e}\b")
                for m in rx.finditer(code):
                    line = code.count("\n", 0, m.start()) + 1
                    out.append(Finding(Site(rel, line), f"the address {e} kept as an integer"))
            last = re.split(r"->|\.", e)[-1]
            tail = rf"(?:\w+\s*(?:->|\.)\s*)*{re.escape(last)}" if re.search(r"->|\.", e) \
                else _chain(e)
            rx = re.compile(rf"&\s*{tail}\s*,[^;]*sizeof\s*\(\s*\*?\s*{tail}\s*\)")
            for m in rx.finditer(code):
                line = code.count("\n", 0, m.start()) + 1
                out.append(Finding(Site(rel, line), f"{e} copied as bytes"))
    return sorted(set(out), key=lambda f: (f.site.file, f.site.line))[:10]


RAW_COMPARE_RX = r"\*\s*\(+\s*[\w\s]+\*\s*\)[^;]*[!=]=\s*\(?\s*%s\b|\b%s\s*\)?\s*[!=]=\s*\*\s*\("
UNTYPED_CAST_RX = r"\(\s*(?:const\s+)?(?:void|char|u8|u32|__u32|uint|uint32_t|unsigned\s+\w+)\s*\*\s*\)\s*%s\b"


def untyped_escapes(texts: Texts, files: Sequence[str], exprs: Set[str]) -> List[Finding]:
    """Where an object that holds the field leaves as an untyped pointer: cast to void *,
    char * or an integer pointer, or handed to a void * parameter of a function of the
    same file.  A raw read (*(u32 *)p) may then be a read of the object's first field."""
    out = []
    names = [e for e in exprs if re.fullmatch(r"\w+", e)]
    for rel in files:
        code = texts.code(rel)
        voids = {m.group(1): [p.strip() for p in m.group(2).split(",")]
                 for m in re.finditer(r"^\w[^;{}()]*\b(\w+)\s*\(([^;{}()]*)\)\s*\{", code, re.M)}
        for e in names:
            for m in re.finditer(UNTYPED_CAST_RX % re.escape(e), code):
                out.append(Finding(Site(rel, code.count("\n", 0, m.start()) + 1),
                                   f"{e} cast to an untyped pointer"))
            for m in re.finditer(rf"\b(\w+)\s*\(([^;]*)\b{re.escape(e)}\s*[,)]", code):
                params = voids.get(m.group(1))
                if not params:
                    continue
                index = m.group(2).count(",")
                if index < len(params) and re.match(r"(?:const\s+)?void\s*\*", params[index]):
                    out.append(Finding(Site(rel, code.count("\n", 0, m.start()) + 1),
                                       f"{e} handed to {m.group(1)}() as a void *"))
    return sorted(set(out), key=lambda f: (f.site.file, f.site.line))[:5]


def _chain(expr: str) -> str:
    return r"\s*".join(re.escape(p) for p in re.split(r"(->|\.)", expr))


def gather(ctx: "Context", cands: Sequence[Candidate]) -> None:
    """written_into, exposed and other_mentions, for write-only candidates."""
    todo = [c for c in cands if c.sets and c.struct and not any(s.kind is not SiteKind.TRUTH for s in c.checks)
            and format_reason(c) is None]
    found = ctx.texts.grep.words([c.macro for c in todo], ["*.c", "*.h", "*.S"], options=["-n"])
    mentions: Dict[str, List[Tuple[str, int, str]]] = {}
    for line in found.splitlines():
        parts = line.split(":", 2)
        if len(parts) == 3 and parts[1].isdigit():
            for c in todo:
                if re.search(rf"\b{re.escape(c.macro)}\b", parts[2]):
                    mentions.setdefault(c.macro, []).append((parts[0], int(parts[1]), parts[2]))
    for c in todo:
        ev = c.evidence
        exprs = set()
        for site, expr, _typ in ctx.bases(c):
            if any(site.file == s.file and site.line == s.line for s in c.sets):
                ev.written_into.append(where_written(ctx.texts, site, expr, c.field))
                exprs.add(re.sub(r"\s*(->|\.)\s*", r"\1", expr.strip())
                          if site.kind is not SiteKind.INIT else site.function)
        dirs = sorted({s.file.rsplit("/", 1)[0] for s in c.sets})
        near = ctx.texts.grep.words([c.struct] + [e.split(">")[-1].split(".")[-1] for e in exprs],
                          ["*.c", "*.h"], dirs, options=["-l"]).split()
        files = sorted(set(near) | {s.file for s in c.sets} | ({c.header} if c.header else set()))
        ev.exposed = copies(ctx.texts, files, c, {e for e in exprs if e})
        known = {(s.file, s.line) for s in c.sets}
        if c.define:
            known.add((c.define.file, c.define.line))
        scope = {c.define.file} if c.local and c.define else None
        for rel, at, text in mentions.get(c.macro, []):
            if (rel, at) in known or (scope and rel not in scope):
                continue
            if re.match(r"\s*#\s*(?:define|undef)\s", text):
                continue
            ev.other_mentions.append(Finding(Site(rel, at), text.strip()[:70]))
            if re.search(RAW_COMPARE_RX % (re.escape(c.macro), re.escape(c.macro)), text):
                ev.raw_compares.append(Finding(Site(rel, at), text.strip()[:70]))
        if ev.raw_compares and ev.leading:
            ev.untyped = untyped_escapes(ctx.texts, files, {e for e in exprs if e})
