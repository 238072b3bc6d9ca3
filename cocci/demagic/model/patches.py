# SPDX-License-Identifier: GPL-2.0
"""The series model: git format-patch files parsed once (subject, files, hunks) and the
identifiers each patch retires.  The series writer, verify and the boot suite all read it."""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Dict, List, Optional, Sequence, Set, Tuple

from demagic.core.errors import DemagicError

SUBJECT_RE = re.compile(r"^Subject:\s*(.*(?:\n[ \t].*)*)", re.M)
PATCH_TAG_RE = re.compile(r"^\s*\[[^\]]*\]\s*")
DIFF_RE = re.compile(r"^diff --git a/(\S+) b/(\S+)$")
HUNK_RE = re.compile(r"^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@(.*)$")
MAGIC_RE = re.compile(r"\b([A-Z][A-Z0-9]*(?:_[A-Z0-9]+)*_MAGIC(?:_(?:\{[A-Z0-9_,]+\}|[A-Z0-9]+))*)")
DEFINE_RE = re.compile(r"^\s*#\s*define\s+([A-Za-z_]\w*)")
UNDEF_RE = re.compile(r"^\s*#\s*undef\s+(\w+)")      # a switch turned off
STATIC_RE = re.compile(r"^static\b[^=;({]*?\b([A-Za-z_]\w*)\s*(?:\[[^\]]*\]\s*)*(?:=|;|\()")
MEMBER_RE = re.compile(
    r"^\s+(?!return\b|goto\b|case\b|else\b)[A-Za-z_][\w \t\*]*?[\s\*]"
    r"([A-Za-z_]\w*)\s*(?:\[[^\]]*\]\s*)*(?::\s*\w+\s*)?;\s*(?:/\*.*\*/\s*)?$")
STRUCT_OPEN_RE = re.compile(r"\bstruct\s+([A-Za-z_]\w*)?\s*\{")
TYPEDEF_CLOSE_RE = re.compile(r"^\s*\}\s*([A-Za-z_]\w*)\s*;")
DOC_ROW_RE = re.compile(r"^([A-Z][A-Z0-9_]{2,})\s")
DOC_LABEL_RE = re.compile(r"^\.\. _([A-Za-z0-9_-]+):\s*$")


@dataclass(frozen=True)
class Line:
    """One changed line of a hunk: its tag ('-' or '+'), text and line number."""
    tag: str
    text: str
    number: int   # in the old file for '-', in the new file for '+'


@dataclass(frozen=True)
class Hunk:
    """One hunk as written: its header numbers and its lines with their tags."""
    old_start: int
    new_start: int
    section: str                 # the text after the second @@
    body: Tuple[str, ...]        # ' ', '-', '+' or '\\' then the text


@dataclass(frozen=True)
class FileDiff:
    """The changes to one file."""
    old_path: str
    new_path: str
    created: bool
    deleted: bool
    lines: Tuple[Line, ...]
    header: Tuple[str, ...] = ()     # diff --git, index, ---, +++ ...
    hunks: Tuple[Hunk, ...] = ()

    @property
    def path(self) -> str:
        return self.old_path if self.deleted else self.new_path

    def removed(self) -> List[Line]:
        return [ln for ln in self.lines if ln.tag == "-"]

    def added(self) -> List[Line]:
        return [ln for ln in self.lines if ln.tag == "+"]


@dataclass(frozen=True)
class Patch:
    """One patch of a series."""
    path: Path
    number: int
    subject: str
    files: Tuple[FileDiff, ...]
    head: Tuple[str, ...] = ()    # mail header and message, up to the first diff
    tail: Tuple[str, ...] = ()    # the "-- " signature and after

    @property
    def name(self) -> str:
        return self.path.name

    def paths(self) -> List[str]:
        return [f.path for f in self.files]


@dataclass(frozen=True)
class Removed:
    """An identifier a patch retires: a macro, a static symbol, a struct member, a doc row."""
    kind: str          # macro, static, field, docrow, document, label
    name: str
    file: str          # where it was declared
    struct: str = ""   # for a field: the struct tag (or typedef name)
    typedef: str = ""  # for a field: the typedef name of the struct, if any

    def __str__(self) -> str:
        if self.kind == "field":
            return f"{self.struct}.{self.name}"
        return self.name


@dataclass
class _HunkState:
    old_start: int
    new_start: int
    section: str
    body: List[str] = field(default_factory=list)


@dataclass
class _FileState:
    old: str
    new: str
    created: bool = False
    deleted: bool = False
    lines: List[Line] = field(default_factory=list)
    header: List[str] = field(default_factory=list)
    hunks: List[_HunkState] = field(default_factory=list)


def subject_of(text: str) -> str:
    """The Subject: header, unfolded, without its [PATCH n/m] tag."""
    match = SUBJECT_RE.search(text)
    if not match:
        return ""
    subject = " ".join(match.group(1).split())
    while PATCH_TAG_RE.match(subject):
        subject = PATCH_TAG_RE.sub("", subject, count=1)
    return subject


