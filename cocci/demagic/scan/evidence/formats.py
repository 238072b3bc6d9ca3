# SPDX-License-Identifier: GPL-2.0
"""Evidence that a value is part of a format or an ABI: where the struct's memory
comes from, who copies it, its byte order, its size measured against a buffer."""

from __future__ import annotations

import re
from dataclasses import replace
from typing import TYPE_CHECKING, Dict, Iterable, List, Optional, Sequence, Tuple

from demagic.model.candidate import Candidate, Finding, Site, SiteKind, sites_text
from demagic.kernel.source import Texts, function_text, matching_lines, one_per_line

if TYPE_CHECKING:
    from demagic.scan.evidence import Context

# What a struct pointer is cast from when it is memory the kernel does not own.
FIXED_RX = re.compile(r"^(?:[A-Z][A-Z0-9_]*\s*\(|0x[0-9a-fA-F]+|\d+\b|(?:ioremap\w*|phys_to_virt"
                      r"|__va|memremap|early_memremap)\s*\()")
MAPPING_RX = re.compile(r"(?:\(\s*[\w\s]+\*\s*\)\s*)?(?:ioremap\w*|phys_to_virt|__va|memremap"
                        r"|early_memremap)\s*\(")
# Files of programs that run in user space (their reads of a struct make it an ABI).
USERSPACE_RX = re.compile(r"(?:^|/)tools/|^scripts/|^usr/")
UAPI_RX = re.compile(r"(?:arch/[^/]+/)?include/uapi/")
# What a struct pointer is taken from when the struct is the layout of a buffer.
# a buffer the struct is laid over: a buf itself (buf, buf + off), not an object named buf
# (buf->priv) or a table of pointers (bufs[i])
BUFFER_RX = re.compile(r"\bskb_(?:put|push|pull)\w*\s*\(|->(?:data|cb|b_data)\b"
                       r"|\bbuf\w*\b(?!\s*(?:->|\.|\[))|\bblock\b"
                       r"|_buffer\b|\bpage_address\s*\(|\bkmap\w*\s*\(|\bmsg_buf")
USER_COPY = (r"_*copy_(?:to|from)_user\w*", r"_*(?:get|put)_user\w*", r"memcpy_(?:to|from)io",
             r"\w*(?:queue|post|submit)\w*_(?:msg|message)\w*",
             r"send\w*", r"recv\w*", r"kernel_(?:read|write)\w*", r"\w*write_file\w*")
CONVERT_RX = r"\b(?:cpu_to_(?:le|be)\d+|(?:le|be)\d+_to_cpu\w*|hton[sl]|ntoh[sl])\s*\(\s*%s\s*\)"


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
        body = "\n".join(function_text(texts, site))
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
        start = site.line - len(function_text(texts, site))
        alts = "|".join(chain_rx(n) for n in names)
        rx = re.compile(rf"\b(?:{'|'.join(USER_COPY)})\s*\((?:[^;]*,)?\s*(?:\([^()]*\)\s*)?&?\s*"
                        rf"(?:{alts})\s*(?:\+[^,;()]*)?[,)]")
        end = min(len(lines), site.line + 80)
        for i in range(max(0, start), end):
            if rx.search(lines[i]):
                out.append(Site(site.file, i + 1, site.function, SiteKind.USER_COPY))
    return one_per_line(out)


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
        start = site.line - len(function_text(texts, site))
        end = min(len(lines), site.line + 40)
        for i in range(max(0, start), end):
            if (stored and stored.search(lines[i])) or short.search(" ".join(lines[i:i + 2])):
                out.append(Site(site.file, i + 1, site.function, SiteKind.SIZED))
    return one_per_line(out)


