# SPDX-License-Identifier: GPL-2.0
"""The coverage table: which tests exercise a patch (caught a mutant), or why none can."""

import json
import tempfile
import unittest
from pathlib import Path
from typing import Optional, Sequence

from demagic.model.patches import Patch, parse_text
from demagic.model.reports import CoverageRow, MutantRecord, MutantsReport
from qemu import coverage, probe
from qemu.machines import GuestTest

CHECK = "-\tif (!p || p->magic != X_MAGIC)\n+\tif (!p)\n"
SET_ONLY = "-\tp->magic = X_MAGIC;\n"
SLIP = GuestTest("slip", ("drivers/net/slip/",))
FASYNC = GuestTest("fasync", ("fs/fcntl.c", "include/linux/fs.h"), depth="no signal path")


def patch(body: str, *paths: str, name: str = "0001-x.patch") -> Patch:
    text = "Subject: [PATCH 1/2] x: remove X_MAGIC\n\n---\n"
    for p in paths:
        old = sum(1 for ln in body.splitlines() if ln[:1] in "- ")
        new = sum(1 for ln in body.splitlines() if ln[:1] in "+ ")
        text += f"diff --git a/{p} b/{p}\n--- a/{p}\n+++ b/{p}\n@@ -1,{old} +1,{new} @@\n{body}"
    return parse_text(text, Path(name), 1)


def mutants(name: str, failing: Sequence[str]) -> MutantsReport:
    """The mutants where a mutant of patch name broke each "arch:test[:subtest]" of failing."""
    lost = [tuple(f.split(":")) for f in failing]
    return MutantsReport("d", {"m": MutantRecord([name], [":".join(f[:2]) for f in lost], lost)})


def row(p: Patch, ran: Sequence[coverage.Ran] = (), tree: Path = Path("/nonexistent"),
        muts: Optional[MutantsReport] = None) -> CoverageRow:
    return coverage.row(1, p.name, p, ran, tree, muts)