def magic_names(subject: str) -> Set[str]:
    """The FOO_MAGIC names a subject speaks of; QUEUE_MAGIC_{FREE,USED} gives both."""
    names: Set[str] = set()
    for token in MAGIC_RE.findall(subject):
        brace = re.search(r"\{([A-Z0-9_,]+)\}", token)
        if brace:
            head, tail = token[:brace.start()], token[brace.end():]
            names.update(head + part + tail for part in brace.group(1).split(","))
        else:
            names.add(token)
    return names


def parse_text(text: str, path: Path, number: int = 0) -> Patch:
    """Parse one format-patch (or plain git diff) text; DemagicError when it has no diff
    or a hunk ends before the line counts of its header say."""
    head: List[str] = []
    tail: List[str] = []
    files: List[_FileState] = []
    cur: Optional[_FileState] = None
    hunk: Optional[_HunkState] = None
    old_no = new_no = old_left = new_left = 0
    lines = text.split("\n")
    for at, raw in enumerate(lines):
        if hunk is not None and cur is not None and (old_left > 0 or new_left > 0):
            body = raw if raw else " "    # an empty context line some tools strip
            tag = body[:1]
            if tag == "-":
                cur.lines.append(Line("-", body[1:], old_no))
                old_no, old_left = old_no + 1, old_left - 1
            elif tag == "+":
                cur.lines.append(Line("+", body[1:], new_no))
                new_no, new_left = new_no + 1, new_left - 1
            elif tag == " ":
                old_no, new_no = old_no + 1, new_no + 1
                old_left, new_left = old_left - 1, new_left - 1
            elif tag != "\\":
                raise DemagicError(f"{path.name}: line {at + 1}: the hunk ends before its "
                                   "header's line counts")
            hunk.body.append(body)
            continue
        if hunk is not None and raw.startswith("\\"):
            hunk.body.append(raw)
            continue
        diff = DIFF_RE.match(raw)
        if diff:
            cur = _FileState(diff.group(1), diff.group(2), header=[raw])
            files.append(cur)
            hunk = None
            continue
        if cur is None:
            head.append(raw)
            continue
        match = HUNK_RE.match(raw)
        if match:
            old_no, new_no = int(match.group(1)), int(match.group(3))
            old_left = int(match.group(2)) if match.group(2) is not None else 1
            new_left = int(match.group(4)) if match.group(4) is not None else 1
            hunk = _HunkState(old_no, new_no, match.group(5))
            cur.hunks.append(hunk)
            continue
        if hunk is not None or raw == "-- ":
            tail = lines[at:]    # the mail signature, or the next mail part
            break
        if raw.startswith("new file mode"):
            cur.created = True
        elif raw.startswith("deleted file mode"):
            cur.deleted = True
        cur.header.append(raw)
    if not files:
        raise DemagicError(f"{path.name}: not a patch (no diff --git)")
    if hunk is not None and (old_left > 0 or new_left > 0):
        raise DemagicError(f"{path.name}: the patch ends inside a hunk")
    diffs = tuple(FileDiff(f.old, f.new, f.created, f.deleted, tuple(f.lines), tuple(f.header),
                           tuple(Hunk(h.old_start, h.new_start, h.section, tuple(h.body))
                                 for h in f.hunks))
                  for f in files)
    return Patch(path, number, subject_of(text), diffs, tuple(head), tuple(tail))


def parse_file(path: Path, number: int = 0) -> Patch:
    try:
        text = path.read_text(errors="replace")
    except OSError as exc:
        raise DemagicError(f"{path}: cannot read ({exc.strerror})") from exc
    return parse_text(text, path, number)


def parse_series(paths: Sequence[Path]) -> List[Patch]:
    return [parse_file(p, i + 1) for i, p in enumerate(paths)]


def enclosing_struct(old_lines: Sequence[str], index: int) -> Tuple[str, str]:
    """(struct tag, typedef name) of the struct body holding old_lines[index], or ("", "")."""
    depth = 0
    for i in range(index - 1, -1, -1):
        line = re.sub(r"//.*|/\*.*?\*/", "", old_lines[i])
        depth += line.count("}") - line.count("{")
        if depth < 0:
            match = STRUCT_OPEN_RE.search(line)
            if not match:
                return "", ""
            return match.group(1) or "", _typedef_name(old_lines, i, bool(
                re.search(r"\btypedef\b", line)))
    return "", ""


def _typedef_name(lines: Sequence[str], start: int, is_typedef: bool) -> str:
    if not is_typedef:
        return ""
    depth = 0
    for line in lines[start:]:
        depth += line.count("{") - line.count("}")
        if depth == 0:
            match = TYPEDEF_CLOSE_RE.match(line)
            return match.group(1) if match else ""
    return ""


