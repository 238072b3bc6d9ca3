# SPDX-License-Identifier: GPL-2.0
"""The caches serve only an identical input: the scan cache (same commit, M=, macros, rules
and code) and the compiler cache (same source and headers)."""

from __future__ import annotations

import os
import tempfile
import unittest
from pathlib import Path
from unittest import mock

from demagic.kernel import tree as trees
from demagic.core import paths
from demagic.core import ccache
from demagic.scan.collect import Scan, Stats
from demagic.judge import scans
from demagic.core.proc import run


class ScanCacheTest(unittest.TestCase):
    def setUp(self) -> None:
        self._tmp = tempfile.TemporaryDirectory()
        os.environ["DEMAGIC_CACHE"] = self._tmp.name
        self.calls = 0

        def fake(root: Path, subdir=None, macros=None, jobs=1, progress=None,  # type: ignore
                 grep=None):
            self.calls += 1
            return Scan([], [], Stats(self.calls, self.calls))
        patcher = mock.patch("demagic.judge.scans.judged", side_effect=fake)
        patcher.start()
        self.addCleanup(patcher.stop)

    def tearDown(self) -> None:
        os.environ.pop("DEMAGIC_CACHE", None)
        self._tmp.cleanup()

    def test_same_scan_is_served_from_the_cache(self) -> None:
        first = scans.cached("a" * 40, Path("/t"))
        again = scans.cached("a" * 40, Path("/t"))
        self.assertEqual(self.calls, 1)
        self.assertEqual(again.stats.listed, first.stats.listed)

    def test_each_input_misses(self) -> None:
        scans.cached("a" * 40, Path("/t"))
        scans.cached("b" * 40, Path("/t"))                 # another commit: a changed file
        scans.cached("a" * 40, Path("/t"), "drivers")      # M=
        scans.cached("a" * 40, Path("/t"), None, ["X_MAGIC"])
        self.assertEqual(self.calls, 4)

    def test_a_changed_rule_or_line_of_code_misses(self) -> None:
        with tempfile.TemporaryDirectory() as tmp:
            code = Path(tmp)
            (code / "find_magic.cocci").write_text("@r@\n@@\n")
            (code / "tests").mkdir()
            with mock.patch.object(scans, "COCCI", code):
                scans.code_digest.cache_clear()
                one = scans.key("a" * 40, None, None)
                (code / "tests" / "case.c").write_text("int x;\n")     # tests do not count
                scans.code_digest.cache_clear()
                self.assertEqual(scans.key("a" * 40, None, None), one)
                (code / "find_magic.cocci").write_text("@r@\n@@\n// changed\n")
                scans.code_digest.cache_clear()
                self.assertNotEqual(scans.key("a" * 40, None, None), one)
            scans.code_digest.cache_clear()

    def test_a_damaged_entry_is_made_again(self) -> None:
        scans.cached("a" * 40, Path("/t"))
        for entry in (Path(self._tmp.name) / "scan").iterdir():
            entry.write_bytes(b"not a pickle")
        scans.cached("a" * 40, Path("/t"))
        self.assertEqual(self.calls, 2)


if __name__ == "__main__":
    unittest.main()


