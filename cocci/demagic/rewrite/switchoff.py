# SPDX-License-Identifier: GPL-2.0
"""Retire a dead switch with the field it alone compiles (guards.py found it):

- the code under #ifdef SYM goes, its #else branches stay (unifdef -USYM);
- the #undef SYM that kept it off goes;
- a macro that an #else branch defines as a no-op (#define key_check(k) do {} while(0))
  goes, and so does each call of it, a statement of its own.

unifdef does the first: it is the tool the kernel itself used to strip headers for
user space, and it reads #if nesting exactly.  The scan has checked every block
and every call before the judge lets a switch go; here a call that is not a
statement of its own line is an error, never a guess.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import List, Sequence

from demagic.core.errors import DemagicError
from demagic.core.proc import CommandError, run
from demagic.kernel.source import call_alone, strip_comments
from demagic.rewrite.preproc import logical_end


class SwitchError(DemagicError):
    """unifdef failed on a file."""


class NoopUseError(DemagicError):
    """A no-op macro is used where dropping its line would not leave valid code."""


def unifdef(text: str, sym: str, rel: str) -> str:
    """text with #ifdef sym resolved as undefined (unifdef -x 2: exit 0 changed or not)."""
    try:
        res = run(["unifdef", "-x", "2", f"-U{sym}"], input_text=text, check=True)
    except CommandError as exc:
        last = (str(exc).strip().splitlines() or ["no message"])[-1]
        raise SwitchError(f"{rel}: unifdef -U{sym} failed: {last}") from exc
    return res.stdout


def drop_noops(text: str, names: Sequence[str], rel: str, original: str = "") -> str:
    """Remove the #define of each no-op macro of names, and its calls (whole lines).
    original: the file before unifdef, whose line numbers an error names."""
    if not names:
        return text
    alt = "|".join(re.escape(n) for n in names)
    define = re.compile(rf"^\s*#\s*define\s+(?:{alt})\s*\(")
    call = re.compile(rf"^\s*(?P<name>{alt})\s*\(")
    word = re.compile(rf"\b(?:{alt})\b")
    lines = text.splitlines(keepends=True)
    out: List[str] = []
    i = 0
    while i < len(lines):
        line = lines[i]
        if define.match(line):
            i = logical_end(lines, i)
            continue
        m = call.match(line.rstrip("\n"))
        if m and call_alone(lines, i + 1, m.group("name")):
            i += 1
            continue
        if word.search(strip_comments(line)):
            before = (original or text).splitlines(keepends=True)
            no = before.index(line) + 1 if line in before else i + 1
            raise NoopUseError(f"{rel}:{no}: {line.strip()}: a call of a no-op macro that is not "
                              "a statement of its own: dropping its line would change the code")
        out.append(line)
        i += 1
    return "".join(out)


def retire(tree: Path, rels: Sequence[str], sym: str, noops: Sequence[str]) -> None:
    """Retire sym in rels (the files that name it or its no-ops), in place."""
    undef = re.compile(rf"^\s*#\s*undef\s+{re.escape(sym)}\s*(?:/\*.*\*/)?\s*$")
    for rel in rels:
        path = tree / rel
        text = path.read_text(errors="replace")
        new = unifdef(text, sym, rel) if re.search(rf"\b{re.escape(sym)}\b", text) else text
        new = "".join(l for l in new.splitlines(keepends=True) if not undef.match(l))
        new = drop_noops(new, noops, rel, text)
        if new != text:
            path.write_text(new)