def _declared_names(lines: Sequence[Line], pattern: re.Pattern[str]) -> Set[str]:
    return {m.group(1) for ln in lines for m in [pattern.match(ln.text)] if m}


def applied(text: str, fdiff: FileDiff) -> str:
    """text (the file before fdiff) with fdiff's hunks applied at their own line numbers."""
    if fdiff.deleted:
        return ""
    lines = text.split("\n") if text else []
    out: List[str] = []
    pos = 0
    for hunk in fdiff.hunks:
        olds = any(b[:1] in (" ", "-") for b in hunk.body)
        start = max(hunk.old_start - 1, 0) if olds else hunk.old_start
        out += lines[pos:start]
        pos = start
        for b in hunk.body:
            if b[:1] == " ":
                out.append(lines[pos])
                pos += 1
            elif b[:1] == "-":
                pos += 1
            elif b[:1] == "+":
                out.append(b[1:])
    return "\n".join(out + lines[pos:])


def removed_in_series(patches: Sequence[Patch], old_text: Callable[[str], str]
                      ) -> List[List[Removed]]:
    """removed_identifiers of each patch, each read against the files as the patches
    before it left them (its hunks' line numbers count in those)."""
    now: Dict[str, str] = {}

    def text(path: str) -> str:
        return now[path] if path in now else old_text(path)

    out = []
    for patch in patches:
        out.append(removed_identifiers(patch, text))
        for fdiff in patch.files:
            now[fdiff.path] = applied("" if fdiff.created else text(fdiff.old_path), fdiff)
    return out


def removed_identifiers(patch: Patch, old_text: Callable[[str], str]) -> List[Removed]:
    """What the patch retires; old_text(path) gives a file before the patch.

    A #define (or #undef) or static symbol counts when no added line declares it again; a
    struct member when it is declared inside a struct body in the old file and
    no added line declares a member of that name; a documentation table row
    (a line of a .rst file that starts with an upper-case identifier) always.
    """
    added = [ln for f in patch.files for ln in f.added()]
    defines_again = _declared_names(added, DEFINE_RE)
    statics_again = _declared_names(added, STATIC_RE)
    members_again = _declared_names(added, MEMBER_RE)
    out: List[Removed] = []
    seen: Set[Tuple[str, str, str]] = set()

    def add(item: Removed) -> None:
        key = (item.kind, item.name, item.struct or item.file)
        if key not in seen:
            seen.add(key)
            out.append(item)

    for fdiff in patch.files:
        if fdiff.deleted and fdiff.path.startswith("Documentation/") and \
                fdiff.path.endswith(".rst"):
            add(Removed("document", fdiff.path[len("Documentation/"):-len(".rst")], fdiff.path))
        old_lines: Optional[List[str]] = None
        is_doc = fdiff.path.endswith(".rst") or fdiff.path.endswith(".txt")
        for ln in fdiff.removed():
            label = DOC_LABEL_RE.match(ln.text) if is_doc else None
            if label:
                add(Removed("label", label.group(1), fdiff.path))
                continue
            if is_doc:
                row = DOC_ROW_RE.match(ln.text)
                if row:
                    add(Removed("docrow", row.group(1), fdiff.path))
                continue
            define = DEFINE_RE.match(ln.text) or UNDEF_RE.match(ln.text)
            if define:
                if define.group(1) not in defines_again:
                    add(Removed("macro", define.group(1), fdiff.path))
                continue
            static = STATIC_RE.match(ln.text)
            if static and static.group(1) not in statics_again:
                add(Removed("static", static.group(1), fdiff.path))
                continue
            member = MEMBER_RE.match(ln.text)
            if member and member.group(1) not in members_again:
                if old_lines is None:
                    old_lines = old_text(fdiff.old_path).split("\n")
                tag, typedef = enclosing_struct(old_lines, ln.number - 1)
                if tag or typedef:
                    add(Removed("field", member.group(1), fdiff.path, tag or typedef, typedef))
    return out


def added_members(patch: Patch) -> Dict[str, Set[str]]:
    """Member names the patch declares, by file (for a layout that swaps one member)."""
    out: Dict[str, Set[str]] = {}
    for fdiff in patch.files:
        names = _declared_names(fdiff.added(), MEMBER_RE)
        if names:
            out[fdiff.path] = names
    return out


def series_digest(paths: Sequence[Path]) -> str:
    """A digest of what a series changes: each numbered patch from its first diff on,
    so that reports made for it can be told from reports made for another (mail
    headers, dates and messages do not count)."""
    digest = hashlib.sha256()
    for path in sorted(paths):
        text = path.read_text(errors="replace")
        at = text.find("\ndiff --git ")
        digest.update(path.name.encode() + b"\0" + text[at + 1 if at >= 0 else len(text):].encode())
    return digest.hexdigest()[:16]