def bitwise_uses(texts: Texts, files: Iterable[str], const: str) -> List[Site]:
    """Where const is used as a bit in a mask (x & C, x |= C, C | D), not in a || or &&."""
    c = re.escape(const)
    rx = re.compile(rf"(?<![&|])[&|](?![&|])=?[ \t]*\(?[ \t]*{c}\b"
                    rf"|\b{c}[ \t]*\)?[ \t]*(?<![&|])[&|](?![&|])")
    return matching_lines(texts, files, rx, SiteKind.BITWISE)


def conversions(texts: Texts, files: Iterable[str], c: Candidate) -> List[Site]:
    """Where the constant goes through a byte-order conversion (an on-disk or on-wire
    value); where its own #define converts it, when nothing else does."""
    out = matching_lines(texts, files, re.compile(CONVERT_RX % re.escape(c.macro)),
                         SiteKind.BYTE_ORDER)
    if not out and c.define is not None and re.search(CONVERT_RX % r"[^()]*", c.value or ""):
        out.append(replace(c.define, kind=SiteKind.BYTE_ORDER))
    return out



# Members that only an in-memory object has: a struct holding them is no wire format,
# whatever byte-order-typed members it also carries.
KERNEL_MEMBER_RX = re.compile(r"\*|\b(?:struct\s+(?:list_head|mutex|work_struct|delayed_work|"
                              r"timer_list|device|net_device|completion|kref|rcu_head)|"
                              r"spinlock_t|atomic_t|refcount_t|wait_queue_head_t)\b")


def field_conversions(texts: Texts, files: Iterable[str], c: Candidate) -> List[Site]:
    """Where the field itself goes through a byte-order conversion, on an object the file
    declares as the struct: a header converted to or from its disk or wire form."""
    if not c.struct or not c.field:
        return []
    out = []
    member = rf"(\w+)\s*(?:->|\.)\s*{re.escape(c.field)}\b"
    rxs = [re.compile(CONVERT_RX % member),
           re.compile(member + r"\s*=\s*(?:(?:le|be)\d+_to_cpu\w*|ntoh[sl])\s*\(")]
    for rel in files:
        code = texts.code(rel)
        for rx in rxs:
            for m in rx.finditer(code):
                if re.search(rf"\bstruct\s+{re.escape(c.struct)}\s*\*?\s*{m.group(1)}\b", code):
                    out.append(Site(rel, code.count("\n", 0, m.start()) + 1, "",
                                    SiteKind.BYTE_ORDER))
    return sorted(set(out), key=lambda s: (s.file, s.line))


def loaded(texts: Texts, bases: Sequence[Tuple[Site, str, str]], c: Candidate) -> List[Finding]:
    """Where a checked object, a local struct, is read in as bytes before its check
    (load(..., &key, sizeof(key), ...)): the magic validates the record that was read."""
    out = []
    for site, expr, _typ in bases:
        if site not in c.checks or not re.fullmatch(r"\w+", expr):
            continue
        body = "\n".join(function_text(texts, site))
        m = re.search(rf"\b(\w+)\s*\([^;]*&\s*{re.escape(expr)}\s*,\s*sizeof\s*\(\s*"
                      rf"(?:{re.escape(expr)}|struct\s+{re.escape(c.struct)})\s*\)", body)
        if m:
            out.append(Finding(site, f"{expr} read in as bytes by {m.group(1)}()"))
    return out


