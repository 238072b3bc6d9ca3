# SPDX-License-Identifier: GPL-2.0
"""Where the checked pointer comes from.

A check on a pointer the driver allocated itself may be a debug check; a
check on a pointer rebuilt from data that a device or another layer hands
back is the only validation of that data, and stays (device_data):

- an integer turned into a pointer: a cast from (uintptr_t), (unsigned long)
  and the like, or pfn_to_kaddr(), __va(), page_private(), HILO_U64() ...;
- a byte-order conversion (le32_to_cpu() ...) in its making;
- a descriptor, completion entry or DMA memory (desc->..., cqe, cookie);
- another layer's scratch space (skb->cb).

The assignment is looked for in the check's function, and one level further
in a function or macro of the same file that returns the pointer.  A check
in an exported function, on a pointer taken from its argument with the type
erased (dev_get_drvdata(dev), a void * argument), is the only check of what
another module passes in (foreign_input): not a reason to keep, but no
positive evidence for removal either.  A typed argument is checked by the
compiler already.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Optional, Sequence, Tuple

from demagic.model.candidate import Candidate, Finding, Site
from demagic.kernel.cparse import blank_strings, shortened
from demagic.kernel.source import Texts, function_body, function_start

if TYPE_CHECKING:
    from demagic.scan.evidence import Context

INT_CAST_RX = re.compile(r"\(\s*(?:uintptr_t|unsigned\s+long(?:\s+long)?|long|u64|u32|ulong|"
                         r"size_t|phys_addr_t|dma_addr_t|__u64|uint64_t)\s*\)")
INT_CALL_RX = re.compile(r"\b(?:pfn_to_kaddr|__va|phys_to_virt|bus_to_virt|page_private|HILO_\w+|"
                         r"u64_to_ptr|u64_to_user_ptr|pte_val|(?:io)?read[bwlq]\w*|"
                         r"(?:le|be)\d+_to_cpu\w*)\s*\(")
LAYER_RX = re.compile(r"(?:->|\.)\s*cb\b")
DESCRIPTOR_PARTS = frozenset("desc descs descriptor cqe wqe eqe rxd txd completion cookie dma "
                             "hw_desc".split())
# Accessors that hand back a pointer with its type erased (void *): the magic is then the
# only check of what the caller passed in.
ERASED_RX = re.compile(r"\b\w*(?:get_drvdata|get_data|user_data)\w*\s*\(|(?:->|\.)\s*(?:private_data|"
                       r"driver_data|drvdata|priv|private|disc_data|sk_user_data)\b")
OWN_RX = re.compile(r"\b(?:container_of|netdev_priv|list_entry|\w+_priv|kzalloc|kmalloc|kcalloc|"
                    r"vzalloc|devm_kzalloc)\b")


def source_of(texts: Texts, site: Site, expr: str) -> str:
    """The right-hand side of the last assignment to expr before site in its function."""
    if not re.fullmatch(r"\w+", expr or ""):
        return ""
    start = function_start(texts, site)
    body = blank_strings("\n".join(texts.code(site.file).split("\n")[start - 1:site.line]))
    found = re.findall(rf"(?<![\w>.])\b{re.escape(expr)}\s*=(?!=)\s*([^;]+);", body)
    return " ".join(found[-1].split()) if found else ""


def _callee_returns(texts: Texts, rel: str, src: str) -> str:
    """The return expressions of the function (or macro) src calls, when rel defines it."""
    m = re.match(r"^(?:\(\s*[\w\s]+\*\s*\)\s*)?(\w+)\s*\(", src)
    if not m:
        return ""
    name = m.group(1)
    code = texts.code(rel)
    macro = re.search(rf"^[ \t]*#[ \t]*define[ \t]+{name}\s*\([^)]*\)\s*(.+)$", code, re.M)
    if macro:
        return macro.group(1)
    head = re.search(rf"^\w[^;{{}}]*\b{name}\s*\([^;{{}}]*\)\s*\n?\{{", code, re.M)
    if not head:
        return ""
    line = code.count("\n", 0, head.end()) + 1
    start, end = function_body(texts, rel, line)
    if start < 0:
        return ""
    return " ".join(re.findall(r"\breturn\s+([^;]+);", code[start:end]))


def why_foreign(src: str) -> Optional[str]:
    """What in src makes the pointer data from a device or another layer."""
    if INT_CAST_RX.search(src) or re.search(r"<<\s*32", src):
        return "an integer turned into a pointer"
    m = INT_CALL_RX.search(src)
    if m:
        return f"an integer turned into a pointer ({m.group(0).rstrip('(').strip()}())"
    if OWN_RX.search(src):
        return None
    if LAYER_RX.search(src):
        return "another layer's scratch space (->cb)"
    words = {p for w in re.findall(r"[A-Za-z_]\w*", src) for p in w.lower().split("_")}
    hit = sorted(words & DESCRIPTOR_PARTS)
    if hit:
        return f"a device descriptor or completion entry ({hit[0]})"
    return None


def trace(texts: Texts, site: Site, expr: str) -> Tuple[str, Optional[str]]:
    """(source expression, why it is foreign data or None) of the pointer expr at site."""
    src = source_of(texts, site, expr)
    if not src:
        return "", None
    why = why_foreign(src)
    if why is None and not OWN_RX.search(src):
        inner = _callee_returns(texts, site.file, src)
        if inner:
            why = why_foreign(inner)
            if why:
                why += f", returned by {src.split('(')[0].strip()}()"
    return src, why


def _exported(texts: Texts, site: Site) -> bool:
    return bool(site.function) and re.search(
        rf"^\s*EXPORT_SYMBOL\w*\(\s*{re.escape(site.function)}\s*\)", texts.code(site.file),
        re.M) is not None


def _erased_parameter(texts: Texts, site: Site, expr: str, src: str) -> bool:
    """expr comes from a parameter of site's function through a type-erasing accessor
    (dev_get_drvdata(dev), file->private_data ...), or is a void * parameter."""
    start = function_start(texts, site)
    head = " ".join(texts.code(site.file).split("\n")[start - 1:start + 3])
    m = re.search(rf"\b{re.escape(site.function)}\s*\(([^)]*)\)", head)
    if not m:
        return False
    params = {p.split()[-1].lstrip("*"): p for p in m.group(1).split(",") if p.split()}
    if expr in params and re.search(r"\bvoid\s*\*", params[expr]):
        return True
    return bool(src) and ERASED_RX.search(src) is not None and \
        bool(set(re.findall(r"\w+", src)) & set(params))


def _parameter_text(texts: Texts, site: Site, expr: str) -> str:
    """How expr reaches site's function when no assignment says: "the struct foo *
    parameter p", or just the expression."""
    start = function_start(texts, site)
    head = " ".join(texts.code(site.file).split("\n")[start - 1:start + 3])
    m = re.search(rf"\b{re.escape(site.function)}\s*\(([^)]*)\)", head) if site.function else None
    for param in (m.group(1).split(",") if m else []):
        words = param.replace("*", " * ").split()
        if words and words[-1] == expr:
            return f"the {' '.join(words[:-1]).replace(' *', ' *')} parameter {expr}".replace(
                "* parameter", "*parameter").replace("*parameter", "* parameter")
    return " ".join(expr.split())


def gather(ctx: "Context", cands: Sequence[Candidate]) -> None:
    """device_data and foreign_input, from the base pointer of each check."""
    texts = ctx.texts
    for c in cands:
        checks = {(s.file, s.line) for s in c.checks}
        seen = set()
        for site, expr, _typ in ctx.bases(c):
            if (site.file, site.line) not in checks or (site.file, site.function, expr) in seen:
                continue
            seen.add((site.file, site.function, expr))
            src, why = trace(texts, site, expr)
            c.evidence.sources.append(Finding(site, f"{expr} = {src}" if src else
                                              _parameter_text(texts, site, expr)))
            if why:
                c.evidence.device_data.append(Finding(site,
                                                      f"{expr} = {shortened(src, 60)}: {why}"))
            elif _exported(texts, site) and _erased_parameter(texts, site, expr, src):
                c.evidence.foreign_input.append(Finding(
                    site, f"{site.function}() is exported and checks {expr}"
                    + (f" = {shortened(src, 40)}" if src else "") + ", which its caller passes in"))
