# SPDX-License-Identifier: GPL-2.0
"""The verdict on one magic-number candidate, from its evidence alone.

keep    not a magic number: userspace ABI (include/uapi), filesystem superblock
        magic, on-disk or on-wire layout (endian-typed field, packed struct,
        copied to or from user space or I/O), memory shared with firmware or
        hardware (struct reached through a cast of a fixed address), a bit of
        a flag mask (WAKE_MAGIC style), or a constant stored into no field.
flag    a state flag: the field is also stored as plain 0/1 and tested for
        truth, so it becomes a bool.
remove  an in-memory type tag: set at init, checked before use (or never
        checked at all); offsets that hand-written assembly uses move with it.
"""

from __future__ import annotations

import re

from typing import Any, Dict, Optional, Sequence, Tuple

from demagic.model import Candidate, Site, Verdict


def _sites(sites: Sequence[Any], limit: int = 3) -> str:
    names = [str(s) for s in sites]
    more = f" (+{len(names) - limit})" if len(names) > limit else ""
    return ", ".join(names[:limit]) + more


def _struct(c: Candidate) -> str:
    return f"{c.struct}.{c.field}" if c.struct else f"->{c.field}"


def _keep_reason(c: Candidate) -> Optional[str]:
    """Why c is not a magic number, or None."""
    ev: Dict[str, Any] = c.evidence
    if not c.field:
        return "stored into no structure field"
    if ev.get("userspace_users"):
        return (f"{_struct(c)} is also read or written by a user-space program "
                f"({_sites(ev['userspace_users'])}): a shared format")
    if ev.get("superblock"):
        return f"{_struct(c)} is a filesystem superblock magic: identifies the on-disk format"
    if ev.get("uapi"):
        what = f"struct {c.struct}" if ev["uapi"] == c.header else c.macro
        return f"{what} is defined in {ev['uapi']}: userspace ABI"
    if ev.get("fixed_address"):
        return (f"{c.struct} is reached through a cast of the fixed address "
                f"{ev['fixed_address']}: memory shared with firmware or hardware")
    if ev.get("user_pointer"):
        return f"{c.struct} is reached through the user-space pointer {ev['user_pointer']}: userspace ABI"
    if ev.get("byte_order"):
        return (f"{c.macro} goes through a byte-order conversion ({_sites(ev['byte_order'])}):"
                " on-disk or on-wire value")
    if ev.get("buffer"):
        return (f"{c.struct} is laid over a buffer ({ev['buffer']}): a message, on-wire or"
                " on-disk format")
    if ev.get("endian"):
        return f"{_struct(c)} is endian-typed ({ev['endian']}): on-disk or on-wire format"
    if ev.get("endian_members"):
        return (f"{c.struct} has byte-order-typed members ({ev['endian_members']}): a device,"
                " firmware or on-wire format")
    if ev.get("packed"):
        return f"{c.struct} is packed: on-disk or on-wire format"
    if ev.get("user_copy"):
        return (f"{c.struct} is copied to or from user space or I/O at "
                f"{_sites(ev['user_copy'])}: a protocol or device format")
    if ev.get("sized_record"):
        return (f"{c.struct} is measured against a length or records its own size at "
                f"{_sites(ev['sized_record'])}: a record laid out in a buffer, a stored format")
    if ev.get("value_sets"):
        return (f"{_struct(c)} also holds other values ({_sites(ev['value_sets'])}): "
                f"{c.macro} is a sentinel value, not a type tag")
    if ev.get("bitwise"):
        return f"{c.macro} is a bit of a flag mask (used at {_sites(ev['bitwise'])})"
    return None


TAG_FIELD_RX = re.compile(r"magic|sig|cookie|tag|check", re.I)


def _flag_reason(c: Candidate) -> Optional[str]:
    """A field also stored as 0/1 that is truth-tested, or that is no tag by its name."""
    flags = c.evidence.get("flag_sets", [])
    truths = [s for s in c.checks if getattr(s, "kind", "") == "truth"]
    if flags and truths:
        return (f"{_struct(c)} is also set to 0/1 ({_sites(flags)}) and truth-tested "
                f"({_sites(truths)}): a state flag, becomes bool")
    if flags and not TAG_FIELD_RX.search(c.field):
        return (f"{_struct(c)} is also set to 0/1 ({_sites(flags)}) and named for a state, "
                "not a tag: a state flag, becomes bool")
    return None


def _remove_reason(c: Candidate) -> str:
    ev = c.evidence
    real = [s for s in c.checks if getattr(s, "kind", "") != "truth"]
    if real:
        kinds = sorted({getattr(s, "kind", "") or "condition" for s in real})
        why = f"set at {len(c.sets)}, checked at {len(real)} ({', '.join(kinds)})"
    else:
        why = f"set at {len(c.sets)}, never checked (write-only)"
    why = f"in-memory tag {_struct(c)}: {why}"
    if ev.get("kernel_address"):
        why += f"; reached through {ev['kernel_address']}, kernel memory"
    if ev.get("flag_sets"):
        why += f"; also cleared to 0/1 at {_sites(ev['flag_sets'])}"
    if ev.get("guard"):
        why += f"; checks only under {ev['guard']}, which the tree never defines"
    if ev.get("group"):
        why += f"; shares the field with {', '.join(ev['group'])}"
    if ev.get("offset_macros"):
        users = ev.get("asm_users", [])
        where = f" used by assembly at {_sites(users)}" if users else ""
        why += (f"; offset macros {', '.join(sorted(ev['offset_macros']))}{where}"
                " must move with the layout")
    return why


def judge(c: Candidate) -> Tuple[Verdict, str]:
    """(verdict, one-line reason naming the evidence) for c."""
    keep = _keep_reason(c)
    if keep:
        if c.field and c.evidence.get("write_only"):
            keep += "; write-only in the kernel"
        return Verdict.KEEP, keep
    flag = _flag_reason(c)
    if flag:
        return Verdict.FLAG, flag
    return Verdict.REMOVE, _remove_reason(c)


def from_json(record: Dict[str, Any]) -> Candidate:
    """A Candidate from its to_json() form (sites as file:line[:function:kind])."""
    def site(text: str) -> Site:
        parts = text.split(":")
        return Site(parts[0], int(parts[1]), *(parts[2:4]))

    ev = dict(record.get("evidence", {}))
    for key in ("flag_sets", "asm_users", "user_copy", "bitwise", "userspace_users", "value_sets",
                "byte_order", "sized_record"):
        if key in ev:
            ev[key] = [site(s) if isinstance(s, str) else Site(**s) for s in ev[key]]
    return Candidate(
        macro=record["macro"], value=record.get("value", ""),
        define=site(record["define"]) if record.get("define") else None,
        struct=record.get("struct", ""), field=record.get("field", ""),
        header=record.get("header", ""),
        sets=[site(s) for s in record.get("sets", [])],
        checks=[site(s) for s in record.get("checks", [])],
        other_uses=[site(s) for s in record.get("other_uses", [])], evidence=ev)

