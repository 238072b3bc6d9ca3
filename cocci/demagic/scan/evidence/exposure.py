# SPDX-License-Identifier: GPL-2.0
"""Who else can see the object the magic is written into: a device, or user space.

- device_visible: objects of the struct are allocated from DMA-coherent
  memory, directly (dma_alloc_coherent(), a DMA pool) or through the
  driver's own helpers around it (a macro or a function of its own that
  ends in one): a device may read the magic, and a field or layout change
  is a change of what it reads.
- user_mapped: the magic is written into pages (or a DMA buffer) that the
  same code maps into a process (an mmap handler: remap_pfn_range(),
  vm_insert_page(), dma_mmap_coherent(), do_mmap() of its own file ...):
  user space reads it there.

Either keeps a removal from being made; a flag conversion of such a field
says so in its verdict.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Dict, List, Optional, Sequence, Set

from demagic.kernel.cparse import shortened
from demagic.kernel.source import Texts, enclosing_call
from demagic.model.candidate import Candidate, Finding, Site
from demagic.scan.evidence.provenance import source_of

if TYPE_CHECKING:
    from demagic.scan.evidence import Context

DMA_RX = re.compile(r"\b(dma_alloc_coherent|dma_alloc_attrs|dma_alloc_noncoherent|"
                    r"dmam_alloc_coherent|dma_alloc_wc|dma_pool_alloc|dma_pool_zalloc|"
                    r"pci_alloc_consistent|dma_alloc_pages)\s*\(")
USER_MAP_RX = re.compile(r"\b(remap_pfn_range|io_remap_pfn_range|vm_insert_pages?|vmf_insert_\w+|"
                         r"dma_mmap_\w+|remap_vmalloc_range\w*|do_mmap|vm_map_pages\w*)\s*\(")
PAGE_MEMORY_RX = re.compile(r"\b(?:folio_address|page_address|kmap\w*|vmalloc_to_page|"
                            r"dma_alloc_\w+|vmalloc_user)\s*\(")
CALL_RX = re.compile(r"\b([A-Za-z_]\w*)\s*\(")
DEPTH = 4


def definition(texts: Texts, rel: str, name: str) -> str:
    """The body of the macro or function name as rel (or a header it shares a directory
    with) defines it: "" when the scan cannot find it."""
    code = texts.code(rel)
    macro = re.search(rf"^[ \t]*#[ \t]*define[ \t]+{re.escape(name)}\s*\([^)]*\)\s*(.+)$", code,
                      re.M)
    if macro:
        return macro.group(1)
    head = re.search(rf"^\w[^;{{}}]*\b{re.escape(name)}\s*\([^;{{}}]*\)\s*\n?\{{", code, re.M)
    if not head:
        return ""
    end = code.find("\n}", head.end())
    return code[head.end():end if end > 0 else len(code)]


def dma_allocator(texts: Texts, rel: str, call: str, depth: int = DEPTH,
                  seen: Optional[Set[str]] = None) -> str:
    """The DMA allocator that call, made in rel, ends in ("" if none the scan can see): the
    call itself, or a macro or function of rel's that calls one, DEPTH levels down."""
    m = DMA_RX.match(call + "(")
    if m:
        return m.group(1)
    seen = seen if seen is not None else set()
    if depth == 0 or call in seen:
        return ""
    seen.add(call)
    body = definition(texts, rel, call)
    m = DMA_RX.search(body)
    if m:
        return m.group(1)
    for inner in dict.fromkeys(CALL_RX.findall(body)):
        found = dma_allocator(texts, rel, inner, depth - 1, seen)
        if found:
            return found
    return ""


def allocations(ctx: "Context", c: Candidate) -> List[Finding]:
    """Where objects of c's struct come from DMA-coherent memory (see the module's text):
    a call with sizeof(struct S) among its arguments, or p = call(..., sizeof(*p)) for a p
    the file declares as the struct."""
    names = [f"struct\\s+{re.escape(c.struct)}"] + \
        ([re.escape(c.evidence.typedef)] if c.evidence.typedef else [])
    sized = re.compile(rf"sizeof\s*\(\s*(?:{'|'.join(names)})\s*\)")
    deref = re.compile(r"\b(\w+)\s*=\s*[^;=]*?sizeof\s*\(\s*\*\s*(\w+)\s*\)")
    out = []
    files = sorted({s.file for s in c.sets + c.checks} | ({c.header} if c.header else set()))
    for rel in files:
        code = ctx.texts.code(rel)
        spots = [m.start() for m in sized.finditer(code)]
        spots += [m.end() - 1 for m in deref.finditer(code) if m.group(1) == m.group(2) and
                  re.search(rf"(?:{'|'.join(names)})\s*\*\s*{re.escape(m.group(1))}\b", code)]
        for at in sorted(set(spots)):
            call = enclosing_call(code, at)
            dma = dma_allocator(ctx.texts, rel, call) if call else ""
            if dma:
                line = code.count("\n", 0, at) + 1
                how = "" if dma == call else f", which takes it from {dma}()"
                out.append(Finding(Site(rel, line), f"allocated by {call}(){how}"))
    return out


def user_mappings(ctx: "Context", c: Candidate) -> List[Finding]:
    """Where the magic is written into pages the same file maps into a process."""
    out = []
    maps: Dict[str, str] = {}
    for s in c.sets:
        if s.file not in maps:
            m = USER_MAP_RX.search(ctx.texts.code(s.file))
            maps[s.file] = m.group(1) if m else ""
        if not maps[s.file]:
            continue
        bases = [e for site, e, _t in ctx.bases(c) if (site.file, site.line) == (s.file, s.line)]
        for expr in bases:
            expr = re.sub(r"\s*(->|\.)\s*", r"\1", expr)
            src = source_of(ctx.texts, s, expr) if re.fullmatch(r"\w+", expr) else \
                member_source(ctx.texts.code(s.file), expr)
            if src and PAGE_MEMORY_RX.search(src):
                out.append(Finding(s, f"{expr} = {shortened(src)}, pages {s.file} maps into a process "
                                      f"with {maps[s.file]}()"))
    return out


def member_source(code: str, expr: str) -> str:
    """What the file stores into the member that ends expr (p->shared: any ->shared =
    of the file), when every such store is the same call; "" otherwise."""
    m = re.search(r"(?:->|\.)(\w+)$", expr)
    if m is None:
        return ""
    stores = {re.sub(r"\s+", " ", v.group(1)) for v in re.finditer(
        rf"(?:->|\.)\s*{m.group(1)}\s*=(?!=)\s*([^;]+);", code)}
    calls = {v.split("(", 1)[0].strip() for v in stores}
    return next(iter(stores)) if len(calls) == 1 and CALL_RX.match(next(iter(stores))) else ""


def gather(ctx: "Context", cands: Sequence[Candidate]) -> None:
    """device_visible and user_mapped."""
    for c in cands:
        if not c.struct or not c.sets:
            continue
        c.evidence.device_visible = allocations(ctx, c)
        c.evidence.user_mapped = user_mappings(ctx, c)
