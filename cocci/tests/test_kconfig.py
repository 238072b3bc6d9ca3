# SPDX-License-Identifier: GPL-2.0
"""kernel/kconfig.py reads fragments and .config files, fits fragments to a tree and says
what Kconfig dropped; kernel/build.py refuses a .config that lost a setting."""

import tempfile
import unittest
from pathlib import Path

from demagic.kernel import kconfig
from demagic.kernel.build import Arch, BuildError, checked

FINAL = """#
# Automatically generated file; DO NOT EDIT.
CONFIG_SLIP=m
CONFIG_SLIP_COMPRESSED=y
# CONFIG_IPV6 is not set
CONFIG_LOCALVERSION=""
"""


class ParseTest(unittest.TestCase):
    def test_values(self) -> None:
        opts = kconfig.parse(FINAL)
        self.assertEqual(opts["CONFIG_SLIP"], "m")
        self.assertEqual(opts["CONFIG_IPV6"], "n")
        self.assertEqual(opts["CONFIG_LOCALVERSION"], '""')

    def test_malformed(self) -> None:
        with self.assertRaisesRegex(kconfig.ConfigError, "frag:2"):
            kconfig.parse("CONFIG_A=y\nSLIP=m\n", "frag")


class DroppedTest(unittest.TestCase):
    def test_subset(self) -> None:
        want = {"CONFIG_SLIP": "m", "CONFIG_IPV6": "n", "CONFIG_AX25": "n"}
        self.assertEqual(kconfig.dropped(want, kconfig.parse(FINAL)), [])

    def test_dropped_option(self) -> None:
        want = {"CONFIG_BAYCOM_EPP": "m", "CONFIG_SLIP": "y"}
        self.assertEqual(kconfig.dropped(want, kconfig.parse(FINAL)),
                         ["CONFIG_BAYCOM_EPP=m (got not set)", "CONFIG_SLIP=y (got m)"])

    def test_a_build_refuses_a_config_that_dropped_a_setting(self) -> None:
        with tempfile.TemporaryDirectory() as tmp:
            (Path(tmp) / ".config").write_text(FINAL)
            arch = Arch("x86_64", "x86_64", "x86")
            self.assertEqual(checked(arch, Path(tmp), {"CONFIG_SLIP": "m"})["CONFIG_SLIP"], "m")
            with self.assertRaisesRegex(BuildError, r"^x86_64: Kconfig dropped 1 requested "
                                        r"option\(s\) from .*: CONFIG_BAYCOM_EPP=m \(got not set\)$"):
                checked(arch, Path(tmp), {"CONFIG_BAYCOM_EPP": "m"})


class FitTest(unittest.TestCase):
    def test_a_symbol_the_tree_lacks_is_left_out(self) -> None:
        with tempfile.TemporaryDirectory() as tmp:
            top = Path(tmp)
            (top / "drivers").mkdir()
            (top / "drivers/Kconfig").write_text("config SLIP\n\ttristate \"SLIP\"\n"
                                                 "menuconfig HAMRADIO\n\tbool \"Ham\"\n")
            frag = top / "f.config"
            frag.write_text("CONFIG_SLIP=m\nCONFIG_SYNCLINK_CS=m\n# CONFIG_HAMRADIO is not set\n")
            wanted, left = kconfig.fit(top, [frag], top / "out" / "fitted")
            self.assertEqual(wanted, {"CONFIG_SLIP": "m", "CONFIG_HAMRADIO": "n"})
            self.assertEqual(left, ["CONFIG_SYNCLINK_CS"])
            self.assertEqual((top / "out" / "fitted").read_text(),
                             "CONFIG_SLIP=m\n# CONFIG_HAMRADIO is not set\n")


if __name__ == "__main__":
    unittest.main()
