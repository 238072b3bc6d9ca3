# SPDX-License-Identifier: GPL-2.0
"""The records that the scan writes and the series writer reads.

A Candidate is one magic constant with the field it tags; its Evidence is
everything the tree says about it, the judge's whole input.  Each kind of
evidence has a named field here and one module under demagic/evidence/
that fills it.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from enum import Enum
from typing import Any, Dict, List, Optional, Sequence


class Verdict(str, Enum):
    REMOVE = "remove"   # in-memory type tag, every check a debug check: a patch removes it
    FLAG = "flag"       # really a state flag: a patch makes it a bool
    KEEP = "keep"       # code depends on it: ABI, format, or a value that decides something
    REVIEW = "review"   # not enough evidence either way: listed for a human, never patched


class SiteKind(str, Enum):
    """What a site of the tree is, for the candidate that lists it."""
    NONE = ""
    # where the constant is stored (Candidate.sets)
    ASSIGN = "assign"          # p->magic = FOO_MAGIC
    INIT = "init"              # .magic = FOO_MAGIC in an initialiser
    MACRO = "macro"            # through a SET_MAGIC()-style macro
    # where the field is compared or read (Candidate.checks)
    CONDITION = "condition"    # p->magic != FOO_MAGIC in a condition
    TRUTH = "truth"            # if (p->magic): tested for truth
    SWITCH = "switch"          # case FOO_MAGIC: in a switch on the field
    # the check's own kind, as find_magic.cocci reports it
    WARN = "warn"
    BUG = "bug"
    MESSAGE = "message"
    EARLY_EXIT = "early-exit"
    # other stores into the field (evidence/states.py)
    SET = "set"                # 1 or true
    CLEAR = "clear"            # 0 or false
    VALUE = "value"            # another value
    # what the evidence modules find
    DEFINE = "define"          # the constant's #define
    ASM = "asm"                # an offset macro used by assembly
    BITWISE = "bitwise"        # the constant as a bit of a mask
    BYTE_ORDER = "byte-order"  # the constant through cpu_to_le32() and the like
    SIZED = "sized"            # the struct measured against a length
    USER_COPY = "user-copy"    # the struct copied to or from user space or I/O
    PUBLISH = "publish"        # the object handed out before it is tagged


@dataclass(frozen=True)
class Site:
    """A place in the tree: file relative to the tree top, 1-based line."""
    file: str
    line: int
    function: str = ""   # enclosing function, "" at file scope
    kind: SiteKind = SiteKind.NONE

    def __post_init__(self) -> None:
        if not isinstance(self.kind, SiteKind):      # a kind must be one of SiteKind's
            object.__setattr__(self, "kind", SiteKind(self.kind))

    def __str__(self) -> str:
        return f"{self.file}:{self.line}" if self.file else "-"

    @property
    def where(self) -> str:
        """The function as a reader names it (foo()), else the file's name."""
        return f"{self.function}()" if self.function else self.file.rpartition("/")[2]

    def key(self) -> str:
        """file:line:function:kind, what JSON records hold."""
        return f"{self.file}:{self.line}:{self.function}:{self.kind.value}"

    @staticmethod
    def parse(text: str) -> "Site":
        parts = text.split(":")
        return Site(parts[0], int(parts[1]) if len(parts) > 1 and parts[1] else 0,
                    parts[2] if len(parts) > 2 else "",
                    SiteKind(parts[3]) if len(parts) > 3 else SiteKind.NONE)


@dataclass(frozen=True)
class Finding:
    """One piece of evidence: where it is and, in a few words, what it shows."""
    site: Site
    what: str

    def __str__(self) -> str:
        return f"{self.site} ({self.what})" if self.site.file else self.what


class Role(str, Enum):
    """What a compare of the field with the constant does for the code around it."""
    DEBUG = "debug"            # a mismatch only takes an error path; a match runs on as without
    FUNCTIONAL = "functional"  # the outcome chooses between two normal paths
    UNKNOWN = "unknown"        # the value goes somewhere the scan cannot follow




@dataclass(frozen=True)
class CheckShape:
    """How one compare of the field with the constant behaves."""
    site: Site
    role: Role
    kind: str          # assert, warn, message, early-exit, else-error, dead; selects, ...
    mismatch: str      # what runs when the value differs, as written ("return -EINVAL")
    kept: str = ""     # other operands of the condition that stay ("!p")
    last_line: int = 0  # where the statement that holds the check ends
    match: str = ""    # what a match runs that a mismatch skipped (if A else error: A)

    def __str__(self) -> str:
        return f"{self.site} {self.kind}: {self.mismatch}" if self.mismatch else \
            f"{self.site} {self.kind}"


