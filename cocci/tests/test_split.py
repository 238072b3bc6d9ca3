# SPDX-License-Identifier: GPL-2.0
"""Unit tests of make spatch SPLIT=1: the patches grouped by the tree MAINTAINERS names
(a fake get_maintainer.pl: the subprocess boundary is mocked), the group names, and OUT
written whole.  No kernel tree, no Coccinelle."""

from __future__ import annotations

import io
import re
import shutil
import subprocess
import tempfile
import unittest
from contextlib import redirect_stdout
from pathlib import Path
from typing import Dict, List, Optional, Sequence
from unittest import mock

from demagic.core.errors import DemagicError, UsageError
from demagic.kernel.tree import Tree
from demagic.model.candidate import Verdict
from demagic.series import mail as export, split
from demagic.series.build import Built, Written
from demagic.series.write import Entry

NET = "git://git.kernel.org/pub/scm/linux/kernel/git/netdev/net-next.git"
VFS = "https://git.kernel.org/pub/scm/linux/kernel/git/vfs/vfs.git"
DOCS = "git://git.lwn.net/linux.git"
# what the fake MAINTAINERS says: a path and its T: line; the documentation's first, as
# get_maintainer.pl lists it first for a patch that also drops a registry row
TREES = {"Documentation/": f"git {DOCS} docs-next", "drivers/net/": f"git {NET}",
         "fs/": f"git {VFS} vfs.all"}
ROW = "Documentation/staging/magic-number.rst"


def diff(path: str) -> str:
    return (f"diff --git a/{path} b/{path}\n--- a/{path}\n+++ b/{path}\n"
            "@@ -1,2 +1,1 @@\n-#define X 1\n int a;\n")


def fake_get_maintainer(cmd: Sequence[str], **_kw: object) -> "subprocess.CompletedProcess[str]":
    """get_maintainer.pl --scm on the patch file named last: an address, then the T: lines
    of every path of TREES the patch changes."""
    assert "--scm" in cmd, cmd
    files = re.findall(r"(?m)^diff --git a/(\S+)", Path(cmd[-1]).read_text())
    lines = ["Some One <one@example.org> (maintainer:SOMETHING)"]
    lines += [t for prefix, t in TREES.items() if any(f.startswith(prefix) for f in files)]
    return subprocess.CompletedProcess(list(cmd), 0, "\n".join(lines) + "\n", "")


class Kernel:
    """A kernel top with a get_maintainer.pl (for its options) and patch files."""

    def __init__(self) -> None:
        self.top = Path(tempfile.mkdtemp(prefix="demagic-split-test-"))
        (self.top / "scripts").mkdir()
        (self.top / "scripts" / "get_maintainer.pl").write_text("'git!' => \\$email_git,\n")
        self.count = 0

    def patch(self, macro: str, *paths: str, where: Optional[Path] = None) -> Written:
        """A numbered patch retiring macro, changing paths."""
        self.count += 1
        path = (where or self.top) / f"{self.count:04d}-remove-{macro}.patch"
        path.write_text(f"From: x\nSubject: [PATCH {self.count:02d}/09] x: remove {macro}\n\n"
                        "body\n---\n" + "".join(diff(p) for p in paths))
        return Written(path, Entry((macro,), Verdict.REMOVE, []))


def layout(groups: Sequence[split.Group]) -> Dict[str, List[str]]:
    return {g.name: [m for w in g.patches for m in w.entry.macros] for g in groups}


