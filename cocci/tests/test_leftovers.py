# SPDX-License-Identifier: GPL-2.0
"""kernel/leftovers.py: what counts as a reference left to what a patch retired."""

from __future__ import annotations

import unittest
from pathlib import Path

from demagic.kernel import leftovers
from demagic.model import patches as patch


DELETE_DOC = """Subject: [PATCH] Documentation: remove foo.rst

diff --git a/Documentation/process/foo.rst b/Documentation/process/foo.rst
deleted file mode 100644
index 1111111..0000000
--- a/Documentation/process/foo.rst
+++ /dev/null
@@ -1,3 +0,0 @@
-.. _foolabel:
-
-FOO_MAGIC   0x1   foo   ``foo.c``
"""


class LeftoversTest(unittest.TestCase):
    def test_deleted_document_label_and_row(self) -> None:
        doc = patch.parse_text(DELETE_DOC, Path("d.patch"))
        got = {(r.kind, r.name) for r in patch.removed_identifiers(doc, lambda p: "")}
        self.assertEqual(got, {("document", "process/foo"), ("label", "foolabel"),
                               ("docrow", "FOO_MAGIC")})

    def test_document_and_label_references(self) -> None:
        doc = patch.parse_text(DELETE_DOC, Path("d.patch"))
        removed = {r.kind: r for r in patch.removed_identifiers(doc, lambda p: "")}
        hits = [("Documentation/process/index.rst", 3, "   foo"),
                ("Documentation/process/index.rst", 4, "   foobar"),
                ("Documentation/x.rst", 9, "see :ref:`the rules <foolabel>`"),
                ("Documentation/y.rst", 2, "see Documentation/process/foo.rst"),
                ("Documentation/translations/it_IT/process/foo.rst", 1, "FOO_MAGIC  0x1")]
        self.assertEqual(len(leftovers.document_hits(hits, removed["document"])), 2)
        self.assertEqual(len(leftovers.label_hits(hits, removed["label"])), 1)
        self.assertEqual(len(leftovers.docrow_hits(hits, removed["docrow"])), 1)
        self.assertEqual(leftovers.label_hits(hits[:2], removed["label"]), [])

    def test_local_macro_searched_in_its_file_only(self) -> None:
        item = patch.Removed("macro", "DEBUG", "drivers/a.c")
        hits = [("drivers/a.c", 1, "#ifdef DEBUG"), ("drivers/b.c", 1, "#define DEBUG 1")]
        self.assertEqual(leftovers.macro_hits(hits, item), ["drivers/a.c:1: #ifdef DEBUG"])
        self.assertEqual(len(leftovers.macro_hits(hits[:1] + [("x.S", 2, "DEBUG")], item)), 2)

    def test_typed_names(self) -> None:
        text = ("static int f(struct foo_state *fs, const struct foo_state *const g)\n"
                "{ kern_vars_t *kvp; struct other *o; }\n")
        self.assertEqual(leftovers.typed_names(text, "foo_state", ""), {"fs", "g"})
        self.assertEqual(leftovers.typed_names(text, "kern_vars_s", "kern_vars_t"), {"kvp"})


if __name__ == "__main__":
    unittest.main()
