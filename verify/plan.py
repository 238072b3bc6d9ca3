# SPDX-License-Identifier: GPL-2.0
"""Which objects prove a patch, and on which architecture each is built."""

from __future__ import annotations

import posixpath
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Dict, List, Optional, Sequence, Set, Tuple

from demagic.core.errors import DemagicError
from demagic.core.proc import run
from demagic.kernel.grep import git_has_pcre
from demagic.kernel.kbuild import enabled, object_of
from verify.targets import Target, candidates
from demagic.model.patches import Patch, Removed

# A header-only patch is proved by this many of the sources that include it.
INCLUDERS = 3
# Of the other users of a header a patch changes, this many (the nearest) are built.
HEADER_USERS = 3


@dataclass
class ObjectPlan:
    """The objects of one patch, by architecture, and those no architecture builds."""
    objects: Dict[str, List[str]] = field(default_factory=dict)   # arch name -> objects
    configured_out: List[str] = field(default_factory=list)       # "obj: why"
    sources: List[str] = field(default_factory=list)               # what the patch builds from
    header_users: List[str] = field(default_factory=list)         # of sources, the users of
                                                                   # a changed header
    header_notes: List[str] = field(default_factory=list)         # how they were chosen

    def all(self) -> List[Tuple[str, str]]:
        return [(arch, obj) for arch, objs in self.objects.items() for obj in objs]


class Includes:
    """Which files of a tree #include a header of a given file name: one git grep of every
    #include line of the tree, made on the first question (a whole-tree grep takes
    seconds; a series asks about many headers)."""

    RX = r'^\s*#\s*include\s*[<"]([^>"]*/)?([^>"/]+)[>"]'

    def __init__(self, wt: Path) -> None:
        self.wt = wt
        self._by_name: Optional[Dict[str, Set[str]]] = None

    def of(self, name: str, suffixes: Tuple[str, ...]) -> List[str]:
        """The files (with one of suffixes) with an #include line of a header called name."""
        if self._by_name is None:
            self._by_name = {}
            kind = "-P" if git_has_pcre(self.wt) else "-E"     # the same here; -P ten times faster
            res = run(["git", "-C", str(self.wt), "grep", "-o", kind, "--null", "-H",
                       self.RX, "--", "*.c", "*.S", "*.h"], check=False)
            if res.returncode not in (0, 1):
                raise DemagicError(f"git grep of the #include lines failed: {res.stderr.strip()}")
            line_rx = re.compile(self.RX)
            for line in res.stdout.splitlines():
                path, _, text = line.partition("\0")
                m = line_rx.match(text)
                if m:
                    self._by_name.setdefault(m.group(2), set()).add(path)
        return sorted(f for f in self._by_name.get(name, ()) if f.endswith(suffixes))


def includers(wt: Path, header: str, index: Includes, limit: int = INCLUDERS) -> List[str]:
    """Up to limit C sources that #include header, nearest to it first."""
    base = header.split("/")[-1]
    found = index.of(base, (".c",))
    parts = header.split("/")
    include_path = "/".join(parts[parts.index("include") + 1:]) if "include" in parts else base

    def affinity(src: str) -> Tuple[int, str]:
        text = (wt / src).read_text(errors="replace")
        named = include_path in text
        near = src.startswith("/".join(parts[:-1]) + "/")
        same_arch = parts[0] != "arch" or src.startswith("/".join(parts[:2]) + "/")
        return (0 if near else 1 if (named and same_arch) else 2 if named else 3, src)

    ranked = sorted(found, key=affinity)
    return [src for src in ranked if affinity(src)[0] < 3][:limit]


def sources_of(wt: Path, patch: Patch, index: Includes) -> List[str]:
    """The C and assembly files the patch touches, or includers of its headers."""
    direct = [f.path for f in patch.files if object_of(f.path) and not f.deleted]
    if direct:
        return direct
    out: List[str] = []
    for fdiff in patch.files:
        if fdiff.path.endswith(".h") and not fdiff.deleted:
            out += [s for s in includers(wt, fdiff.path, index) if s not in out]
    return out


INCLUDE_RX = re.compile(r'^\s*#\s*include\s*([<"])([^>"]+)[>"]', re.M)


def includes(src: str, text: str, header: str) -> bool:
    """src (whose text is text) includes header: "x.h" from its own directory, or by
    the header's path below an include/ directory (<asm/sn/x.h>, or <x.h> for one of
    an include directory of its own, such as asm/mach-ip27/)."""
    parts = header.split("/")
    tail = "/".join(parts[parts.index("include") + 1:]) if "include" in parts else ""
    here = src.rsplit("/", 1)[0] if "/" in src else ""
    for kind, name in INCLUDE_RX.findall(text):
        if kind == '"' and posixpath.normpath(posixpath.join(here, name)) == header:
            return True
        if tail and (tail == name or (tail.endswith("/" + name) and kind == "<"
                                      and re.search(r"/mach-[\w-]+/", header))):
            return True
    return False


