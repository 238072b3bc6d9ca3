# SPDX-License-Identifier: GPL-2.0
"""The probe's plan: which modules to build and load for a series, and why not the others."""

import tempfile
import unittest
from pathlib import Path

from cocci.tests.test_kbuild import FILES
from demagic.model.patches import parse_text
from qemu import probe, selftests
from qemu.machines import X86_64


def patch(*paths: str):   # type: ignore[no-untyped-def]
    text = "Subject: [PATCH] x\n\n---\n" + "".join(
        f"diff --git a/{p} b/{p}\n--- a/{p}\n+++ b/{p}\n@@ -1,1 +1,0 @@\n-x\n" for p in paths)
    return parse_text(text, Path("0001-x.patch"), 1)


class PlanTest(unittest.TestCase):
    def setUp(self) -> None:
        self._tmp = tempfile.TemporaryDirectory()
        self.root = Path(self._tmp.name)
        for rel, text in FILES.items():
            (self.root / rel).parent.mkdir(parents=True, exist_ok=True)
            (self.root / rel).write_text(text)

    def tearDown(self) -> None:
        self._tmp.cleanup()

    def test_module_with_its_dependencies(self) -> None:
        p = probe.plan([patch("drivers/net/foo_hw.c", "drivers/net/foo.h")], self.root, X86_64,
                       {"CONFIG_64BIT": "y", "CONFIG_NETDEVICES": "y", "CONFIG_PCI": "n"})
        self.assertEqual([(t.path, t.module) for t in p.targets], [("drivers/net/foo_hw.c", "foo")])
        # the arch's own y wins, its "is not set" does not
        self.assertEqual(p.fragment, {"CONFIG_FOO": "m", "CONFIG_PCI": "y"})

    def test_what_cannot_be_built_here_is_said(self) -> None:
        (self.root / "drivers/net/Makefile").write_text(
            "obj-$(CONFIG_OLD32) += old.o\nobj-$(CONFIG_ARMONLY) += arm.o\n")
        p = probe.plan([patch("drivers/net/old.c", "drivers/net/arm.c", "arch/mips/x.c")],
                       self.root, X86_64, {"CONFIG_64BIT": "y"})
        self.assertEqual(p.targets, [])
        self.assertEqual(p.unplanned, {("0001-x.patch", "drivers/net/old.c"): "X86_32 depends on !64BIT",
                                       ("0001-x.patch", "drivers/net/arm.c"): "ARMONLY depends on ARM",
                                       ("0001-x.patch", "arch/mips/x.c"): "mips code"})

    def test_built_reads_the_final_config(self) -> None:
        p = probe.plan([patch("drivers/net/foo_hw.c", "drivers/net/always.c")], self.root, X86_64,
                       {"CONFIG_64BIT": "y"})
        config = self.root / ".config"
        config.write_text("CONFIG_NETDEVICES=y\nCONFIG_FOO=m\n")
        how = [(b.target.path, b.how) for b in probe.built(p, self.root, config)]
        self.assertEqual(how, [("drivers/net/foo_hw.c", "module"),
                               ("drivers/net/always.c", "built-in")])
        self.assertEqual(probe.list_text(probe.built(p, self.root, config)),
                         "foo 0001-x.patch drivers/net/foo_hw.c\n")
        config.write_text("CONFIG_NETDEVICES=y\n")
        gone = probe.built(p, self.root, config)[0]
        self.assertEqual((gone.how, gone.why), ("not built", "drivers/net/foo_hw.o: needs CONFIG_FOO"))



class OwnTestsTest(unittest.TestCase):
    """The kernel's own tests of a touched symbol: found by the selftest config and the
    script's words, never by a name written here."""

    def test_selftest_found_with_the_config_it_speaks_of(self) -> None:
        with tempfile.TemporaryDirectory() as tmp:
            root = Path(tmp)
            d = root / "tools/testing/selftests/net"
            d.mkdir(parents=True)
            (d / "config").write_text("CONFIG_WIDGET=m\nCONFIG_IPV6=y\nCONFIG_VXLAN=m\n"
                                      "CONFIG_NET_NS=y\n")
            (d / "Makefile").write_text("TEST_PROGS := widget.sh other.sh \\\n\tgone.sh\n")
            (d / "widget.sh").write_text("source lib.sh\nip widget add; ping -6 ::1\n")
            (d / "lib.sh").write_text("ns=$1; ip netns add $ns  # sysctl net.ipv6\n")
            (d / "other.sh").write_text("ip link add type vxlan\n")
            found = selftests.discover(root, {"CONFIG_WIDGET": ["drivers/net/widget.c"]})
            self.assertEqual([t.name for t in found], ["net/widget.sh"])
            # IPv6 and namespaces are spoken of (in the script or what it sources), VXLAN not
            self.assertEqual(dict(found[0].config), {"CONFIG_WIDGET": "m", "CONFIG_IPV6": "y",
                                                     "CONFIG_NET_NS": "y"})
            self.assertEqual(found[0].paths, ("drivers/net/widget.c",))
            self.assertEqual(selftests.discover(root, {"CONFIG_OTHER": ["x.c"]}), [])

    def test_kunit_suite_beside_the_file_that_it_names(self) -> None:
        with tempfile.TemporaryDirectory() as tmp:
            root = Path(tmp)
            (root / "lib/tests").mkdir(parents=True)
            (root / "lib/widget.c").write_text("int x;\n")
            (root / "lib/tests/widget_kunit.c").write_text("#include <kunit/test.h>\n/* widget */\n")
            (root / "lib/tests/gadget_kunit.c").write_text("#include <kunit/test.h>\n")
            self.assertEqual(selftests.kunit_suites(root, ["lib/widget.c"]),
                             [selftests.KunitSuite("lib/tests/widget_kunit.c", "lib/widget.c")])


if __name__ == "__main__":
    unittest.main()
