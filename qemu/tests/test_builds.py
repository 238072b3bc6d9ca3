# SPDX-License-Identifier: GPL-2.0
"""qemu/builds.py: each arch's kernel handed on as soon as it is there, kept or built."""

import unittest
from pathlib import Path
from unittest import mock

from qemu import builds
from qemu.machines import I386, X86_64, Flavour
from qemu.tests.test_session import FAKE_TREE, QUIET, fake_build


class BuildKernelsTest(unittest.TestCase):
    """Each arch's kernel is handed on as soon as it is there, kept or built."""

    def run_build(self, kept: set) -> tuple:
        flavour = Flavour("plain", (X86_64, I386))
        events = []
        cached = lambda arch, dest, key: fake_build(arch, "kept") if arch.name in kept else None

        def build(src, out, arch, jobs, dest, key, plan, frag):
            events.append(f"build {arch.name}")
            return fake_build(arch, "built")

        with mock.patch.object(builds.kernel, "inputs_key", return_value="k"), \
                mock.patch.object(builds.kernel, "cached", side_effect=cached), \
                mock.patch.object(builds.kernel, "build", side_effect=build), \
                mock.patch.object(builds.sync, "sync",
                                  side_effect=lambda *a: events.append("sync") or Path("/wt")):
            got = builds.build_kernels(FAKE_TREE, None, "before", 2, QUIET, None, flavour,
                                    ready=lambda b: events.append(f"ready {b.out.name}"))
        return events, [b.out.name for b in got]

    def test_built_and_kept_kernels_in_the_flavours_order(self) -> None:
        events, got = self.run_build(kept={"x86_64"})
        self.assertEqual(events, ["sync", "ready x86_64-kept", "build i386", "ready i386-built"])
        self.assertEqual(got, ["x86_64-kept", "i386-built"])

    def test_nothing_to_build_touches_no_worktree(self) -> None:
        events, _ = self.run_build(kept={"x86_64", "i386"})
        self.assertEqual(events, ["ready x86_64-kept", "ready i386-kept"])


if __name__ == "__main__":
    unittest.main()
