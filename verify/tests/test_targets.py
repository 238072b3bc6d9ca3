# SPDX-License-Identifier: GPL-2.0
"""verify/targets.py: where code lives."""

from __future__ import annotations

import unittest
from pathlib import Path

from demagic.model import patches as patch
from verify import targets

DATA = Path(__file__).resolve().parent / "test_data"
MODEL_DATA = Path(__file__).resolve().parents[2] / "cocci" / "tests" / "test_data"


def load(name: str) -> patch.Patch:
    return patch.parse_file(MODEL_DATA / name, 3)


class ArchTest(unittest.TestCase):
    def test_candidates(self) -> None:
        self.assertEqual([a.name for a in targets.candidates("arch/x86/kernel/apm_32.c")],
                         ["x86_64", "i386"])
        self.assertEqual([a.name for a in targets.candidates("arch/mips/sgi-ip27/x.c")], ["mips"])
        self.assertEqual(len(targets.candidates("drivers/scsi/ncr53c8xx.c")), len(targets.ARCHES))

    def test_every_arch_has_a_fragment_and_a_defconfig_name(self) -> None:
        for arch in targets.ARCHES:
            for frag in arch.fragments():
                self.assertTrue(frag.is_file(), frag)
                first = frag.read_text().splitlines()[0]
                self.assertEqual(first, "# SPDX-License-Identifier: GPL-2.0")
            self.assertTrue(arch.defconfig.endswith("defconfig"))


if __name__ == "__main__":
    unittest.main()
