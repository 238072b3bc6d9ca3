# SPDX-License-Identifier: GPL-2.0
"""The QEMU command line, and the host's timeouts on a stand-in process."""

import sys
import tempfile
import unittest
from pathlib import Path

from demagic.kernel import kconfig
from qemu.tests import test_kernel
from qemu import boot, kernel
from qemu.machines import FLAVOURS, I386, X86_64


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


class FlavourTest(unittest.TestCase):
    def test_debug_kernels_are_their_own(self) -> None:
        plain, debug = FLAVOURS["plain"].archs, FLAVOURS["debug"].archs
        self.assertEqual([a.karch for a in plain], [a.karch for a in debug])
        self.assertFalse({a.name for a in plain} & {a.name for a in debug})
        for arch in debug:
            self.assertIn("debug.config", arch.fragments)
            for name in arch.fragments:
                self.assertTrue((kernel.CONFIGS / name).is_file(), name)
        x86 = kconfig.requested(kernel.fragments(debug[0]))
        self.assertEqual(x86.get("CONFIG_KASAN"), "y")
        self.assertEqual(x86.get("CONFIG_PROVE_LOCKING"), "y")

    def test_debug_guest_has_room_and_time(self) -> None:
        plain = boot.qemu_argv(X86_64, Path("bzImage"), Path("i.cpio"), ["slip"], [])
        arch = FLAVOURS["debug"].archs[0]
        slow = boot.qemu_argv(arch, Path("bzImage"), Path("i.cpio"), ["slip"], [])
        self.assertGreater(int(slow[slow.index("-m") + 1]), int(plain[plain.index("-m") + 1]))
        self.assertIn(f"demagic.timeout={boot.GUEST_TIMEOUT * arch.slowdown}", slow[-1])
        self.assertIn(f"demagic.timeout={boot.GUEST_TIMEOUT}", plain[-1])


class SeriesKernelsTest(unittest.TestCase):
    """A series gets the tests that cover what it touches, and only their settings."""

    def requested(self, arch) -> dict:
        return kconfig.requested(kernel.fragments(arch))

    def test_only_the_covering_tests_and_their_settings(self) -> None:
        flavour = FLAVOURS["plain"].for_files(["drivers/net/slip/slip.c"])
        self.assertEqual([a.name for a in flavour.archs], ["x86_64"])
        (x86,) = flavour.archs
        self.assertEqual([t.name for t in x86.tests], ["slip"])
        wanted = self.requested(x86)
        self.assertEqual(wanted.get("CONFIG_SLIP"), "m")
        for other in ("CONFIG_OCFS2_FS", "CONFIG_L2TP", "CONFIG_AX25", "CONFIG_BLOCK"):
            self.assertNotIn(other, wanted)
        self.assertEqual(kernel.test_modules(x86), [])

    def test_a_shared_header_keeps_both_arches(self) -> None:
        flavour = FLAVOURS["debug"].for_files(["include/linux/fs.h", "fs/coda/psdev.c"])
        self.assertEqual([[t.name for t in a.tests] for a in flavour.archs],
                         [["fasync", "coda"], ["fasync"]])
        self.assertEqual(self.requested(flavour.archs[0]).get("CONFIG_KASAN"), "y")

    def test_the_probe_arch_stays_without_a_test(self) -> None:
        flavour = FLAVOURS["plain"].for_files(["arch/x86/kernel/apm_32.c"])
        self.assertEqual([(a.name, [t.name for t in a.tests]) for a in flavour.archs],
                         [("x86_64", []), ("i386", ["apm"])])
        self.assertEqual(self.requested(flavour.archs[1]).get("CONFIG_APM"), "y")

    def test_a_test_module_comes_with_its_test(self) -> None:
        (x86,) = FLAVOURS["plain"].for_files(["drivers/net/hamradio/hdlcdrv.c"]).archs
        self.assertEqual([d.name for d in kernel.test_modules(x86)], ["hdlcloop"])
        self.assertTrue((kernel.test_modules(x86)[0] / "Kbuild").is_file())

    def test_each_test_alone_asks_for_its_symbols(self) -> None:
        for flavour in FLAVOURS.values():
            for arch in flavour.archs:
                for test in arch.tests:
                    alone = arch.for_files(test.sources)
                    self.assertIn(test, alone.tests)
                    wanted = self.requested(alone)
                    for symbol in test.symbols:
                        self.assertIn(wanted.get(symbol), ("y", "m"), (arch.name, test.name))

    def test_the_kernel_key_follows_the_tests(self) -> None:
        with tempfile.TemporaryDirectory() as tmp:
            series = test_kernel.series(Path(tmp), "x")
            keys = {kernel.inputs_key("base", series, X86_64.for_files(files))
                    for files in (["drivers/net/slip/slip.c"], ["fs/coda/psdev.c"], [])}
        self.assertEqual(len(keys), 3)


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
