# SPDX-License-Identifier: GPL-2.0
"""What the boot suite proves of each patch of a series, and why not more.

For each patch: the guest tests that ran over the code it touches, split
by whether they caught a mutant of that patch (a test counts as exercising
a patch only then: make boot-test-mutant writes mutants.json beside the
boot suite's work); a patch that retires a field never compared says so
(no check a test could catch); a patch whose code no kernel here runs says
why, from its Kconfig: an architecture or machine QEMU does not boot here,
a PCI or USB device QEMU does not emulate, or no guest test for it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import List, Optional, Sequence, Set, Tuple

from demagic.kernel.kbuild import levels, object_of
from demagic.model.patches import UNDEF_RE, Patch
from demagic.model.reports import Coverage, CoverageRow, MutantsReport
from demagic.kernel.grep import grep_tree
from qemu import probe
from qemu.machines import GuestTest

DOC_PREFIX = "Documentation/"
PROBE = probe.NAME        # the guest test that loads the series' modules
BOOTED = ("x86",)         # arch/ directories whose code the suite's kernels run
NO_TEST = "no guest test runs "
BUSES = (("PCI", "a PCI device"), ("USB", "a USB device"), ("PCMCIA", "a PC Card"),
         ("BCMA", "a Broadcom bus device"), ("SPI", "an SPI device"), ("I2C", "an I2C device"))


@dataclass(frozen=True)
class Ran:
    """A test a kernel ran, on which arch."""
    test: GuestTest
    arch: str


def proves(lost: Sequence[Tuple[str, ...]], arch: str, test: str, modules: Set[str]) -> bool:
    """Some check of test on arch that a mutant of the patch broke speaks for the patch: any
    check of a test of its own, and of the probe only the loading of one of its modules."""
    for leaf in lost:
        if leaf[:2] != (arch, test):
            continue
        if test != PROBE or (len(leaf) > 2 and leaf[2].split()[0] in modules):
            return True
    return False


def kconfig_reason(tree: Path, files: Sequence[str]) -> str:
    """Why no kernel here runs files: the machine or device their Kconfig needs (a patch
    that is then compile-only)."""
    archs = sorted({f.split("/")[1] for f in files if f.startswith("arch/") and len(f.split("/")) > 2
                    and f.split("/")[1] not in BOOTED})
    symbols = sorted({s for f in files for s in _symbols(tree, f)})
    needs = _depends(tree, symbols)
    if archs:
        return f"{', '.join(archs)} code, an architecture QEMU does not boot here" \
            + (f" ({', '.join(symbols)})" if symbols else "")
    machines = [d for d in list(dict.fromkeys(symbols + needs))
                if re.match(r"ARCH_|SGI_|MACH_|PLAT_|GSC\b|PARISC|ARM\b", d)]
    if machines:
        others = [s for s in symbols if s not in machines]
        return (f"needs {', '.join(machines)}, a machine QEMU does not boot here"
                + (f" ({', '.join(others)})" if others else ""))
    for bus, what in BUSES:
        if bus in needs:
            return f"needs {what} QEMU does not emulate ({', '.join(symbols)})"
    return NO_TEST + ", ".join(files)


def _symbols(tree: Path, path: str) -> List[str]:
    """The CONFIG_ symbols (without the prefix) the object of path is built with."""
    obj = object_of(path)
    found = levels(tree, obj) if obj else None
    for level in found or []:   # the innermost gate that names a symbol
        names = sorted({s[len("CONFIG_"):] for alt in level.alternatives for s in alt})
        if names:
            return names
    return []


def _depends(tree: Path, symbols: Sequence[str]) -> List[str]:
    """The symbols named on the 'depends on' lines of the symbols' Kconfig entries."""
    if not symbols:
        return []
    out = grep_tree(tree, ["-h", "-A", "12", "-E", rf"^\s*config\s+({'|'.join(symbols)})\s*$"],
                    ["*Kconfig*"])
    deps: List[str] = []
    for line in out.splitlines():
        m = re.match(r"^\s*depends on\s+(.*)$", line)
        if m:
            deps += [w for w in re.findall(r"[A-Z][A-Z0-9_]*", m.group(1)) if w not in deps]
        if re.match(r"^\s*(config|menuconfig|endmenu|if|endif)\b", line) and deps:
            break
    return deps


