# SPDX-License-Identifier: GPL-2.0
"""The header users verify builds: who includes a header, read from one grep of the tree."""

from __future__ import annotations

import subprocess
import tempfile
import unittest
from pathlib import Path

from verify.plan import Includes, includes

FILES = {
    "include/linux/foo.h": "struct foo {\n\tint magic;\n};\n",
    "drivers/a/a.c": '#include <linux/foo.h>\nint a;\n',
    "drivers/b/b.c": '  #  include "../../include/linux/foo.h"\n',
    "drivers/c/c.S": "#include <linux/foo.h>\n",
    "drivers/d/d.c": "/* #include <linux/foo.h> */\n#include <linux/bar.h>\n",
    "drivers/e/foo.h": "int e;\n",
}


class IncludesTest(unittest.TestCase):
    def setUp(self) -> None:
        self.top = Path(tempfile.mkdtemp())
        for rel, text in FILES.items():
            (self.top / rel).parent.mkdir(parents=True, exist_ok=True)
            (self.top / rel).write_text(text)
        subprocess.run(["git", "init", "-q", str(self.top)], check=True)
        subprocess.run(["git", "-C", str(self.top), "add", "-A"], check=True)

    def test_every_include_line_and_only_those(self) -> None:
        index = Includes(self.top)
        self.assertEqual(index.of("foo.h", (".c", ".S", ".h")),
                         ["drivers/a/a.c", "drivers/b/b.c", "drivers/c/c.S"])
        self.assertEqual(index.of("foo.h", (".c",)), ["drivers/a/a.c", "drivers/b/b.c"])
        self.assertEqual(index.of("bar.h", (".c",)), ["drivers/d/d.c"])

    def test_a_header_of_the_same_name_elsewhere_is_told_apart(self) -> None:
        text = FILES["drivers/b/b.c"]
        self.assertTrue(includes("drivers/b/b.c", text, "include/linux/foo.h"))
        self.assertFalse(includes("drivers/b/b.c", text, "drivers/e/foo.h"))


if __name__ == "__main__":
    unittest.main()
