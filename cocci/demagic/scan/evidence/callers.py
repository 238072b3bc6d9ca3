# SPDX-License-Identifier: GPL-2.0
"""Where a parameter's object comes from, followed to every caller.

A magic written into an object that the function was handed tells nothing
by itself: whoever calls it chooses the memory.  When the function is not
exported, every caller is in the tree, and each passes the address of an
object of its own file's (a static object or an element of a static table,
`&la_clk`, `&clks[i].periph`, `clks + i`, a local that points into such a table, or a
parameter that its own callers fill the same way), the object is the
code's own: nothing outside the kernel sees it.  Anything else, or a caller
that cannot be read, leaves it unknown.
"""

from __future__ import annotations

import re
from typing import List, Optional, Sequence, Tuple

from demagic.kernel.cparse import closing
from demagic.kernel.grep import Grep
from demagic.kernel.source import Texts, function_name_at, function_start
from demagic.model.candidate import Site

DEPTH = 3          # functions followed up from the one that writes the magic


def parameters(texts: Texts, rel: str, function: str, line: int) -> List[str]:
    """The names of the parameters of function, whose definition holds line of rel."""
    start = function_start(texts, Site(rel, line, function))
    code = texts.code(rel)
    at = code.find("(", texts.offset(rel, start))
    if at < 0:
        return []
    inner = code[at + 1:closing(code, at)]
    return [(re.findall(r"\w+", p) or [""])[-1] for p in _split(inner)]


def _split(args: str) -> List[str]:
    """args split at its top-level commas."""
    out, depth, start = [], 0, 0
    for i, ch in enumerate(args):
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
        elif ch == "," and depth == 0:
            out.append(args[start:i].strip())
            start = i + 1
    out.append(args[start:].strip())
    return [a for a in out if a]


def file_object(texts: Texts, rel: str, name: str) -> bool:
    """name is an object rel defines at file scope (a static, or a table of its own)."""
    return re.search(rf"^(?:static\s+)?(?:const\s+)?(?:struct\s+)?\w+\s+(?:\*\s*)?{re.escape(name)}"
                     rf"\s*(?:\[[^\]]*\]\s*)*(?:=|;)", texts.code(rel), re.M) is not None


def _local_source(texts: Texts, rel: str, line: int, name: str) -> str:
    """What the local name was last set to before line, in its function ("" if nothing)."""
    from demagic.scan.evidence.provenance import source_of
    return source_of(texts, Site(rel, line, function_name_at(texts, rel, line)), name)


def calls(texts: Texts, grep: Grep, function: str) -> List[Tuple[str, int, List[str]]]:
    """(file, line, arguments) of each call of function in the tree's C files."""
    out = []
    listing = grep.tree(["-l", "-w", "-e", function], ["*.c"])
    for rel in listing.split():
        code = texts.code(rel)
        for m in re.finditer(rf"\b{re.escape(function)}\s*\(", code):
            before = code[max(0, code.rfind("\n", 0, m.start()) + 1):m.start()]
            if re.match(r"^\w", before) and not before.startswith(("return", "if")) and \
                    re.search(r"\w[\w\s\*]*$", before) and "=" not in before:
                continue     # the definition or a declaration, not a call
            at = m.end() - 1
            out.append((rel, code.count("\n", 0, m.start()) + 1,
                        _split(code[at + 1:closing(code, at)])))
    return out


def exported(texts: Texts, grep: Grep, function: str) -> bool:
    return bool(grep.tree(["-l", "-E", rf"EXPORT_SYMBOL\w*\(\s*{re.escape(function)}\s*\)"],
                          ["*.c", "*.h"]).strip())


def owner(texts: Texts, grep: Grep, rel: str, line: int, arg: str, depth: int) -> Optional[str]:
    """What arg, passed at line of rel, points into when that is the code's own: the static
    object it names; None when the scan cannot tell."""
    arg = " ".join(arg.split())
    m = re.match(r"^(&)?\s*(\w+)\s*(\[|\+|->|\.|$)", arg)
    if not m:
        return None
    name = m.group(2)
    # &table, &table[i].x, table + i: into an object of the file; &p->x, p: where p points
    if (m.group(1) or m.group(3) in ("[", "+")) and file_object(texts, rel, name):
        return f"{name} in {rel}"
    arg = name
    src = _local_source(texts, rel, line, arg)
    if src:
        return owner(texts, grep, rel, line, src, depth) if src != arg else None
    function = function_name_at(texts, rel, line)
    if function and depth > 0 and arg in parameters(texts, rel, function, line):
        return handed_in_owner(texts, grep, rel, function, line, arg, depth - 1)
    return None


def handed_in_owner(texts: Texts, grep: Grep, rel: str, function: str, line: int, param: str,
                    depth: int = DEPTH) -> Optional[str]:
    """What every caller of function passes for param, when each passes an object of the
    code's own (see the module's text); None when one does not, or cannot be read."""
    params = parameters(texts, rel, function, line)
    if param not in params or exported(texts, grep, function):
        return None
    index = params.index(param)
    owners: List[str] = []
    for crel, cline, args in calls(texts, grep, function):
        if index >= len(args):
            return None
        found = owner(texts, grep, crel, cline, args[index], depth)
        if found is None:
            return None
        owners.append(found)
    if not owners:
        return None
    unique = list(dict.fromkeys(owners))
    more = len(unique) - 1
    return unique[0] + (f" and {more} more static object{'s' if more > 1 else ''}" if more else "")


__all__: Sequence[str] = ("calls", "exported", "file_object", "handed_in_owner", "owner",
                          "parameters")