def row(number: int, name: str, patch: Patch, ran: Sequence[Ran], tree: Path,
        mutants: Optional[MutantsReport], built: Sequence[probe.Outcome] = ()) -> CoverageRow:
    code = [f for f in patch.paths() if not f.startswith(DOC_PREFIX)]
    r = CoverageRow(number, name, patch.subject, Coverage.COMPILED)
    if not code:
        r.notes.append("documentation only, no code to run")
        return r
    lost = mutants.caught(name) if mutants is not None else []
    checks = any(CHECK_RX.search(ln.text) for f in patch.files for ln in f.removed())
    switch = dead_switch(patch) if checks else ""
    notes = r.notes
    mine = [b for b in built if b.patch == name]
    modules = {b.module for b in mine if b.how == "module"}
    for run in ran:
        if run.test.covers(code):
            label = f"{run.test.label or run.test.name} ({run.arch})"
            if run.test.name == PROBE:     # it loads the modules: a device is probed only
                loaded = sorted({b.module for b in mine if b.how == "module"})  # if there is one
                label = f"loading {', '.join(loaded) or 'its modules'} ({run.arch})"
            if proves(lost, run.arch, run.test.name, modules):
                r.tests.append(label)
            elif label not in r.ran:
                r.ran.append(label)
            if run.test.depth and run.test.name != PROBE and run.test.depth not in notes:
                notes.append(run.test.depth)
    for b in mine:
        if b.how == "built-in":
            notes.append(f"{b.path} is built in: no module to load")
        elif b.how == "not built" and (r.tests or r.ran):
            notes.append(f"{b.path} not built for the probe ({b.why})")
    r.status = Coverage.EXERCISED if r.tests else Coverage.RAN if r.ran else Coverage.COMPILED
    if r.status is Coverage.COMPILED:
        unplanned = [f"{b.why}" for b in mine if b.how in ("not planned", "not built")]
        reason = kconfig_reason(tree, code)
        if unplanned and reason.startswith(NO_TEST):
            notes += list(dict.fromkeys(unplanned))
        else:
            notes.append(reason)
    elif not checks:
        notes.append("write-only field: no check a test could catch")
    elif switch:
        notes.append(f"the checks it removes were never compiled ({switch} is never "
                     "defined): no variant of it runs differently")
    elif r.ran and mutants is None:
        notes.append("not yet proven by a mutant: run make boot-test-mutant")
    elif r.ran and not r.tests:
        notes.append("no checked path reached")
    return r


CHECK_RX = re.compile(r"[!=]=\s*\(?\w*MAGIC|MAGIC\w*\)?\s*[!=]=")


def dead_switch(patch: Patch) -> str:
    """The switch a patch retires (it removes #undef SYM) when every check it removes sits,
    in its hunk, under #ifdef SYM: code no kernel compiles ("" otherwise)."""
    undefs = {m.group(1) for f in patch.files for ln in f.removed()
              for m in [UNDEF_RE.match(ln.text)] if m}
    if not undefs:
        return ""
    for f in patch.files:
        for hunk in f.hunks:
            stack: List[str] = []
            for line in hunk.body:
                tag, text = line[:1], line[1:]
                m = re.match(r"^\s*#\s*(ifdef|ifndef|if|else|elif|endif)\b\s*(\w*)", text)
                if m and m.group(1) in ("ifdef", "ifndef", "if"):
                    stack.append(m.group(2) if m.group(1) == "ifdef" else "")
                elif m and m.group(1) in ("else", "elif") and stack:
                    stack[-1] = ""
                elif m and m.group(1) == "endif" and stack:
                    stack.pop()
                elif tag == "-" and CHECK_RX.search(text) and not set(stack) & undefs:
                    return ""
    return sorted(undefs)[0]


def table(patches: Sequence[Patch], ran: Sequence[Ran], tree: Path,
          mutants: Optional[MutantsReport], built: Sequence[probe.Outcome] = ()
          ) -> List[CoverageRow]:
    """built: what the probe made of each touched C file."""
    return [row(n, p.name, p, ran, tree, mutants, built) for n, p in enumerate(patches, 1)]


# what the table says before the notes of a row, by how far the tests reached it
PREFIX = {Coverage.EXERCISED: "", Coverage.RAN: "ran, but caught no mutant of this patch: ",
          Coverage.COMPILED: "compile-only: "}


def note(r: CoverageRow) -> str:
    """A row's notes as the tables show them."""
    return PREFIX[r.status] + "; ".join(r.notes) if r.notes else ""


def markdown(rows: Sequence[CoverageRow]) -> str:
    out = ["| patch | tests that exercise it (caught a mutant) | ran over it, caught none | note |",
           "|---|---|---|---|"]
    for r in rows:
        out.append(f"| {r.subject or r.patch} | {', '.join(r.tests) or '-'} | "
                   f"{', '.join(r.ran) or '-'} | {note(r)} |")
    return "\n".join(out) + "\n"


def text(rows: Sequence[CoverageRow]) -> str:
    out = []
    for r in rows:
        what = ", ".join(r.tests) if r.tests else ("ran: " + ", ".join(r.ran) if r.ran else note(r))
        extra = f"  [{note(r)}]" if (r.tests or r.ran) and r.notes else ""
        out.append(f"  {r.patch[:48]:48} {what}{extra}")
    return "\n".join(out) + "\n"