class GroupTest(unittest.TestCase):
    """Each patch goes where MAINTAINERS' first T: for its code says."""

    def setUp(self) -> None:
        self.k = Kernel()

    def tearDown(self) -> None:
        shutil.rmtree(self.k.top)

    def grouped(self, patches: Sequence[Written]) -> List[split.Group]:
        with mock.patch.object(export, "run", side_effect=fake_get_maintainer):
            return split.grouped(self.k.top, patches, 2)

    def test_two_trees_give_two_groups(self) -> None:
        patches = [self.k.patch("A_MAGIC", "drivers/net/a.c", ROW),
                   self.k.patch("B_MAGIC", "fs/b.c", ROW),
                   self.k.patch("C_MAGIC", "drivers/net/c.h", "drivers/net/c.c")]
        groups = self.grouped(patches)
        self.assertEqual(layout(groups), {"net-next": ["A_MAGIC", "C_MAGIC"],
                                          "vfs": ["B_MAGIC"]})
        self.assertEqual([g.url for g in groups], [NET, VFS])

    def test_a_documentation_only_patch_goes_to_its_own_tree(self) -> None:
        patches = [self.k.patch("A_MAGIC", "drivers/net/a.c", ROW),
                   self.k.patch("PG_MAGIC", ROW, "Documentation/translations/it_IT/m.rst")]
        self.assertEqual(layout(self.grouped(patches)), {"net-next": ["A_MAGIC"],
                                                         "linux": ["PG_MAGIC"]})

    def test_files_no_tree_covers_go_to_no_tree(self) -> None:
        patches = [self.k.patch("A_MAGIC", "arch/foo/a.c", ROW),
                   self.k.patch("B_MAGIC", "fs/b.c")]
        self.assertEqual(layout(self.grouped(patches)), {"no-tree": ["A_MAGIC"],
                                                         "vfs": ["B_MAGIC"]})

    def test_the_registry_removal_is_in_no_group(self) -> None:
        removal = self.k.patch("unused", ROW)
        removal = Written(removal.path, Entry((), Verdict.KEEP, [], registry=ROW))
        patches = [self.k.patch("B_MAGIC", "fs/b.c"), removal]
        self.assertEqual(layout(self.grouped(patches)), {"vfs": ["B_MAGIC"]})

    def test_a_failing_script_stops_the_run_naming_the_patch(self) -> None:
        patches = [self.k.patch("A_MAGIC", "drivers/net/a.c"),
                   self.k.patch("B_MAGIC", "fs/b.c")]
        failed = subprocess.CompletedProcess([], 2, "", "Unknown option: scm\nmore\n")
        with mock.patch.object(export, "run", return_value=failed):
            with self.assertRaisesRegex(DemagicError, r"^scripts/get_maintainer.pl failed on "
                                                      r"0001-remove-A_MAGIC.patch \(exit 2\): "
                                                      r"Unknown option: scm$"):
                split.grouped(self.k.top, patches[:1], 1)

    def test_first_tree_is_the_first_git_line(self) -> None:
        self.assertEqual(split.first_tree("a <a@b.org> (maintainer:X)\nquilt http://q/\n"
                                          f"git {NET}\ngit {VFS} vfs.all\n"), NET)
        self.assertEqual(split.first_tree("a <a@b.org> (maintainer:X)\n"), "")


class NamesTest(unittest.TestCase):
    def test_the_last_part_without_git(self) -> None:
        self.assertEqual(split.names([NET, VFS, ""]),
                         {NET: "net-next", VFS: "vfs", "": "no-tree"})

    def test_names_that_collide_take_the_parts_before(self) -> None:
        clk = "git://git.kernel.org/pub/scm/linux/kernel/git/clk/linux.git"
        torvalds = "git://git.kernel.org/pub/scm/linux/kernel/git/torvalds/linux.git"
        self.assertEqual(split.names([clk, NET, torvalds, DOCS]),
                         {clk: "clk-linux", NET: "net-next", torvalds: "torvalds-linux",
                          DOCS: "git.lwn.net-linux"})

    def test_the_same_path_twice_is_numbered(self) -> None:
        https = NET.replace("git://", "https://")
        self.assertEqual(list(split.names([NET, https]).values()),
                         ["git.kernel.org-pub-scm-linux-kernel-git-netdev-net-next",
                          "git.kernel.org-pub-scm-linux-kernel-git-netdev-net-next-2"])


