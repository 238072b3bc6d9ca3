# SPDX-License-Identifier: GPL-2.0
"""The kernel's own tests of what a series touches: kselftests and KUnit suites, found in
the tree by the Kconfig symbols that build the touched objects.

- A kselftest is a script in TEST_PROGS of a selftest directory whose config
  file sets one of those symbols, and that names the symbol's subject as a
  word (CONFIG_L2TP: net/l2tp.sh).  It runs in the guest on the host's own
  userland (bash, iproute2, ping...), shared read-only over 9p as virtme-ng
  does, with the config lines of its directory that the script speaks of.
- A KUnit suite is a *_kunit.c or *_test.c beside a touched file (same
  directory, or its tests/ or kunit/ subdirectory) that names the touched
  file's stem.  Suites are listed with the patch; demagic does not run them.

Both are compared before and after the series, never judged alone: a kernel
built here lacks options a selftest may want, and what it fails either way
says nothing about the series.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Dict, List, Optional, Sequence, Tuple

from demagic.kernel import kconfig
from demagic.kernel.grep import grep_tree
from qemu.machines import GuestTest

SELFTESTS = "tools/testing/selftests"
LIST = "kselftest.list"       # in a kept kernel: "dir script" per line (host paths)
NAME = "kselftest"
# words too common in symbol names to say what a script is about
GENERIC = frozenset({"net", "inet", "ip", "ipv4", "config", "dev", "fs", "core", "mod",
                     "module", "nf", "netfilter", "default", "support", "driver", "drivers"})


@dataclass(frozen=True)
class Selftest:
    directory: str                 # tools/testing/selftests/net
    script: str                    # l2tp.sh
    symbols: Tuple[str, ...]       # the touched objects' symbols its config sets
    paths: Tuple[str, ...]         # the touched files behind those symbols
    config: Tuple[Tuple[str, str], ...]   # the config lines it runs with

    @property
    def name(self) -> str:
        return f"{self.directory[len(SELFTESTS) + 1:]}/{self.script}"


@dataclass(frozen=True)
class KunitSuite:
    path: str        # the suite's source file
    touched: str     # the touched file it names


def _words(text: str) -> set:
    return set(re.findall(r"[a-z0-9]+", text.lower()))


def _test_progs(makefile: Path) -> List[str]:
    if not makefile.is_file():
        return []
    text = makefile.read_text(errors="replace").replace("\\\n", " ")
    return [w for m in re.finditer(r"^TEST_PROGS\s*[:+]?=(.*)$", text, re.M)
            for w in m.group(1).split()]


def discover(tree: Path, symbol_paths: Dict[str, List[str]]) -> List[Selftest]:
    """The kselftests of the touched objects' symbols (CONFIG_X -> touched files)."""
    if not symbol_paths or not (tree / SELFTESTS).is_dir():
        return []
    names = sorted(s[len("CONFIG_"):] for s in symbol_paths)
    hits = grep_tree(tree, ["-l", "-E", rf"^CONFIG_({'|'.join(names)})="], ["*/config"],
                     [SELFTESTS])
    out = []
    for config_file in sorted(hits.split()):
        directory = str(Path(config_file).parent)
        lines = kconfig.parse((tree / config_file).read_text(errors="replace"), config_file)
        mine = [s for s in symbol_paths if s in lines]
        for script in _test_progs(tree / directory / "Makefile"):
            path = tree / directory / script
            if not script.endswith(".sh") or not path.is_file():
                continue
            text = path.read_text(errors="replace")
            words = _words(text)
            about = [s for s in mine if any(w in words for w in _subject(s))]
            if not about:
                continue
            helpers = "".join((tree / directory / h).read_text(errors="replace")
                              for h in re.findall(r"^\s*(?:source|\.)\s+\"?(?:\$\{?\w+\}?/)?"
                                                  r"([\w.-]+\.sh)", text, re.M)
                              if (tree / directory / h).is_file())
            said = words | _words(helpers)
            config = tuple((k, v) for k, v in lines.items()
                           if v != "n" and (k in about or _spoken(k, said)))
            out.append(Selftest(directory, script, tuple(about),
                                tuple(sorted({p for s in about for p in symbol_paths[s]})),
                                config))
    return out


def _subject(symbol: str) -> List[str]:
    """What a symbol is about: its distinctive words (CONFIG_PPPOL2TP -> pppol2tp)."""
    return [w for w in symbol[len("CONFIG_"):].lower().split("_") if w not in GENERIC]


def _spoken(symbol: str, words: set) -> bool:
    """The script speaks of every distinctive word of the symbol (CONFIG_INET_ESP: esp)."""
    subject = _subject(symbol)
    return bool(subject) and all(w in words for w in subject)


def kunit_suites(tree: Path, paths: Sequence[str]) -> List[KunitSuite]:
    """KUnit suites beside the touched C files that name them."""
    out = []
    for path in paths:
        if not path.endswith(".c"):
            continue
        here = (tree / path).parent
        stem = Path(path).stem
        for d in (here, here / "tests", here / "kunit"):
            if not d.is_dir():
                continue
            for src in sorted(d.glob("*.c")):
                if not re.search(r"(_kunit|_test|-test)\.c$", src.name) or src.name == Path(path).name:
                    continue
                text = src.read_text(errors="replace")
                if "kunit" in text.lower() and re.search(rf"\b{re.escape(stem)}\b", text):
                    out.append(KunitSuite(str(src.relative_to(tree)), path))
    return out


# The host's root, read-only, as the guest's 9p tag hostroot (guest/tests/kselftest.sh).
HOST_ROOT = ("-virtfs", "local,path=/,mount_tag=hostroot,security_model=none,readonly=on,"
             "multidevs=remap")
TIMEOUT = 300


def list_text(tests: Sequence[Selftest], root: Path) -> str:
    """The guest's list: host directory, script, name, then the touched files it covers
    (the last field is read only by the host)."""
    return "".join(f"{root / t.directory} {t.script} {t.name} {','.join(t.paths)}\n"
                   for t in tests)


def read_list(path: Path) -> List[Tuple[str, List[str]]]:
    """(name, touched files) of each selftest a kept kernel runs."""
    if not path.is_file():
        return []
    return [(f[2], f[3].split(",")) for f in (line.split() for line in path.read_text().splitlines())
            if len(f) >= 4]


def guest_test(entries: Sequence[Tuple[str, List[str]]]) -> Optional[GuestTest]:
    if not entries:
        return None
    return GuestTest(NAME, tuple(sorted({p for _, paths in entries for p in paths})),
                     devices=HOST_ROOT, compare=True, timeout=TIMEOUT,
                     label="kselftest " + ", ".join(n for n, _ in entries))
