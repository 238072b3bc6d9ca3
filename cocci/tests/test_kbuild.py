# SPDX-License-Identifier: GPL-2.0
"""Makefile gates and Kconfig dependencies, on a small tree written here."""

from __future__ import annotations

import tempfile
import unittest
from pathlib import Path

from demagic.kernel import kbuild
from demagic.kernel.kbuild import enabled, object_of
from demagic.kernel.kdeps import Reader, need

FILES = {
    "Kconfig": 'source "drivers/Kconfig"\nsource "arch/$(SRCARCH)/Kconfig"\n',
    "arch/x86/Kconfig": "config X86_32\n\tdef_bool y\n\tdepends on !64BIT\n"
                        "config 64BIT\n\tbool \"64-bit\"\n",
    "drivers/Kconfig": 'menuconfig NETDEVICES\n\tbool "Network devices"\n\n'
                       'if NETDEVICES\nsource "drivers/net/Kconfig"\nendif\n'
                       'menu "Buses"\n\tdepends on HAS_BUS\nconfig PCI\n\tbool "PCI"\nendmenu\n'
                       'config HAS_BUS\n\tdef_bool y\n',
    "drivers/net/Kconfig": 'config FOO\n\ttristate "foo"\n\tdepends on PCI || COMPILE_TEST\n'
                           '\tdepends on RFKILL || !RFKILL\n\tselect FOO_LIB\n\thelp\n'
                           '\t  Say Y.\n\n\t  depends on NOTHING_REAL\n'
                           'config FOO_LIB\n\ttristate\n'
                           'config OLD32\n\ttristate "32-bit only"\n\tdepends on X86_32\n'
                           'config RFKILL\n\ttristate "rfkill"\n'
                           'config COMPILE_TEST\n\tbool "compile test"\n'
                           'config ARMONLY\n\ttristate "arm"\n\tdepends on ARM\n',
    "drivers/Makefile": "obj-$(CONFIG_NETDEVICES) += net/\n",
    "drivers/net/Makefile": "obj-$(CONFIG_FOO) += foo.o\nfoo-y := foo_main.o foo_hw.o\n"
                            "obj-$(CONFIG_FOO_LIB) += lib/\nobj-y += always.o\n",
}


class Tree:
    def __enter__(self) -> Path:
        self._tmp = tempfile.TemporaryDirectory()
        root = Path(self._tmp.name)
        for rel, text in FILES.items():
            (root / rel).parent.mkdir(parents=True, exist_ok=True)
            (root / rel).write_text(text)
        return root

    def __exit__(self, *exc: object) -> None:
        self._tmp.cleanup()


class KbuildTest(unittest.TestCase):
    def test_levels_and_module(self) -> None:
        with Tree() as root:
            found = kbuild.levels(root, "drivers/net/foo_hw.o")
            assert found is not None
            self.assertEqual(found[0].alternatives, (("CONFIG_FOO",),))
            self.assertEqual(found[1].alternatives, (("CONFIG_NETDEVICES",),))
            self.assertEqual(kbuild.module_of(root, "drivers/net/foo_hw.o"), "foo")
            self.assertEqual(kbuild.module_of(root, "drivers/net/always.o"), "always")
            self.assertIsNone(kbuild.levels(root, "drivers/net/absent.o"))

    def test_enabled_names_the_gate(self) -> None:
        with Tree() as root:
            on = {"CONFIG_NETDEVICES": "y", "CONFIG_FOO": "m"}
            self.assertEqual(kbuild.enabled(root, "drivers/net/foo_main.o", on), (True, ""))
            ok, why = kbuild.enabled(root, "drivers/net/foo_main.o", {"CONFIG_NETDEVICES": "y"})
            self.assertFalse(ok)
            self.assertIn("needs CONFIG_FOO", why)