class BenchCompareTest(unittest.TestCase):
    """make bench compares the series each design writes: only the output directory the
    cover letter names may differ."""

    def test_only_the_output_directory_may_differ(self) -> None:
        from demagic.cli import bench
        with tempfile.TemporaryDirectory() as tmp:
            a, b = Path(tmp) / "t-sequential", Path(tmp) / "t-parallel"
            for d in (a, b):
                d.mkdir()
                (d / "0000-cover-letter.patch").write_text(
                    f"make verify SERIES=out/{d.name} and make\nboot-test\n")
                (d / "0001-x.patch").write_text("-\tp->magic = FOO_MAGIC;\n")
            self.assertTrue(bench._same(a, b))
            (b / "0001-x.patch").write_text("-\tp->magic  = FOO_MAGIC;\n")
            self.assertFalse(bench._same(a, b))      # a patch is compared byte for byte
            (b / "0001-x.patch").write_text("-\tp->magic = FOO_MAGIC;\n+\n")
            self.assertFalse(bench._same(a, b))

    def test_the_runs_of_a_tree_hold_its_lock(self) -> None:
        """bench's spatch runs use the tree's work copy, shared by every command."""
        import fcntl
        from demagic.cli import bench
        held = []

        def probe(name: str, *_: object) -> list:
            fd = os.open(paths.BUILD / "locks" / f"{name}.lock", os.O_RDWR)
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                held.append(False)
            except BlockingIOError:
                held.append(True)
            finally:
                os.close(fd)
            return []
        with tempfile.TemporaryDirectory() as tmp, \
                mock.patch.object(paths, "BUILD", Path(tmp)), \
                mock.patch.object(trees, "_source", return_value=(None, "linux-6.1", "i")), \
                mock.patch.object(trees, "_ready", return_value=True), \
                mock.patch.object(trees, "pristine"), \
                mock.patch.object(bench, "bench_tree", side_effect=probe), \
                mock.patch.object(bench, "bench_scan", side_effect=lambda *a: probe(*a) or ""), \
                mock.patch("sys.stdout"):
            bench.main(["--tree", "linux-6.1", "--jobs", "1"])
        self.assertEqual(held, [True, True])


@unittest.skipUnless(ccache.available(), "ccache is not installed")
class CompilerCacheTest(unittest.TestCase):
    """The kernel builds' ccache, as kbuild calls gcc (-Wp,-MMD): a hit only for the same
    source and headers, and then the very object a compile gives."""

    def setUp(self) -> None:
        tmp = tempfile.TemporaryDirectory()
        self.addCleanup(tmp.cleanup)
        self.dir = Path(tmp.name)
        patcher = mock.patch.dict(os.environ, {"DEMAGIC_CCACHE": str(self.dir / "cache")})
        patcher.start()
        self.addCleanup(patcher.stop)
        (self.dir / "foo.h").write_text("#define MAGIC 0x4242\n")
        (self.dir / "foo.c").write_text('#include "foo.h"\nint magic(void) { return MAGIC; }\n')

    def compile(self, out: str) -> bytes:
        run(["ccache", "gcc", "-O2", "-Wp,-MMD,.foo.o.d", "-c", "-o", out, "foo.c"],
            cwd=self.dir, env=ccache.env())
        return (self.dir / out).read_bytes()

    def hits(self) -> int:
        res = run(["ccache", "--print-stats"], env=ccache.env())
        stats = dict(line.split("\t") for line in res.stdout.splitlines() if "\t" in line)
        return int(stats.get("direct_cache_hit", 0)) + int(stats.get("preprocessed_cache_hit", 0))

    def test_a_changed_header_misses_and_the_same_one_hits(self) -> None:
        first = self.compile("a.o")
        self.assertEqual(self.hits(), 0)
        self.assertEqual(self.compile("b.o"), first)
        self.assertEqual(self.hits(), 1)
        (self.dir / "foo.h").write_text("#define MAGIC 0x4243\n")
        changed = self.compile("c.o")
        self.assertEqual(self.hits(), 1)
        self.assertNotEqual(changed, first)
        self.assertEqual(ccache.env()["CCACHE_DEPEND"], "1")
        self.assertEqual(ccache.env()["CCACHE_INODECACHE"], "1")

    def test_a_header_rewritten_in_place_misses(self) -> None:
        """The inode cache keys a file's hash on its inode and times: a header rewritten
        with the same size, keeping its inode, is hashed again."""
        first = self.compile("a.o")
        header = self.dir / "foo.h"
        with open(header, "r+") as f:
            f.write("#define MAGIC 0x4343\n")
        self.assertNotEqual(self.compile("b.o"), first)
        self.assertEqual(self.hits(), 0)