@dataclass
class Evidence:
    """Everything the judge reads about a candidate (see judge.py for how)."""
    # Where the struct is.
    typedef: str = ""
    struct_line: int = 0
    field_decl: str = ""
    other_structs: List[str] = field(default_factory=list)
    other_fields: List[Finding] = field(default_factory=list)   # the constant in other fields
    leading: bool = False              # the field is the struct's first member
    # Formats and ABI: a keep (evidence/formats.py).
    uapi: str = ""
    userspace_users: List[Site] = field(default_factory=list)
    superblock: bool = False
    fixed_address: str = ""
    user_pointer: str = ""
    buffer: str = ""
    kernel_address: str = ""
    endian: str = ""
    endian_members: str = ""
    packed: bool = False
    volatile: bool = False
    user_copy: List[Site] = field(default_factory=list)
    sized_record: List[Site] = field(default_factory=list)
    byte_order: List[Site] = field(default_factory=list)
    loaded_bytes: List[Finding] = field(default_factory=list)
    bitwise: List[Site] = field(default_factory=list)
    # How each check behaves (evidence/shapes.py) and whether it is compiled (guards.py).
    shapes: List[CheckShape] = field(default_factory=list)
    guard: str = ""
    debug_option: str = ""             # the field exists only with this debugging switch
                                       # (guards.py)
    # A switch of the code's own that nothing turns on (guards.py): where it is #undef'd,
    # the code that only it compiles, the no-op macros its #else branches leave, their
    # calls, and what stands in the way of retiring it with the field.
    switch_off: List[Site] = field(default_factory=list)
    switch_code: List[Finding] = field(default_factory=list)
    switch_noops: List[Finding] = field(default_factory=list)
    switch_calls: List[Site] = field(default_factory=list)
    switch_blockers: List[Finding] = field(default_factory=list)
    # A value code depends on: a keep (one module each).
    discriminator: List[Finding] = field(default_factory=list)   # discriminator.py
    device_data: List[Finding] = field(default_factory=list)     # provenance.py
    foreign_input: List[Finding] = field(default_factory=list)   # provenance.py (review)
    published_first: List[Finding] = field(default_factory=list) # published.py (review)
    device_visible: List[Finding] = field(default_factory=list)  # exposure.py: DMA memory
    user_mapped: List[Finding] = field(default_factory=list)     # exposure.py: mmap'ed pages
    sources: List[Finding] = field(default_factory=list)         # provenance.py: where each
                                                                 # checked pointer comes from
    warrants: List[Finding] = field(default_factory=list)        # warrants.py: why only the
                                                                 # struct reaches a check
    operations: List[Finding] = field(default_factory=list)      # warrants.py: the ops table
                                                                 # that calls a check's function
    shared_slot: List[Finding] = field(default_factory=list)     # slots.py
    test_code: List[Finding] = field(default_factory=list)       # testcode.py
    state_tests: List[Finding] = field(default_factory=list)     # states.py
    # Other values of the field (states.py).
    flag_sets: List[Site] = field(default_factory=list)
    value_sets: List[Site] = field(default_factory=list)
    dead_sets: List[Site] = field(default_factory=list)
    flag_name: str = ""
    # Reads of the field other than the checks (reads.py): a write-only field has none.
    field_reads: List[Finding] = field(default_factory=list)
    write_only: bool = False
    # For a write-only field: whose memory each write lands in, copies of the object as
    # bytes, and the constant's other mentions (memory.py).
    written_into: List[Finding] = field(default_factory=list)
    exposed: List[Finding] = field(default_factory=list)
    other_mentions: List[Finding] = field(default_factory=list)
    raw_compares: List[Finding] = field(default_factory=list)    # of them: *(u32 *)p == C
    untyped: List[Finding] = field(default_factory=list)         # the object as a void *
    # Layout (offsets.py) and the field's other constants.
    offset_macros: Dict[str, str] = field(default_factory=dict)
    asm_users: List[Site] = field(default_factory=list)
    group: List[str] = field(default_factory=list)
    # Code spatch could not parse in the files that name the magic (parsing.py).
    unparsed: List[Finding] = field(default_factory=list)

    def to_json(self) -> Dict[str, Any]:
        """Only what is set, sites as file:line:function:kind."""
        out: Dict[str, Any] = {}
        for f in fields(self):
            value = getattr(self, f.name)
            if value in ("", 0, False, [], {}):
                continue
            if isinstance(value, list):
                value = [_item_json(v) for v in value]
            out[f.name] = value
        return out

    @staticmethod
    def from_json(data: Dict[str, Any]) -> "Evidence":
        ev = Evidence()
        for f in fields(ev):
            if f.name not in data:
                continue
            value = data[f.name]
            if isinstance(value, list) and f.name not in ("other_structs", "group"):
                value = [_item_from_json(f.name, v) for v in value]
            setattr(ev, f.name, value)
        return ev


