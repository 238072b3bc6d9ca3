# SPDX-License-Identifier: GPL-2.0
"""The verdict on one magic-number candidate, from its evidence alone.

keep    code depends on the value: userspace ABI, a superblock, an on-disk or
        on-wire layout, memory shared with firmware or hardware, a flag-mask
        bit; or a value that decides something: it tells two struct types
        apart, it validates a pointer rebuilt from device data or another
        layer's, it says who owns a shared slot, it is a test's assertion, or
        a compare of it chooses between two normal paths.
flag    a state flag: the field also holds 0/1 and is tested on normal paths
        (for truth, or named for the state it holds); it becomes a bool.
remove  positive evidence that the field is a debug tag: every compare is a
        debug check (a mismatch only takes an error path, a match runs on),
        or the field is written and never read, or it exists only under a
        switch of the code's own that nothing in the tree turns on (dead code,
        which goes with the switch).
review  anything else: the evidence does not show either way.  A candidate
        with code spatch could not parse is never judged remove.

Constants that share a field are judged together: the most careful verdict
of the group is the group's.
"""

from __future__ import annotations

from typing import List, Optional, Sequence, Tuple

from demagic.scan.candidates import groups
from demagic.scan.evidence.formats import format_reason
from demagic.scan.evidence.states import TAG_FIELD_RX, flag_name
from demagic.model.candidate import Candidate, Finding, Role, SHOWN, SiteKind, Verdict, sites_text

def _first(findings: Sequence[Finding]) -> str:
    more = f" (+{len(findings) - 1})" if len(findings) > 1 else ""
    return str(findings[0]) + more


def flag_reason(c: Candidate) -> Optional[str]:
    """A field also stored as 0/1 and tested on normal paths: a state flag."""
    ev = c.evidence
    if not ev.flag_sets or ev.group or ev.unparsed or not c.struct:
        return None
    truths = [s for s in c.checks if s.kind is SiteKind.TRUTH]
    name = ev.flag_name or flag_name(c)
    if truths:
        return (f"{c.member} is also set to 0/1 ({sites_text(ev.flag_sets)}) and truth-tested "
                f"({sites_text(truths)}): a state flag, becomes bool {name}")
    if not TAG_FIELD_RX.search(c.field):
        return (f"{c.member} is also set to 0/1 ({sites_text(ev.flag_sets)}) and named for a "
                f"state, not a tag: a state flag, becomes bool {name}")
    return None


def functional_reason(c: Candidate) -> Optional[str]:
    """Why code depends on the value, or None."""
    ev = c.evidence
    if ev.discriminator:
        return f"a type discriminator: {_first(ev.discriminator)}"
    if ev.device_data:
        return f"validates data from a device or another layer: {_first(ev.device_data)}"
    if ev.shared_slot:
        return f"decides who owns a shared slot: {_first(ev.shared_slot)}"
    if ev.test_code:
        return f"the check is a test's own assertion: {_first(ev.test_code)}"
    deciding = [s for s in ev.shapes if s.role == Role.FUNCTIONAL]
    if deciding:
        s = deciding[0]
        more = f" (+{len(deciding) - 1})" if len(deciding) > 1 else ""
        return f"code depends on the value: at {s.site}, {s.mismatch}{more}"
    return None


def review_notes(c: Candidate) -> List[str]:
    """What stands in the way of a remove (empty: nothing)."""
    ev = c.evidence
    out: List[str] = []
    out += [f"not parsed: {f}" for f in ev.unparsed]
    if not c.struct:
        out.append(f"no struct declares {c.field} where the sites can see it")
    elif not ev.field_decl:
        out.append(f"struct {c.struct} has no member {c.field} the scan can read")
    if ev.other_fields:
        names = sorted({f.what.split(" of ", 1)[1] for f in ev.other_fields})
        where = sites_text([f.site for f in ev.other_fields])
        out.append(f"{c.macro} also tags {', '.join(names)} ({where}): the rules retire one "
                   "field at a time")
    if ev.debug_option:
        if ev.debug_option.startswith("CONFIG_"):
            out.append(f"the field exists only with {ev.debug_option} set: its checks are "
                       "what that debugging option is for")
        elif ev.switch_blockers:
            out.append(f"the field exists only when {ev.debug_option} is defined, which "
                       f"nothing in the tree does, but {ev.debug_option} cannot go with it: "
                       f"{_first(ev.switch_blockers)}")
    out += [f"foreign input: {f}" for f in ev.foreign_input]
    out += [f"handed out before it is tagged, so a check may also keep out a half-built "
            f"object: {f}" for f in ev.published_first]
    out += [f"{s.site}: {s.kind}: {s.mismatch}" for s in ev.shapes if s.role == Role.UNKNOWN]
    reads = [f for f in ev.field_reads if f.what.startswith(("read", "passed by address"))]
    out += [f"{f.site}: the field is also {f.what}" for f in reads[:SHOWN]]
    if len(reads) > SHOWN:
        out.append(f"... and {len(reads) - SHOWN} more reads")
    if not c.sets:
        out.append("never set: nothing shows what the field holds")
    if ev.write_only and c.sets:
        out += [f"written into memory the kernel may not own alone: {f}"
                for f in ev.written_into if not f.what.startswith("owned")][:SHOWN]
        out += [f"copied out as bytes: {f}" for f in ev.exposed][:SHOWN]
        if ev.raw_compares and ev.leading and (ev.untyped or not c.sets):
            out.append(f"{c.macro} is compared as raw bytes at {ev.raw_compares[0]}, and "
                       f"{c.field} leads {c.struct}, whose objects leave as untyped pointers "
                       f"({ev.untyped[0] if ev.untyped else 'unknown'}): that compare may "
                       "read this field")
    return out


