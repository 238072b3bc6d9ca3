# SPDX-License-Identifier: GPL-2.0
"""The kernel-doc cell finds the description of a member the patch removed, on trees
whose own kernel-doc does not."""

from __future__ import annotations

import tempfile
import unittest
from pathlib import Path

from demagic.core.errors import DemagicError
from demagic.model.patches import Removed
from demagic.model.reports import Status
from verify import kerneldoc

DOC = ("/**\n * struct foo - a foo\n * @magic: the magic number\n * @len: its length\n */\n"
       "struct foo {\n{member}\tint len;\n}};\n")
GONE = [Removed("field", "magic", "foo.h", "foo")]


def header(member: str) -> str:
    return DOC.replace("{member}", member).replace("}};", "};")


class Orphans(unittest.TestCase):
    def write(self, text: str) -> Path:
        top = Path(tempfile.mkdtemp())
        (top / "foo.h").write_text(text)
        return top

    def test_a_description_left_without_its_member_is_new_and_fails(self) -> None:
        before = kerneldoc.orphans(self.write(header("\tint magic;\n")), ["foo.h"], GONE)
        after = kerneldoc.orphans(self.write(header("")), ["foo.h"], GONE)
        self.assertEqual(before, set())
        self.assertEqual(after, {("foo.h", "warning: struct foo's kernel-doc describes @magic, "
                                           "which it no longer declares")})
        self.assertIs(kerneldoc.cell(["foo.h"], before, after).status, Status.FAIL)

    def test_the_description_gone_with_the_member_passes(self) -> None:
        text = header("").replace(" * @magic: the magic number\n", "")
        self.assertEqual(kerneldoc.orphans(self.write(text), ["foo.h"], GONE), set())

    def test_a_typedef_struct_and_other_structs(self) -> None:
        text = header("").replace("struct foo {", "typedef struct foo {").replace("};", "} foo_t;")
        self.assertEqual(len(kerneldoc.orphans(self.write(text), ["foo.h"], GONE)), 1)
        other = [Removed("field", "magic", "foo.h", "bar")]
        self.assertEqual(kerneldoc.orphans(self.write(header("")), ["foo.h"], other), set())


class Script(unittest.TestCase):
    def test_a_kernel_doc_that_dies_stops_the_check_by_name(self) -> None:
        top = Path(tempfile.mkdtemp())
        (top / "scripts").mkdir()
        (top / "scripts" / "kernel-doc").write_text('print STDERR "a.h:1: warning: x\\n";'
                                                    ' die "cannot parse a.h\\n";\n')
        (top / "a.h").write_text("int a;\n")
        with self.assertRaisesRegex(DemagicError, r"scripts/kernel-doc failed \(exit \d+\) on "
                                                  r"a.h: cannot parse a.h"):
            kerneldoc.warnings(top, ["a.h"])


if __name__ == "__main__":
    unittest.main()