class KdepsTest(unittest.TestCase):
    def test_dependencies_inherited_through_if_and_menu(self) -> None:
        with Tree() as root:
            reader = Reader(root, "x86")
            got, unmet = reader.requirements("FOO", "m", {"64BIT": "y"})
            self.assertEqual(unmet, [])
            # PCI chosen over COMPILE_TEST; RFKILL || !RFKILL needs nothing; the menu's
            # HAS_BUS has no prompt and is not asked for; NETDEVICES from the if block
            self.assertEqual(got, {"FOO": "m", "PCI": "y", "NETDEVICES": "y"})

    def test_help_text_is_not_read(self) -> None:
        with Tree() as root:
            self.assertNotIn("NOTHING_REAL", " ".join(Reader(root, "x86").entries["FOO"].depends))

    def test_what_the_arch_cannot_have_is_unmet(self) -> None:
        with Tree() as root:
            reader = Reader(root, "x86")
            _, unmet = reader.requirements("OLD32", "m", {"64BIT": "y"})
            self.assertEqual(unmet, ["X86_32 depends on !64BIT"])
            _, unmet = reader.requirements("ARMONLY", "m", {})
            self.assertEqual(unmet, ["ARMONLY depends on ARM"])
            _, unmet = reader.requirements("NOSUCH", "m", {})
            self.assertEqual(unmet, ["NOSUCH is not an option of x86"])

    def test_need(self) -> None:
        usable = {"A", "B", "C"}.__contains__
        self.assertEqual(need("A && (B || C)", usable, {}), [("A", "m"), ("B", "m")])
        self.assertEqual(need("X || B", usable, {}), [("B", "m")])
        self.assertEqual(need("A=y", usable, {}), [("A", "y")])
        self.assertIsNone(need("X && A", usable, {}))
        self.assertIsNone(need("!A", usable, {"A": "y"}))
        self.assertEqual(need("!A", usable, {}), [])


class EnabledTest(unittest.TestCase):
    def test_object_of(self) -> None:
        self.assertIsNone(object_of("include/linux/fs.h"))
        self.assertEqual(object_of("arch/mips/kernel/head.S"), "arch/mips/kernel/head.o")

    def fake_tree(self, root: Path) -> None:
        (root / "drivers/scsi/arm").mkdir(parents=True)
        (root / "drivers/scsi/Makefile").write_text(
            "obj-$(CONFIG_SCSI_ZALON)\t+= zalon7xx.o\nobj-$(CONFIG_ARM) += arm/\n"
            "zalon7xx-objs\t:= zalon.o \\\n\tncr53c8xx.o\n")
        (root / "drivers/scsi/arm/Makefile").write_text(
            "obj-$(CONFIG_SCSI_CUMANA_2)\t+= cumana_2.o fas216.o queue.o\n")
        (root / "drivers/Makefile").write_text("obj-$(CONFIG_SCSI) += scsi/\n")

    def test_enabled_follows_composites_and_directories(self) -> None:
        with tempfile.TemporaryDirectory() as tmp:
            root = Path(tmp)
            self.fake_tree(root)
            on = {"CONFIG_SCSI": "y", "CONFIG_SCSI_ZALON": "y"}
            self.assertTrue(enabled(root, "drivers/scsi/ncr53c8xx.o", on)[0])
            ok, why = enabled(root, "drivers/scsi/ncr53c8xx.o", {"CONFIG_SCSI": "y"})
            self.assertFalse(ok)
            self.assertIn("CONFIG_SCSI_ZALON", why)
            arm = {"CONFIG_SCSI": "y", "CONFIG_SCSI_CUMANA_2": "m"}
            self.assertFalse(enabled(root, "drivers/scsi/arm/queue.o", arm)[0])
            arm["CONFIG_ARM"] = "y"
            self.assertTrue(enabled(root, "drivers/scsi/arm/queue.o", arm)[0])
            self.assertFalse(enabled(root, "drivers/scsi/arm/nothere.o", arm)[0])


if __name__ == "__main__":
    unittest.main()
