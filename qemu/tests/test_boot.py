# SPDX-License-Identifier: GPL-2.0
"""The QEMU command line, and the host's timeouts on a stand-in process."""

import sys
import tempfile
import unittest
from pathlib import Path

from qemu import boot
from qemu.archs import I386, X86_64


class ArgvTest(unittest.TestCase):
    def test_isolated(self) -> None:
        argv = boot.qemu_argv(X86_64, Path("bzImage"), Path("i.cpio"), ["slip"], [])
        for opt in ("-nodefaults", "-no-reboot"):
            self.assertIn(opt, argv)
        self.assertEqual(argv[argv.index("-nic") + 1], "none")
        self.assertEqual(argv[argv.index("-accel") + 1], "tcg")
        self.assertNotIn("-parallel", argv)
        self.assertIn("demagic.tests=slip", argv[-1])

    def test_devices_and_arch(self) -> None:
        argv = boot.qemu_argv(I386, Path("bzImage"), Path("i.cpio"), ["apm"], ["-parallel", "null"])
        self.assertEqual(argv[0], "qemu-system-i386")
        self.assertEqual(argv[argv.index("-parallel") + 1], "null")


class TimeoutTest(unittest.TestCase):
    def run_fake(self, script: str, cap: float, silence: float) -> boot.BootResult:
        with tempfile.TemporaryDirectory() as tmp:
            log = Path(tmp) / "console.log"
            res = boot.boot([sys.executable, "-c", script], log, cap, silence)
            self.assertTrue(log.read_text().startswith(res.console[:10]))
            return res

    def test_exits(self) -> None:
        res = self.run_fake("print('ok 1 - x')", cap=30, silence=30)
        self.assertEqual(res.timed_out, "")
        self.assertIn("ok 1 - x", res.console)

    def test_silence(self) -> None:
        res = self.run_fake("import time; print('hi', flush=True); time.sleep(30)", 30, 2)
        self.assertIn("no console output", res.timed_out)

    def test_hard_cap(self) -> None:
        script = "import time\nwhile True:\n    print('.', flush=True); time.sleep(0.2)"
        res = self.run_fake(script, cap=2, silence=30)
        self.assertIn("hard cap", res.timed_out)


if __name__ == "__main__":
    unittest.main()
