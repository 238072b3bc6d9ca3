# SPDX-License-Identifier: GPL-2.0
"""Why only an object of the struct reaches a check: the warrant a commit message gives.

A check that only takes an error path can go when nothing but an object of
the struct reaches it.  For each check's pointer, where provenance found it
coming from:

- embedded: the address of a struct embedded in another object, or of a
  static one (&wl->wlc->pri_scb): its type is fixed where it is declared, and
  the check can only tell whether the magic has been stored yet;
- container: container_of(), list_entry(), from_timer() and the like of a
  member of the struct;
- private: netdev_priv(dev) or hw->priv, where the driver's own files
  allocate its devices with the struct as their private area;
- slot: a member read (tty->disc_data, file->private_data, sk->sk_user_data)
  that the driver's own files set only to objects of the struct, or to NULL;
  the function that reads it is named when the file registers it in an
  operations table of its own (.receive_buf = slip_receive_buf);
- callers: a parameter of a function that is not exported, when every call
  of it passes a pointer with a warrant of its own (followed DEPTH calls up);
- returned: the result of a function of the same file whose every pointer
  return has one.

A pointer with none of these gets no warrant: the message then says where it
comes from, and no more.  Warrants change no verdict.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import TYPE_CHECKING, Dict, List, Optional, Sequence, Tuple

from demagic.core.prose import and_list
from demagic.kernel.cparse import closing, shortened
from demagic.kernel.grep import Grep
from demagic.kernel.source import Texts, function_body, function_name_at
from demagic.model.candidate import Candidate, Finding, Role, Site
from demagic.scan.evidence.callers import calls, exported, file_object, parameters
from demagic.scan.evidence.provenance import source_of

if TYPE_CHECKING:
    from demagic.scan.evidence import Context

DEPTH = 2
CONTAINER_RX = re.compile(r"^(container_of|list_\w*entry\w*|hlist_\w*entry\w*|rb_entry\w*|"
                          r"from_timer|from_work|from_tasklet)\s*\(")
PRIVATE_RX = re.compile(r"^(netdev_priv|\w+_priv)\s*\(|(?:->|\.)\s*priv$")
DEVICE_ALLOC_RX = (r"\b(\w*alloc\w*(?:netdev|etherdev|candev|_hw|dev)\w*)\s*\(\s*"
                   r"sizeof\s*\(\s*(?:{types})\s*\)")
NULL_RX = re.compile(r"^\(?\s*(NULL|0|\(void\s*\*\)\s*0)\s*\)?$")


class Warrants:
    """The warrants of one candidate's struct, with what they looked up kept for the next."""

    def __init__(self, texts: Texts, grep: Grep, c: Candidate) -> None:
        self.texts, self.grep, self.c = texts, grep, c
        self.types = [f"struct\\s+{re.escape(c.struct)}"] + \
            ([re.escape(c.evidence.typedef)] if c.evidence.typedef else [])
        self.type_rx = re.compile(rf"\b(?:{'|'.join(self.types)})\b")
        self._stores: Dict[Tuple[str, str], Optional[List[Site]]] = {}

    def of(self, site: Site, expr: str, depth: int = DEPTH, typ: str = "") -> Optional[str]:
        """The warrant for expr at site (of C type typ, when known), as a phrase, or None."""
        expr = re.sub(r"\s*(->|\.)\s*", r"\1", " ".join(expr.split()))
        if typ and "*" not in typ and re.search(r"(?:->|\.)\w+$", expr) \
                and self.in_place(site, expr):
            return self.embedded(site, "&" + expr)      # bc->hdrv.magic: a member, in place
        src = source_of(self.texts, site, expr) if re.fullmatch(r"\w+", expr) else expr
        src = re.sub(r"\s*(->|\.)\s*", r"\1", src)
        if not src and site.function and depth > 0 and \
                expr in parameters(self.texts, site.file, site.function, site.line):
            return self.callers(site, expr, depth)
        if not src:
            return None
        src = re.sub(r"^\(\s*(?:struct\s+)?\w+\s*\*\s*\)\s*", "", src)   # a cast
        if src.startswith("&"):
            return self.embedded(site, src)
        m = CONTAINER_RX.match(src)
        if m:
            member = re.split(r"\s*,\s*", src[m.end():closing(src, m.end() - 1)])[-1]
            return f"{shortened(src)}, from the {member} member of a struct {self.c.struct}"
        if PRIVATE_RX.search(src):
            alloc = self.device_alloc(site)
            if alloc:
                return f"{shortened(src)}, and {alloc}"
        slot = re.search(r"(?:->|\.)(\w+)$", src)
        if slot and "(" not in src:
            return self.slot(site, src, slot.group(1))
        accessor = re.match(r"^\w*(?:get|dereference)_(\w+)\s*\([^()]*\)$", src)
        if accessor:                        # rcu_dereference_sk_user_data(sk)
            return self.slot(site, src, accessor.group(1))
        if src != expr and re.fullmatch(r"\w+", src) and depth > 0:
            return self.of(site, src, depth - 1)
        call = re.match(r"^(\w+)\s*\(", src)
        if call and depth > 0:
            returned = self.returns(site.file, call.group(1), depth - 1)
            if returned:
                return f"{shortened(src)}, which returns {returned}"
        return None

    def returns(self, rel: str, function: str, depth: int) -> Optional[str]:
        """The warrant every pointer function (defined in rel) returns shares; NULL and
        error returns aside."""
        code = self.texts.code(rel)
        head = re.search(rf"^\w[^;{{}}]*\b{re.escape(function)}\s*\([^;{{}}]*\)\s*\n?\{{",
                         code, re.M)
        if not head:
            return None
        start, end = function_body(self.texts, rel, code.count("\n", 0, head.end()) + 1)
        if start < 0:
            return None
        found = []
        for m in re.finditer(r"\breturn\s+([^;]+);", code[start:end]):
            value = " ".join(m.group(1).split())
            if NULL_RX.match(value) or value.startswith("ERR_PTR"):
                continue
            line = code.count("\n", 0, start + m.start()) + 1
            w = self.of(Site(rel, line, function), value, depth)
            if w is None:
                return None
            found.append(w)
        unique = list(dict.fromkeys(found))
        return unique[0] if len(unique) == 1 else None

    def in_place(self, site: Site, expr: str) -> bool:
        """The field is reached as expr.field at site (bc->hdrv.magic), not expr->field
        (s->ops->magic, through a pointer member): spatch types both as the struct."""
        lines = self.texts.lines(site.file)
        line = lines[site.line - 1] if 0 < site.line <= len(lines) else ""
        chain = r"\s*".join(re.escape(p) for p in re.split(r"(->|\.)", expr))
        return re.search(rf"{chain}\s*\.\s*{re.escape(self.c.field)}\b", line) is not None

    def embedded(self, site: Site, src: str) -> Optional[str]:
        inner = src[1:].strip()
        if re.fullmatch(r"\w+", inner) and file_object(self.texts, site.file, inner):
            return f"{src}, a static struct {self.c.struct} of {site.file}"
        if re.search(r"(?:->|\.)\w+$", inner):
            setters = and_list(dict.fromkeys(f"{s.function}()" for s in self.c.sets
                                             if s.function))
            return (f"{src}, a struct {self.c.struct} embedded in the object it is taken from, "
                    "so its type is fixed where it is declared; the magic is stored in "
                    f"{setters or 'its setter'}" + self.set_by_operation())
        return None

    def set_by_operation(self) -> str:
        """When the magic is stored only in operations of an ops table, or in functions
        only they call (the object existing before), what the check also told: that one
        of them had run on it."""
        ops: List[Tuple[Site, str]] = []      # each operation and the table that has it
        for s in self.c.sets:
            if not s.function:
                return ""
            table = self.ops_table(s)
            if table:
                ops.append((s, table))
                continue
            callers = [Site(rel, line, function_name_at(self.texts, rel, line))
                       for rel, line, _args in calls(self.texts, self.grep, s.function)]
            tables = [self.ops_table(c) for c in callers]
            if not callers or not all(tables):
                return ""
            ops += zip(callers, tables)
        if not ops:
            return ""
        named = and_list(dict.fromkeys(f"{o.function}()" for o, _t in ops))
        which = and_list(dict.fromkeys(f"{o.function}(), an operation of {t}" for o, t in ops))
        return (f"; that happens only in {which}: until {named} has run on the object, its "
                "magic is not there, so the check also asserted that it had")

    def device_alloc(self, site: Site) -> str:
        """How the driver allocates its devices with the struct as their private area."""
        where = str(Path(site.file).parent)
        rx = DEVICE_ALLOC_RX.format(types="|".join(self.types))
        found = self.grep.ere(rx, ["*.c"], [where], ["-n"]).splitlines()
        if not found:
            return ""
        rel, line, text = found[0].split(":", 2)
        m = re.search(rx, text)
        call = m.group(1) if m else "it"
        return (f"{rel} allocates its devices with a struct {self.c.struct} as their private "
                f"area ({call}(), line {line})")

    def stores(self, site: Site, member: str) -> Optional[List[Site]]:
        """Where the driver's own files (those of site's directory that name the struct)
        store into member; None when one stores something that is not an object of the
        struct, or NULL."""
        where = str(Path(site.file).parent)
        key = (where, member)
        if key in self._stores:
            return self._stores[key]
        rx = (rf"(?:->|\.)\s*{member}\s*=[^=]|\w*(?:assign|set)_{member}\w*\s*\(")
        found = self.grep.ere(rx, ["*.c", "*.h"], [where], ["-n"]).splitlines()
        out: List[Site] = []
        for hit in found:
            rel, line, text = hit.split(":", 2)
            if Path(rel).parent != Path(where) or not self.names_struct(rel):
                continue
            m = re.search(rf"(?:->|\.)\s*{member}\s*=\s*([^;]+);", text) or \
                re.search(rf"_{member}\w*\s*\(\s*[^,]+,\s*([^;]+)\)\s*;", text)
            value = " ".join(m.group(1).split()) if m else ""
            where_site = Site(rel, int(line), function_name_at(self.texts, rel, int(line)))
            if NULL_RX.match(value):
                continue
            if not value or not self.typed(where_site, value):
                self._stores[key] = None
                return None
            out.append(where_site)
        self._stores[key] = out or None
        return self._stores[key]

    def names_struct(self, rel: str) -> bool:
        return self.type_rx.search(self.texts.code(rel)) is not None

    def typed(self, site: Site, value: str) -> bool:
        """value, at site, is a pointer to the struct: a local or parameter declared so."""
        if not re.fullmatch(r"\w+", value) or not site.function:
            return False
        start, end = function_body(self.texts, site.file, site.line)
        code = self.texts.code(site.file)
        head = code[max(0, start - 400):end if end > 0 else len(code)]
        return re.search(rf"(?:{'|'.join(self.types)})\s*\*\s*(?:const\s+)?{re.escape(value)}"
                         r"\s*[;=,)]", head) is not None

    def slot(self, site: Site, src: str, member: str) -> Optional[str]:
        stores = self.stores(site, member)
        if not stores:
            return None
        where = and_list(f"{s.function}()" if s.function else f"line {s.line}"
                         for s in stores[:3])
        files = and_list(dict.fromkeys(s.file for s in stores))
        text = (f"{src}, which {files} set{'s' if ' and ' not in files else ''} only to a "
                f"struct {self.c.struct} (in {where}) or NULL")
        return text

    def ops_table(self, site: Site) -> str:
        """The type of the operations table of site's file that names site's function."""
        if not site.function:
            return ""
        code = self.texts.code(site.file)
        m = re.search(rf"\.\s*\w+\s*=\s*&?\s*{re.escape(site.function)}\s*[,}}\n]", code)
        if not m:
            return ""
        head = re.findall(r"\bstruct\s+(\w+)\s+\w+\s*(?:\[[^\]]*\]\s*)?=\s*\{",
                          code[:m.start()])
        return f"struct {head[-1]}" if head else ""

    def callers(self, site: Site, param: str, depth: int) -> Optional[str]:
        """A parameter: the warrant every call of the function shares, when it is not
        exported and each call has one."""
        function = site.function
        if exported(self.texts, self.grep, function):
            return None
        index = parameters(self.texts, site.file, function, site.line).index(param)
        sites = calls(self.texts, self.grep, function)
        if not sites or len(sites) > 12:
            return None
        found: List[str] = []
        ops: List[str] = []
        for rel, line, args in sites:
            if index >= len(args):
                return None
            at = Site(rel, line, function_name_at(self.texts, rel, line))
            w = self.of(at, args[index], depth - 1)
            if w is None:
                return None
            found.append(re.sub(r"^\w+(?=->)", "", w))    # fp->x and filp->x alike
            ops.append(self.ops_table(at))
        unique = list(dict.fromkeys(found))
        if len(unique) > 2:
            return None
        text = (f"{param}, handed in by the callers of {function}(), each of which passes "
                + " or ".join(unique))
        if len(set(ops)) == 1 and ops[0]:
            text += f"; each caller is an operation of {sites[0][0]}'s {ops[0]}"
        return text


def gather(ctx: "Context", cands: Sequence[Candidate]) -> None:
    """warrants, for the checks that only take an error path, and operations: the
    operations table of the check's file that names the check's function, where its
    pointer is read from a slot."""
    for c in cands:
        if not c.struct:
            continue
        debug = {(s.site.file, s.site.line) for s in c.evidence.shapes if s.role is Role.DEBUG}
        if not debug:
            continue
        w = Warrants(ctx.texts, ctx.texts.grep, c)
        seen = set()
        for site, expr, typ in ctx.bases(c):
            if (site.file, site.line) not in debug or (site.file, site.function, expr) in seen:
                continue
            seen.add((site.file, site.function, expr))
            found = w.of(site, expr, typ=typ)
            if not found:
                continue
            c.evidence.warrants.append(Finding(site, found))
            ops = w.ops_table(site) if "handed in by the callers" not in found else ""
            if ops:
                c.evidence.operations.append(Finding(site, f"{ops} in {site.file}"))


__all__: Sequence[str] = ("Warrants", "gather")
