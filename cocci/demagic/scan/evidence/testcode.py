# SPDX-License-Identifier: GPL-2.0
"""Test code: a check there is the test's own assertion, not a debug check.

Test code is a file named or placed as a test (lib/test_*.c, *_kunit.c,
*_test.c, a tests/ directory, tools/testing/), or one built only under a
Kconfig symbol of a test (TEST or KUNIT in its name, or a prompt that says
it is for testing).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import TYPE_CHECKING, Dict, Optional, Sequence

from demagic.model.candidate import Candidate, Finding
from demagic.kernel.source import Texts

if TYPE_CHECKING:
    from demagic.scan.evidence import Context

PATH_RX = re.compile(r"(?:^|/)(?:test_[^/]*\.c|[^/]*_(?:kunit|test|tests)\.c|tests?/[^/]+"
                     r"|selftests?/.*|kunit/.*)$|^tools/testing/")
SYMBOL_RX = re.compile(r"(?:^|_)(?:TEST|TESTS|KUNIT|SELFTEST)(?:_|$)")
PROMPT_RX = re.compile(r"\btest(?:s|ing)?\b", re.I)
OBJ_RX = r"^\s*obj-\$\((CONFIG_\w+)\)\s*[:+]?=.*\b%s\b"
PART_RX = r"^\s*([\w-]+?)-(?:y|objs|\$\(CONFIG_\w+\))\s*[:+]?=.*\b%s\b"


def kconfig_symbol(texts: Texts, rel: str) -> str:
    """The CONFIG_ symbol that builds rel, from its directory's Makefile ("" if none)."""
    path = Path(rel)
    obj = re.escape(path.stem + ".o")
    make = str(path.parent / "Makefile")
    text = texts.text(make) if texts.exists(make) else ""
    m = re.search(OBJ_RX % obj, text, re.M)
    if m:
        return m.group(1)
    part = re.search(PART_RX % obj, text, re.M)
    if part:
        m = re.search(OBJ_RX % re.escape(part.group(1) + ".o"), text, re.M)
        if m:
            return m.group(1)
    return ""


def prompts(ctx: "Context", symbols: Sequence[str]) -> Dict[str, str]:
    """The prompt of `config SYMBOL` in the tree's Kconfig files (one grep for all)."""
    names = sorted({s[len("CONFIG_"):] for s in symbols if s})
    if not names:
        return {}
    out = ctx.texts.grep.tree(["-h", "-A", "3", "-E",
                               rf"^\s*(menu)?config\s+({'|'.join(names)})\s*$"], ["*Kconfig*"])
    found: Dict[str, str] = {}
    current = ""
    for line in out.splitlines():
        m = re.match(r"^\s*(?:menu)?config\s+(\w+)\s*$", line)
        if m:
            current = m.group(1)
            continue
        m = re.search(r"(?:bool|tristate|prompt)\s+\"([^\"]+)\"", line)
        if m and current and "CONFIG_" + current not in found:
            found["CONFIG_" + current] = m.group(1)
    return found


def why_test(rel: str, symbol: str, prompt: str) -> Optional[str]:
    if PATH_RX.search(rel):
        return f"{rel} is test code"
    if symbol and SYMBOL_RX.search(symbol[len("CONFIG_"):]):
        return f"{rel} is built for {symbol}, a test"
    if symbol and PROMPT_RX.search(prompt):
        return f"{rel} is built for {symbol} \"{prompt}\", a test"
    return None


def gather(ctx: "Context", cands: Sequence[Candidate]) -> None:
    """test_code: each check in test code (the check is the test)."""
    files = sorted({s.file for c in cands for s in c.checks})
    symbols = {f: kconfig_symbol(ctx.texts, f) for f in files}
    prompt = prompts(ctx, list(symbols.values()))
    why = {f: why_test(f, symbols[f], prompt.get(symbols[f], "")) for f in files}
    for c in cands:
        for s in c.checks:
            if why[s.file] and not any(f.site.file == s.file for f in c.evidence.test_code):
                c.evidence.test_code.append(Finding(s, why[s.file] or ""))
