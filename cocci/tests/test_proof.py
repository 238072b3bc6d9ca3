# SPDX-License-Identifier: GPL-2.0
"""The claims of the mails are read from the reports: change a report, and the claim
changes with it."""

from __future__ import annotations

import copy
import unittest

from demagic.model.reports import (BootReport, CheckpatchFinding, Coverage, CoverageRow, Row,
                                   VerifyReport, failed, not_applicable, passed)
from demagic.series import proof


def verify_report() -> VerifyReport:
    coda = Row(8, "0008-coda-remove-CODA_MAGIC.patch", "coda: remove CODA_MAGIC", {
        "applies": passed("git am"), "nothing-left": passed("no reference left"),
        "checkpatch": passed("no error, 1 warnings"),
        "kernel-doc": passed("no warning in 2 files"),
        "builds": passed("2 objects on x86_64, no new warning"),
        "reference": passed("same code vs 003-patch.patch; 3 differences in Documentation"),
    }, [("x86_64", "fs/coda/cnode.o"), ("x86_64", "fs/coda/file.o")], ["x86_64 fs/coda/file.o"],
        [CheckpatchFinding("0008-coda-remove-CODA_MAGIC.patch", 121, "WARNING", "AVOID_BUG",
                           "Do not crash the kernel", "inherited: the line the patch changes "
                           "had it already")])
    docs = Row(20, "0020-Documentation-remove-magic-number.rst.patch",
               "Documentation: remove magic-number.rst", {
                   "applies": passed("git am"), "nothing-left": passed("no reference left"),
                   "checkpatch": passed("no error, 0 warnings"),
                   "kernel-doc": not_applicable("touches no C source or header"),
                   "builds": not_applicable("touches no C or assembly source"),
                   "reference": not_applicable("no upstream counterpart")})
    return VerifyReport("linux-6.12 (6.12.118)", "generated-patches/linux-6.12",
                        "../shared/reference", "full", [], [coda, docs], {}, "d1")


def boot_report() -> BootReport:
    return BootReport("d1", "linux-6.12", True, coverage=[
        CoverageRow(8, "0008-coda-remove-CODA_MAGIC.patch", "coda: remove CODA_MAGIC",
                    Coverage.EXERCISED, ["coda (x86_64)"], [], []),
        CoverageRow(20, "0020-Documentation-remove-magic-number.rst.patch", "",
                    Coverage.COMPILED, [], [], ["documentation only, no code to run"])])


def said(found: proof.Proof) -> str:
    return " ".join(proof.testing(found, "generated-patches/linux-6.12").split())


class Claims(unittest.TestCase):
    def test_a_checkpatch_warning_is_said_with_its_reason_and_goes_with_it(self) -> None:
        report = verify_report()
        text = said(proof.Proof(report, None))
        self.assertIn("08 AVOID_BUG (inherited: the line the patch changes had it already)", text)
        report.rows[0].checkpatch = []
        self.assertIn("checkpatch: no error; no warning.", said(proof.Proof(report, None)))

    def test_a_failed_build_is_no_longer_claimed(self) -> None:
        report = verify_report()
        self.assertIn("08 2 objects on x86_64, 1 of them header users", said(proof.Proof(report, None)))
        report.rows[0].cells["builds"] = failed("does not build after the patch")
        text = said(proof.Proof(report, None))
        self.assertNotIn("08 2 objects", text)
        self.assertIn("08 fail a check (08: builds)", text)

    def test_a_test_that_only_ran_is_not_called_exercised(self) -> None:
        boot = boot_report()
        self.assertIn("exercised (a test fails on a deliberately broken variant of the patch): "
                      "08 coda (x86_64).", said(proof.Proof(None, boot)))
        ran = copy.deepcopy(boot)
        ran.coverage[0].status, ran.coverage[0].tests, ran.coverage[0].ran = \
            Coverage.RAN, [], ["coda (x86_64)"]
        ran.coverage[0].notes = ["no checked path reached"]
        text = said(proof.Proof(None, ran))
        self.assertNotIn("exercised", text)
        self.assertIn("run, but no broken variant was caught: 08 coda (x86_64) (no checked "
                      "path reached)", text)

    def test_what_a_test_did_not_reach_is_said_beside_it(self) -> None:
        boot = boot_report()
        boot.coverage[0].notes = ["register only: the interrupt path never ran"]
        self.assertIn("08 coda (x86_64) (but: register only: the interrupt path never ran)",
                      said(proof.Proof(None, boot)))

    def test_each_patch_carries_its_own_proof(self) -> None:
        found = proof.Proof(verify_report(), boot_report())
        notes = " ".join(" ".join(proof.patch_notes(found, 8)).split())
        self.assertIn("built W=1 with no new warning, before and after it: fs/coda/cnode.o, "
                      "fs/coda/file.o on x86_64 (1 of them other users of a header it changes)",
                      notes)
        self.assertIn("tested in QEMU: coda (x86_64) fails on a broken variant of this patch",
                      notes)
        self.assertIn("not run in QEMU: documentation only",
                      " ".join(proof.patch_notes(found, 20)))
        self.assertEqual(proof.patch_notes(proof.Proof(None, None), 8), [])

    def test_the_reference_series_is_credited_only_where_the_code_is_the_same(self) -> None:
        ref = proof.Reference("[PATCH v3 00/15] magic-number.rst funeral rites", "A. Author",
                              "11 Nov 2022")
        report = verify_report()
        text = " ".join(proof.credit(proof.Proof(report, None, ref)).split())
        self.assertIn("Patch 08 makes the same changes to code as its counterpart there", text)
        self.assertIn("the changes to Documentation of 08 differ", text)
        report.rows[0].cells["reference"] = failed("2 code differences vs 003-patch.patch")
        text = " ".join(proof.credit(proof.Proof(report, None, ref)).split())
        self.assertIn("08 change code differently", text)
        self.assertEqual(proof.credit(proof.Proof(report, None, None)), "")


if __name__ == "__main__":
    unittest.main()
