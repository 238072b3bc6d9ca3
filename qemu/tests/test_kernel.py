# SPDX-License-Identifier: GPL-2.0
"""A kept kernel is reused only when every input it was built from is the same."""

import errno
import tempfile
import unittest
from pathlib import Path
from unittest import mock

from demagic.core.proc import CommandError
from demagic.kernel import kconfig
from demagic.model.series import Series
from qemu import kernel
from qemu.machines import I386, X86_64

BASE = "1" * 40


def series(root: Path, *texts: str) -> Series:
    """A series of one-line changes, each message one of texts."""
    root.mkdir(parents=True, exist_ok=True)
    for i, text in enumerate(texts, 1):
        (root / f"{i:04d}-change.patch").write_text(
            f"Subject: {text}\ndiff --git a/f b/f\n--- a/f\n+++ b/f\n@@ -1 +1 @@\n-a\n+b\n")
    return Series.load(root)


def kept(dest: Path, key: str) -> None:
    dest.mkdir(parents=True)
    (dest / "bzImage").write_bytes(b"image")
    (dest / kernel.RELEASE_FILE).write_text("6.1.0\n")
    (dest / kernel.KEY_FILE).write_text(key + "\n")


class FragmentsTest(unittest.TestCase):
    def test_shipped_fragments_parse(self) -> None:
        for frag in kernel.CONFIGS.rglob("*.config"):
            self.assertTrue(kconfig.parse(frag.read_text(), str(frag)), frag)


class InputsKeyTest(unittest.TestCase):
    def test_same_inputs_same_key(self) -> None:
        with tempfile.TemporaryDirectory() as tmp:
            one = series(Path(tmp) / "a", "patch one\n")
            two = series(Path(tmp) / "b", "patch one\n")
            self.assertEqual(kernel.inputs_key(BASE, one, X86_64),
                             kernel.inputs_key(BASE, two, X86_64))

    def test_each_input_changes_the_key(self) -> None:
        with tempfile.TemporaryDirectory() as tmp:
            one = series(Path(tmp) / "a", "patch one\n")
            other = series(Path(tmp) / "b", "patch one, reworded\n")
            key = kernel.inputs_key(BASE, one, X86_64)
            self.assertNotEqual(key, kernel.inputs_key(BASE, other, X86_64))
            self.assertNotEqual(key, kernel.inputs_key(BASE, None, X86_64))
            self.assertNotEqual(key, kernel.inputs_key("2" * 40, one, X86_64))
            self.assertNotEqual(key, kernel.inputs_key(BASE, one, I386))


class CachedTest(unittest.TestCase):
    def test_hit_and_miss(self) -> None:
        with tempfile.TemporaryDirectory() as tmp:
            dest = Path(tmp) / "x86_64-after"
            kept(dest, "k1")
            hit = kernel.cached(X86_64, dest, "k1")
            assert hit is not None
            self.assertEqual(hit.image, dest / "bzImage")
            self.assertEqual(hit.release, "6.1.0")
            self.assertIsNone(kernel.cached(X86_64, dest, "k2"))

    def test_no_key_is_a_miss(self) -> None:
        with tempfile.TemporaryDirectory() as tmp:
            dest = Path(tmp) / "x86_64-before"
            kept(dest, "k1")
            (dest / kernel.KEY_FILE).unlink()
            self.assertIsNone(kernel.cached(X86_64, dest, "k1"))
            self.assertIsNone(kernel.cached(X86_64, Path(tmp) / "absent", "k1"))


if __name__ == "__main__":
    unittest.main()


class MakeFailsTest(unittest.TestCase):
    def test_a_failed_build_whose_log_finds_no_room_still_names_the_build(self) -> None:
        full = OSError(errno.ENOSPC, "No space left on device")
        failed = CommandError(["make"], 2, "cc1: fatal error: a.o: No space left on device\n")
        with tempfile.TemporaryDirectory() as tmp, \
                mock.patch("qemu.kernel.run", side_effect=failed), \
                mock.patch.object(Path, "write_text", side_effect=full):
            with self.assertRaisesRegex(kernel.BuildError,
                                        r"x86_64 bzImage in .*: make stopped: the disk is full.*"
                                        r"\(the disk had no room for its log .*demagic-build.log\)"):
                kernel._make(Path(tmp), Path(tmp) / "out", X86_64, "bzImage",
                             log=Path(tmp) / "demagic-build.log")