class RowTest(unittest.TestCase):
    def test_caught_a_mutant(self) -> None:
        p = patch(CHECK, "drivers/net/slip/slip.c", "Documentation/process/magic-number.rst")
        r = row(p, [coverage.Ran(SLIP, "x86_64")], muts=mutants(p.name, ["x86_64:slip"]))
        self.assertEqual(r.tests, ["slip (x86_64)"])
        self.assertEqual(r.ran, [])
        self.assertEqual(r.subject, "x: remove X_MAGIC")

    def test_ran_without_catching_is_not_exercise(self) -> None:
        p = patch(CHECK, "drivers/net/slip/slip.c")
        r = row(p, [coverage.Ran(SLIP, "x86_64")], muts=mutants(p.name, ["i386:apm"]))
        self.assertEqual(r.tests, [])
        self.assertEqual(r.ran, ["slip (x86_64)"])
        self.assertIn("caught no mutant", coverage.note(r))

    def test_no_mutant_run_yet(self) -> None:
        p = patch(CHECK, "drivers/net/slip/slip.c")
        r = row(p, [coverage.Ran(SLIP, "x86_64")])
        self.assertEqual(r.ran, ["slip (x86_64)"])
        self.assertIn("make boot-test-mutant", coverage.note(r))

    def test_mutant_of_another_patch_proves_nothing(self) -> None:
        p = patch(CHECK, "drivers/net/slip/slip.c")
        r = row(p, [coverage.Ran(SLIP, "x86_64")], muts=mutants("0002-y.patch", ["x86_64:slip"]))
        self.assertEqual(r.tests, [])

    def test_both_archs_and_depth(self) -> None:
        p = patch(CHECK, "fs/fcntl.c")
        ran = [coverage.Ran(FASYNC, "x86_64"), coverage.Ran(FASYNC, "i386")]
        r = row(p, ran, muts=mutants(p.name, ["x86_64:fasync", "i386:fasync"]))
        self.assertEqual(r.tests, ["fasync (x86_64)", "fasync (i386)"])
        self.assertIn("no signal path", coverage.note(r))

    def test_the_probe_speaks_only_for_the_modules_it_lost(self) -> None:
        probe_test = GuestTest("probe", ("drivers/net/slip/slip.c", "fs/autofs/inode.c"))
        slip = patch(CHECK, "drivers/net/slip/slip.c", name="0004-slip.patch")
        autofs = patch(CHECK, "fs/autofs/inode.c", name="0018-autofs.patch")
        built = [probe.Outcome("0004-slip.patch", "drivers/net/slip/slip.c", "module", "", "slip"),
                 probe.Outcome("0018-autofs.patch", "fs/autofs/inode.c", "module", "", "autofs4")]
        lost = MutantsReport("d", {"m": MutantRecord(
            ["0004-slip.patch", "0018-autofs.patch"], ["x86_64:probe"],
            [("x86_64", "probe", "slip loads and unloads")])})
        ran = [coverage.Ran(probe_test, "x86_64")]
        self.assertEqual(coverage.row(4, slip.name, slip, ran, Path("/x"), lost, built).tests,
                         ["loading slip (x86_64)"])
        other = coverage.row(18, autofs.name, autofs, ran, Path("/x"), lost, built)
        self.assertEqual((other.tests, other.ran), ([], ["loading autofs4 (x86_64)"]))

    def test_write_only_field(self) -> None:
        p = patch(SET_ONLY, "drivers/net/slip/slip.c")
        r = row(p, [coverage.Ran(SLIP, "x86_64")], muts=mutants(p.name, []))
        self.assertIn("write-only field", coverage.note(r))

    def test_checks_a_retired_switch_never_compiled(self) -> None:
        dead = ("-#undef X_DEBUG\n-#ifdef X_DEBUG\n-\tBUG_ON(p->magic != X_MAGIC);\n"
                "-#endif\n")
        p = patch(dead, "drivers/net/slip/slip.c")
        r = row(p, [coverage.Ran(SLIP, "x86_64")], muts=mutants(p.name, []))
        self.assertIn("never compiled (X_DEBUG is never defined)", coverage.note(r))
        live = patch("-#undef X_DEBUG\n" + CHECK, "drivers/net/slip/slip.c")
        r = row(live, [coverage.Ran(SLIP, "x86_64")], muts=mutants(live.name, []))
        self.assertIn("no checked path reached", coverage.note(r))

    def test_documentation_only(self) -> None:
        r = row(patch(CHECK, "Documentation/process/magic-number.rst"))
        self.assertEqual(r.tests, [])
        self.assertTrue(coverage.note(r).startswith("compile-only: documentation"))

    def test_other_arch(self) -> None:
        r = row(patch(CHECK, "arch/mips/sgi-ip27/ip27-nmi.c"))
        self.assertIn("mips code, an architecture QEMU does not boot here", coverage.note(r))

    def test_unknown_code_is_named(self) -> None:
        r = row(patch(CHECK, "drivers/misc/widget.c"))
        self.assertEqual(coverage.note(r), "compile-only: no guest test runs drivers/misc/widget.c")

    def test_kconfig_bus_and_machine(self) -> None:
        with tempfile.TemporaryDirectory() as tmp:
            tree = Path(tmp)
            (tree / "drivers/net/foo").mkdir(parents=True)
            (tree / "drivers/net/foo/Makefile").write_text(
                "obj-$(CONFIG_FOO) += foo.o\nobj-$(CONFIG_BAR) += bar.o\nbar-y := bar_main.o\n")
            (tree / "drivers/net/foo/Kconfig").write_text(
                "config FOO\n\ttristate \"foo\"\n\tdepends on PCI && NET\n\n"
                "config BAR\n\ttristate \"bar\"\n\tdepends on ARCH_TEGRA\n")
            pci = row(patch(CHECK, "drivers/net/foo/foo.c"), tree=tree)
            self.assertEqual(coverage.note(pci), "compile-only: needs a PCI device QEMU does not emulate (FOO)")
            board = row(patch(CHECK, "drivers/net/foo/bar_main.c"), tree=tree)
            self.assertIn("needs ARCH_TEGRA, a machine QEMU does not boot here (BAR)", coverage.note(board))


class MutantsFileTest(unittest.TestCase):
    def test_other_series_digest_is_ignored(self) -> None:
        with tempfile.TemporaryDirectory() as tmp:
            path = Path(tmp) / "mutants.json"
            path.write_text(json.dumps(mutants("p", ["x86_64:slip"]).to_json()))
            self.assertEqual(MutantsReport.load(path, "d"), mutants("p", ["x86_64:slip"]))
            self.assertIsNone(MutantsReport.load(path, "other"))
            self.assertIsNone(MutantsReport.load(Path(tmp) / "absent.json", "d"))


if __name__ == "__main__":
    unittest.main()