def retired_switch(c: Candidate) -> bool:
    """The field, its stores and its checks exist only under a switch of the code's own
    that nothing in the tree turns on, and the switch can go with them (guards.py)."""
    ev = c.evidence
    return bool(ev.debug_option and not ev.debug_option.startswith("CONFIG_")
                and ev.switch_code and not ev.switch_blockers)


def switch_reason(c: Candidate) -> str:
    """Why a field that only a dead switch compiles goes, with the switch."""
    ev = c.evidence
    off = f" (#undef at {sites_text(ev.switch_off)})" if ev.switch_off else ""
    why = (f"dead code: {c.member} exists only when {ev.debug_option} is defined, and nothing "
           f"in the tree defines it{off}; every block under it is the magic's "
           f"({sites_text([f.site for f in ev.switch_code])})")
    if ev.switch_noops:
        names = ", ".join(f.what + "()" for f in ev.switch_noops)
        why += (f"; without it {names} {'is a no-op' if len(ev.switch_noops) == 1 else 'are no-ops'}"
                f", called at {sites_text(ev.switch_calls)}")
    return why


def remove_reason(c: Candidate) -> str:
    """The positive evidence for removal, naming each check."""
    ev = c.evidence
    shapes = [s for s in ev.shapes if s.role == Role.DEBUG]
    if shapes:
        kinds = sorted({s.kind for s in shapes})
        why = (f"in-memory tag {c.member}: set at {sites_text(c.sets)}, every compare a debug check "
               f"({', '.join(kinds)}: {sites_text([s.site for s in shapes])})")
    else:
        why = (f"in-memory tag {c.member}: set at {sites_text(c.sets)}, never read "
               "(write-only)")
    if ev.kernel_address:
        why += f"; reached through {ev.kernel_address}, kernel memory"
    if ev.flag_sets:
        why += f"; also cleared to 0/1 at {sites_text(ev.flag_sets)}"
    if ev.guard:
        why += f"; checks only under {ev.guard}, which the tree never defines"
    if ev.group:
        why += f"; shares the field with {', '.join(ev.group)}"
    if ev.offset_macros:
        users = ev.asm_users
        where = f" used by assembly at {sites_text(users)}" if users else ""
        why += (f"; offset macros {', '.join(sorted(ev.offset_macros))}{where}"
                " must move with the layout")
    if ev.other_mentions:
        why += (f"; the field goes, the #define stays: {c.macro} is also used at "
                f"{sites_text([f.site for f in ev.other_mentions])}")
    return why


def judge(c: Candidate) -> Tuple[Verdict, str, List[str]]:
    """(verdict, one-line reason naming the evidence, what speaks against) for c alone."""
    keep = format_reason(c)
    if keep:
        if c.field and c.evidence.write_only:
            keep += "; write-only in the kernel"
        return Verdict.KEEP, keep, []
    ev = c.evidence
    if retired_switch(c):
        return Verdict.REMOVE, switch_reason(c), []
    if ev.discriminator or ev.device_data or ev.shared_slot or ev.test_code:
        return Verdict.KEEP, functional_reason(c) or "", []
    flag = flag_reason(c)
    if flag:
        if ev.device_visible:
            flag += (f"; objects of {c.struct} are memory a device reads, {ev.device_visible[0]}:"
                     " the bool changes their layout")
        return Verdict.FLAG, flag, []
    if ev.device_visible:
        return (Verdict.KEEP, f"objects of {c.struct} are memory a device reads, "
                f"{ev.device_visible[0]}: the device may read {c.macro}", [])
    functional = functional_reason(c)
    if functional:
        return Verdict.KEEP, functional, []
    notes = review_notes(c)
    if notes:
        return Verdict.REVIEW, f"not enough evidence to remove {c.member}: {notes[0]}", notes
    if not any(s.role == Role.DEBUG for s in c.evidence.shapes) and not c.evidence.write_only:
        return Verdict.REVIEW, f"{c.member}: no check the scan can read", []
    return Verdict.REMOVE, remove_reason(c), []


CAUTION = {Verdict.KEEP: 0, Verdict.REVIEW: 1, Verdict.FLAG: 2, Verdict.REMOVE: 3}


def judge_all(cands: Sequence[Candidate]) -> None:
    """Each candidate's verdict, then one verdict per group: its most careful one."""
    for c in cands:
        c.verdict, c.reason, c.against = judge(c)
    for members in groups(cands).values():
        if len(members) < 2:
            continue
        checked = [m for m in members if m.evidence.shapes]
        for m in members:
            if checked and not m.evidence.shapes and m.verdict is Verdict.REVIEW:
                # A value only written (when the object dies) goes with the checked ones.
                m.verdict, m.reason, m.against = Verdict.REMOVE, (
                    f"written at {sites_text(m.sets)} into {m.member}, which "
                    f"{', '.join(x.macro for x in checked)} tags; never compared"), []
        worst = min(members, key=lambda m: CAUTION[m.verdict])
        for m in members:
            if CAUTION[m.verdict] > CAUTION[worst.verdict]:
                m.verdict = worst.verdict
                m.reason = (f"shares {m.member} with {worst.macro}, judged "
                            f"{worst.verdict.value}: {worst.reason}")
                m.against = list(worst.against)