class SplitTest(unittest.TestCase):
    """split(): the whole series, then one per group in OUT/<group>/, OUT swapped in whole."""

    PLAN = {"A_MAGIC": ("drivers/net/a.c", ROW), "B_MAGIC": ("fs/b.c", ROW),
            "C_MAGIC": ("drivers/net/c.c",), "PG_MAGIC": (ROW,)}

    def setUp(self) -> None:
        self.k = Kernel()
        self.tmp = Path(tempfile.mkdtemp(prefix="demagic-split-out-"))
        self.out = self.tmp / "out"
        self.calls: List[Dict[str, object]] = []
        self.fail_on = ""
        self.short = False      # a group's series leaves out all but its first patch

    def tearDown(self) -> None:
        shutil.rmtree(self.k.top)
        shutil.rmtree(self.tmp)

    def fake_build(self, kdir: Optional[Path], out: Path, targets: Sequence[str], *_a: object,
                   reports: Optional[Path] = None, registry_last: bool = True) -> Built:
        """build(): a patch per target (every one of PLAN without targets) in out."""
        self.calls.append({"out": out, "targets": list(targets), "reports": reports,
                           "registry_last": registry_last})
        if self.fail_on and self.fail_on in targets:
            raise DemagicError(f"checkpatch.pl errors on {self.fail_on}")
        out.mkdir(parents=True, exist_ok=True)
        for old in out.glob("*.patch"):
            old.unlink()
        self.k.count = 0
        made = [self.k.patch(m, *self.PLAN[m], where=out) for m in targets or self.PLAN]
        return Built(out, made[:1] if self.short and targets else made)

    def run_split(self) -> List[split.Group]:
        tree = Tree("linux-6.12", self.k.top, "HEAD", "6.12.0", False)
        asked = split.Spatch(None, (), None, 2, None, "linux-6.12")
        with mock.patch.object(export, "run", side_effect=fake_get_maintainer), \
                mock.patch.object(split.trees, "pristine", return_value=tree), \
                mock.patch.object(split, "build", side_effect=self.fake_build), \
                redirect_stdout(io.StringIO()) as printed:
            groups = split.split(asked, self.out)
        self.printed = printed.getvalue()
        return groups

    def test_one_series_per_group_in_out(self) -> None:
        (self.out / "net-next").mkdir(parents=True)
        (self.out / "net-next" / "verify.json").write_text("{}")
        (self.out / "stale").mkdir()
        groups = self.run_split()
        self.assertEqual(layout(groups), {"net-next": ["A_MAGIC", "C_MAGIC"],
                                          "vfs": ["B_MAGIC"], "linux": ["PG_MAGIC"]})
        self.assertEqual(self.printed, "net-next: 2 patches (A_MAGIC, C_MAGIC)\n"
                                       "vfs: 1 patch (B_MAGIC)\nlinux: 1 patch (PG_MAGIC)\n")
        self.assertEqual(sorted(p.name for p in self.out.iterdir()), ["linux", "net-next", "vfs"])
        self.assertEqual(sorted(p.name for p in (self.out / "net-next").iterdir()),
                         ["0001-remove-A_MAGIC.patch", "0002-remove-C_MAGIC.patch", "verify.json"])
        self.assertTrue(all(w.path.is_file() and w.path.parent.parent == self.out
                            for g in groups for w in g.patches))
        whole, *each = self.calls
        self.assertEqual(whole["targets"], [])
        self.assertEqual([(c["targets"], c["reports"], c["registry_last"]) for c in each],
                         [(["A_MAGIC", "C_MAGIC"], self.out / "net-next", False),
                          (["B_MAGIC"], self.out / "vfs", False),
                          (["PG_MAGIC"], self.out / "linux", False)])
        self.assertEqual(sorted(p.name for p in self.tmp.iterdir()), ["out"])

    def test_a_failing_group_leaves_the_old_out(self) -> None:
        (self.out / "old").mkdir(parents=True)
        self.fail_on = "B_MAGIC"
        with self.assertRaisesRegex(DemagicError, "B_MAGIC"):
            self.run_split()
        self.assertEqual(sorted(p.name for p in self.out.iterdir()), ["old"])
        self.assertEqual(sorted(p.name for p in self.tmp.iterdir()), ["out"])

    def test_a_group_series_that_differs_stops_the_run(self) -> None:
        self.PLAN = dict(self.PLAN, C_MAGIC=("fs/c.c",))
        self.short = True
        with self.assertRaisesRegex(DemagicError, r"^vfs: its own series retires B_MAGIC; "
                                                  r"the whole one, B_MAGIC, C_MAGIC$"):
            self.run_split()

    def test_a_tree_without_get_maintainer_is_a_usage_error(self) -> None:
        (self.k.top / "scripts" / "get_maintainer.pl").unlink()
        with self.assertRaisesRegex(UsageError, r"^SPLIT=1: linux-6.12 has no "
                                                r"scripts/get_maintainer.pl"):
            self.run_split()
        self.assertEqual(self.calls, [])


if __name__ == "__main__":
    unittest.main()
