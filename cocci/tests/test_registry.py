# SPDX-License-Identifier: GPL-2.0
"""kernel/registry.py: the registry's rows, wherever the tree keeps it."""

from __future__ import annotations

import tempfile
import unittest
from pathlib import Path

from demagic.kernel import registry


TABLE = """\
===================== ================ ======================== ==========================================
Magic Name            Number           Structure                File
===================== ================ ======================== ==========================================
PG_MAGIC              'P'              pg_{read,write}_hdr      ``include/linux/pg.h``
QUEUE_MAGIC_FREE      0xf7e1c9a3       queue_entry              ``drivers/scsi/arm/queue.c``
QUEUE_MAGIC_USED      0xf7e1cc33       queue_entry              ``drivers/scsi/arm/queue.c``
===================== ================ ======================== ==========================================
"""


class RegistryTest(unittest.TestCase):
    OLD = "Documentation/process/magic-number.rst"

    def test_rows_parsed_and_dropped(self) -> None:
        with tempfile.TemporaryDirectory() as tmp:
            top = Path(tmp)
            doc = top / self.OLD
            doc.parent.mkdir(parents=True)
            doc.write_text(TABLE)
            self.assertEqual([e.macro for e in registry.entries(top)],
                             ["PG_MAGIC", "QUEUE_MAGIC_FREE", "QUEUE_MAGIC_USED"])
            self.assertEqual(registry.drop_rows(top, ["QUEUE_MAGIC_FREE", "QUEUE_MAGIC_USED"]),
                             [self.OLD])
            self.assertEqual([e.macro for e in registry.entries(top)], ["PG_MAGIC"])

    def test_found_wherever_the_tree_keeps_it(self) -> None:
        """6.12 moved the registry to Documentation/staging/; translations stay in process/."""
        with tempfile.TemporaryDirectory() as tmp:
            top = Path(tmp)
            paths = ["Documentation/staging/magic-number.rst",
                     "Documentation/translations/sp_SP/process/magic-number.rst",
                     "Documentation/translations/it_IT/process/magic-number.rst"]
            for rel in paths:
                (top / rel).parent.mkdir(parents=True)
                (top / rel).write_text(TABLE)
                (top / rel).with_name("index.rst").write_text("   other\n   magic-number\n")
            self.assertEqual(registry.files(top), [paths[0], paths[2], paths[1]])
            self.assertEqual(registry.drop_rows(top, ["PG_MAGIC"]), [paths[0], paths[2], paths[1]])
            removed = registry.remove_all(top)
            self.assertEqual(sorted(removed), sorted(paths + [str(Path(p).with_name("index.rst"))
                                                              for p in paths]))
            self.assertEqual((top / "Documentation/staging/index.rst").read_text(), "   other\n")

    def test_no_registry(self) -> None:
        with tempfile.TemporaryDirectory() as tmp:
            self.assertEqual(registry.entries(Path(tmp)), [])
            self.assertEqual(registry.files(Path(tmp)), [])


if __name__ == "__main__":
    unittest.main()