def _item_json(value: Any) -> Any:
    if isinstance(value, Site):
        return value.key()
    if isinstance(value, Finding):
        return {"site": value.site.key(), "what": value.what}
    if isinstance(value, CheckShape):
        return {"site": value.site.key(), "role": value.role.value, "kind": value.kind,
                "mismatch": value.mismatch, "kept": value.kept, "last_line": value.last_line,
                "match": value.match}
    return value


def _item_from_json(name: str, value: Any) -> Any:
    if isinstance(value, str):
        return Site.parse(value)
    if name == "shapes":
        return CheckShape(Site.parse(value["site"]), Role(value["role"]), value["kind"],
                          value.get("mismatch", ""), value.get("kept", ""),
                          value.get("last_line", 0), value.get("match", ""))
    return Finding(Site.parse(value["site"]), value["what"])


@dataclass
class Candidate:
    """One magic constant, the field it tags and everything the tree says about it."""
    macro: str                       # FOO_MAGIC (a group shares a field: QUEUE_MAGIC_{FREE,USED})
    value: str                       # as written in its #define
    define: Optional[Site]           # where it is defined
    struct: str                      # struct tag, or typedef name when untagged
    field: str                       # the member that holds it
    header: str                      # file that defines the struct
    sets: List[Site] = field(default_factory=list)
    checks: List[Site] = field(default_factory=list)
    other_uses: List[Site] = field(default_factory=list)
    evidence: Evidence = field(default_factory=Evidence)
    verdict: Verdict = Verdict.REVIEW
    reason: str = ""
    against: List[str] = field(default_factory=list)   # review: what speaks for and against
    local: bool = False              # #defined in a .c file: its name means it only there

    @property
    def member(self) -> str:
        """struct.field, or ->field when the struct is not known."""
        return f"{self.struct}.{self.field}" if self.struct else f"->{self.field}"

    def to_json(self) -> Dict[str, Any]:
        return {
            "macro": self.macro, "value": self.value,
            "define": str(self.define) if self.define else None,
            "struct": self.struct, "field": self.field, "header": self.header,
            "sets": [s.key() for s in self.sets], "checks": [s.key() for s in self.checks],
            "other_uses": [s.key() for s in self.other_uses],
            "evidence": self.evidence.to_json(), "verdict": self.verdict.value,
            "reason": self.reason, "against": self.against, "local": self.local,
        }

    @staticmethod
    def from_json(record: Dict[str, Any]) -> "Candidate":
        c = Candidate(
            macro=record["macro"], value=record.get("value", ""),
            define=Site.parse(record["define"]) if record.get("define") else None,
            struct=record.get("struct", ""), field=record.get("field", ""),
            header=record.get("header", ""),
            sets=[Site.parse(s) for s in record.get("sets", [])],
            checks=[Site.parse(s) for s in record.get("checks", [])],
            other_uses=[Site.parse(s) for s in record.get("other_uses", [])],
            evidence=Evidence.from_json(record.get("evidence", {})),
            local=record.get("local", False))
        if "verdict" in record:
            c.verdict = Verdict(record["verdict"])
            c.reason = record.get("reason", "")
            c.against = list(record.get("against", []))
        return c


SHOWN = 3   # sites a reason names before it says how many more there are


def sites_text(items: Sequence[object], limit: int = SHOWN) -> str:
    """The first sites (or findings) of items, and how many more: 'a:1, b:2, c:3 (+4)'."""
    names = [str(s) for s in items]
    more = f" (+{len(names) - limit})" if len(names) > limit else ""
    return ", ".join(names[:limit]) + more