def header_users(wt: Path, patch: Patch, names: Dict[str, Set[str]], index: Includes,
                 limit: int = HEADER_USERS) -> Tuple[List[str], List[str]]:
    """The C and assembly files the patch does not touch that include a header it
    changes (directly, or through one header) and name what it changed there (the
    struct that loses a member, a removed macro): the limit nearest, and how many there
    are."""
    touched = set(patch.paths())
    anchor = next((f for f in patch.paths() if f.endswith((".c", ".S"))), "")
    names = dict(names)
    for fdiff in patch.files:       # a #define whose value changes (an offset moved)
        if fdiff.path.endswith(".h") and not fdiff.deleted:
            changed = {m.group(1) for ln in fdiff.removed() for m in
                       [re.match(r"^\s*#\s*define\s+(\w+)", ln.text)] if m}
            if changed:
                names[fdiff.path] = names.get(fdiff.path, set()) | changed
    users: List[str] = []
    notes: List[str] = []
    for header, words in sorted(names.items()):
        words = words | embedding((wt / header).read_text(errors="replace"), words)
        word_rx = re.compile(r"\b(?:" + "|".join(re.escape(w) for w in sorted(words)) + r")\b")

        def including(target: str, suffixes: Tuple[str, ...]) -> List[str]:
            return [f for f in index.of(target.rsplit("/", 1)[-1], suffixes)
                    if f != target and includes(f, (wt / f).read_text(errors="replace"), target)]

        def names_it(f: str) -> bool:
            return word_rx.search((wt / f).read_text(errors="replace")) is not None

        direct = including(header, (".c", ".S", ".h"))
        found = {f for f in direct if f.endswith((".c", ".S")) and f not in touched
                 and names_it(f)}
        # through a header that names them: its users that name them too, and its
        # assembly users, which expand its assembler macros
        for inner in (f for f in direct if f.endswith(".h") and names_it(f)):
            found |= {f for f in including(inner, (".c", ".S")) if f not in touched
                      and (f.endswith(".S") or names_it(f))}
        # a global header is near nothing: nearest then means near what the patch changes
        where = anchor if header.startswith("include/") and anchor else header
        near = sorted(found, key=lambda f: (_distance(where, f), f))
        chosen = [f for f in near if f not in users][:limit]
        users += chosen
        if found:
            many = len(found) > 1
            notes.append(f"{header}: {len(found)} other file{'s' if many else ''} "
                         f"include{'' if many else 's'} it (directly or through one header) "
                         f"and name{'' if many else 's'} "
                         f"{', '.join(sorted(words))}; built: "
                         + (f"the {len(chosen)} nearest" if len(chosen) < len(found) else "all")
                         + f" ({', '.join(chosen)})")
    return users, notes


STRUCT_RX = re.compile(r"^(?:typedef\s+)?struct\s+(\w+)\s*\{(.*?)^\}\s*(\w*)", re.M | re.S)


def embedding(text: str, names: Set[str]) -> Set[str]:
    """The structs of a header (text) that embed one of names by value: their layout
    changes with it."""
    out: Set[str] = set()
    for m in STRUCT_RX.finditer(text):
        if m.group(1) in names:
            continue
        if any(re.search(rf"^\s*(?:struct\s+)?{re.escape(n)}\s+\w+\s*(?:\[[^\]]*\])?\s*;",
                         m.group(2), re.M) for n in names):
            out |= {w for w in (m.group(1), m.group(3)) if w}
    return out


def _distance(header: str, src: str) -> int:
    """How far src is from header: directories to climb from the header's to a common one."""
    a, b = header.split("/")[:-1], src.split("/")[:-1]
    common = 0
    while common < min(len(a), len(b)) and a[common] == b[common]:
        common += 1
    return len(a) - common + len(b) - common


def changed_names(removed: Sequence[Removed]) -> Dict[str, Set[str]]:
    """header -> the names a user of it must have to be touched by what a patch removes
    there: the struct that loses a member (and its typedef), the macro.  A member's own
    name (magic) says nothing of which struct a file means."""
    out: Dict[str, Set[str]] = {}
    for item in removed:
        if not item.file.endswith(".h") or item.kind not in ("field", "macro"):
            continue
        words = out.setdefault(item.file, set())
        words |= {w for w in (item.struct, item.typedef) if w} if item.kind == "field" \
            else {item.name}
    return out


def plan(wt: Path, patch: Patch, config_of: Callable[[Target], Dict[str, str]],
         removed: Sequence[Removed] = (), index: Optional[Includes] = None) -> ObjectPlan:
    """Each source's object on the first candidate architecture whose .config builds it;
    the sources are what the patch touches and the nearest users of the headers it
    changes."""
    index = index or Includes(wt)
    users, notes = header_users(wt, patch, changed_names(removed), index)
    direct = sources_of(wt, patch, index)
    users = [u for u in users if u not in direct]
    result = ObjectPlan(sources=direct + users, header_notes=notes)
    for src in result.sources:
        obj = object_of(src)
        assert obj is not None
        reasons = []
        for arch in candidates(src):
            ok, why = enabled(wt, obj, config_of(arch))
            if ok:
                result.objects.setdefault(arch.name, []).append(obj)
                if src in users:
                    result.header_users.append(src)
                break
            reasons.append(f"{arch.name}: {why}")
        else:
            if src in users:      # a header user no configuration builds: said, not failed
                result.header_notes.append(f"{obj}: not built, configured out")
            else:
                result.configured_out.append(f"{obj}: configured out ({'; '.join(reasons)})")
    return result


def union(plans: Sequence[ObjectPlan]) -> Dict[str, List[str]]:
    out: Dict[str, List[str]] = {}
    for item in plans:
        for arch, objs in item.objects.items():
            have = out.setdefault(arch, [])
            have += [o for o in objs if o not in have]
    return out