def gather(ctx: "Context", cands: Sequence["Candidate"]) -> None:
    """Formats and ABI: uapi, user-space readers, superblocks, fixed or mapped memory,
    buffers, copies to user space or I/O, records measured against a length,
    byte-order conversions, flag-mask bits."""
    texts = ctx.texts
    for c in cands:
        ev = c.evidence
        b = ctx.bases(c)
        for path in (c.header, c.define.file if c.define else ""):
            if UAPI_RX.match(path or "") and not ev.uapi:
                ev.uapi = path
        src = pointer_sources(texts, b)
        ev.fixed_address = src.get("fixed_address", "")
        ev.kernel_address = src.get("kernel_address", "")
        ev.buffer = src.get("buffer", "")
        ev.user_pointer = src.get("user_pointer", "")
        ev.user_copy = user_copies(texts, b, c.field)
        ev.sized_record = sized_records(texts, b, c.struct)
        ev.byte_order = conversions(texts, ctx.mentions(c), c) + \
            field_conversions(texts, sorted({s.file for s in c.sets + c.checks}), c)
        ev.loaded_bytes = loaded(texts, b, c)
        ev.bitwise = bitwise_uses(texts, sorted({s.file for s in c.sets + c.checks}), c.macro)
        ev.userspace_users = [s for s in c.sets + c.checks if USERSPACE_RX.search(s.file)]
        ev.superblock = c.field == "s_magic" or "super" in c.struct.lower()
        s = ctx.struct(c)
        if ev.endian_members and s is not None and KERNEL_MEMBER_RX.search(s.body):
            ev.endian_members = ""   # an object of the kernel's, not a layout


def format_reason(c: Candidate) -> Optional[str]:
    """Why the value is part of a format or an ABI, or None."""
    ev = c.evidence
    if not c.field:
        if c.define and UAPI_RX.match(c.define.file):
            return (f"{c.macro} is defined in {c.define.file}: user-space ABI, which no "
                    "kernel code stores into a field")
        return "no kernel code stores it into a structure field"
    if ev.userspace_users:
        return (f"{c.member} is also read or written by a user-space program "
                f"({sites_text(ev.userspace_users)}): a shared format")
    if ev.user_mapped:
        return (f"{c.struct} is written into pages mapped into user space "
                f"({ev.user_mapped[0].what}): user space reads {c.macro} there")
    if ev.superblock and c.struct == "super_block":
        return f"{c.member} is what statfs() tells user space (f_type): user-space ABI"
    if ev.superblock:
        return f"{c.member} is a filesystem superblock magic: identifies the on-disk format"
    if ev.uapi:
        what = f"struct {c.struct}" if ev.uapi == c.header else c.macro
        return f"{what} is defined in {ev.uapi}: userspace ABI"
    if ev.fixed_address:
        return (f"{c.struct} is reached through a cast of the fixed address "
                f"{ev.fixed_address}: memory shared with firmware or hardware")
    if ev.user_pointer:
        return f"{c.struct} is reached through the user-space pointer {ev.user_pointer}: userspace ABI"
    if ev.byte_order:
        return (f"{c.macro}, or the field that holds it, goes through a byte-order conversion "
                f"({sites_text(ev.byte_order)}): an on-disk or on-wire value")
    if ev.buffer:
        return (f"{c.struct} is laid over a buffer ({ev.buffer}): a message, on-wire or"
                " on-disk format")
    if ev.endian:
        return f"{c.member} is endian-typed ({ev.endian}): on-disk or on-wire format"
    if ev.endian_members:
        return (f"{c.struct} has byte-order-typed members ({ev.endian_members}): a device,"
                " firmware or on-wire format")
    if ev.loaded_bytes:
        return (f"{c.struct} is read in as bytes before it is checked "
                f"({ev.loaded_bytes[0]}): {c.macro} validates the record that was read")
    if ev.packed:
        return f"{c.struct} is packed: on-disk or on-wire format"
    if ev.user_copy:
        return (f"{c.struct} is copied to or from user space or I/O at "
                f"{sites_text(ev.user_copy)}: a protocol or device format")
    if ev.sized_record:
        return (f"{c.struct} is measured against a length or records its own size at "
                f"{sites_text(ev.sized_record)}: a record laid out in a buffer, a stored format")
    if ev.value_sets:
        return (f"{c.member} also holds other values ({sites_text(ev.value_sets)}): "
                f"{c.macro} is a sentinel value, not a type tag")
    if ev.bitwise:
        return f"{c.macro} is a bit of a flag mask (used at {sites_text(ev.bitwise)})"
    return None
