# SPDX-License-Identifier: GPL-2.0
"""make spatch SPLIT=1: the series cut into one series per maintainer tree.

The whole series is made first; each patch then goes to the tree that would
take it, as the kernel's own MAINTAINERS says: the first T: git tree that
scripts/get_maintainer.pl --scm prints for the code the patch changes (for
its documentation, when it changes nothing else).  Each tree's patches are
made again as a series of their own, with its own cover letter, in
OUT/<tree>/; OUT is written whole or not at all.  The patch that deletes the
registry is in none: it depends on every one.
"""

from __future__ import annotations

import re
import shutil
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Dict, List, Optional, Sequence, Tuple

from demagic.core.errors import DemagicError, UsageError
from demagic.core.files import swap_dir, temporary
from demagic.core.paths import REPO_ROOT
from demagic.core.proc import Progress
from demagic.kernel import tree as trees
from demagic.model.target import group_name
from demagic.series import mail as export
from demagic.series.build import REPORTS, Built, Written, build

SCRIPT = Path("scripts") / "get_maintainer.pl"
NO_TREE = "no-tree"           # the group of the patches whose files no T: line covers


@dataclass(frozen=True)
class Spatch:
    """What make spatch was asked for: every series of the split is made with it."""
    kdir: Optional[Path]
    targets: Tuple[str, ...]
    subdir: Optional[str]
    jobs: int
    who: Optional[Tuple[str, str]]
    tree_name: str = trees.DEFAULT_NAME
    scope: str = ""

    def build(self, out: Path, targets: Sequence[str], reports: Optional[Path] = None,
              registry_last: bool = True) -> Built:
        """build() of targets into out, as asked."""
        return build(self.kdir, out, targets, self.subdir, self.jobs, self.who,
                     self.tree_name, self.scope, reports=reports, registry_last=registry_last)


@dataclass
class Group:
    """One series of the split: the patches one maintainer tree would take."""
    name: str                                   # its directory under OUT
    url: str                                    # the T: git tree; "" for none
    patches: List[Written] = field(default_factory=list)

    @property
    def macros(self) -> List[str]:
        """The magic macros its patches retire: the targets of its series."""
        return [m for w in self.patches for m in w.entry.macros]

    def line(self) -> str:
        """<group>: N patches (MACRO, MACRO...)."""
        count = f"{len(self.patches)} patch{'' if len(self.patches) == 1 else 'es'}"
        return f"{self.name}: {count} ({', '.join(group_name(m) for m in self.retired)})"

    @property
    def retired(self) -> List[Tuple[str, ...]]:
        """The macros of each patch, in order."""
        return [w.entry.macros for w in self.patches]


def first_tree(scm: str) -> str:
    """The URL of the first git tree in get_maintainer.pl --scm's output (a T: line,
    "git URL [branch]"); "" when it prints none."""
    m = re.search(r"(?m)^git\s+(\S+)", scm)
    return m.group(1) if m else ""


def tree_of(top: Path, patch: Path) -> str:
    """The git tree that would take patch: MAINTAINERS' first T: for the code it changes,
    or for the whole patch when it changes only documentation."""
    script = top / SCRIPT
    head, code, _docs = export.parts(patch)
    if not code:
        return first_tree(export.ask(top, script, patch, extra=["--scm"]))
    return first_tree(export.ask_part(top, script, patch, head, code, ["--scm"]))


def url_parts(url: str) -> List[str]:
    """A tree URL's host and path parts, .git off the last: git://h/a/b.git -> h, a, b."""
    rest = re.sub(r"^[a-z][a-z0-9+.-]*://", "", url.strip().rstrip("/"))
    rest = re.sub(r"\.git$", "", rest)
    return [re.sub(r"[^\w.+-]", "-", p).lstrip(".") or "-" for p in re.split(r"[/:]", rest) if p]


def names(urls: Sequence[str]) -> Dict[str, str]:
    """A directory name for each tree URL: its last path part, with as many parts before
    it as tell it from the others' ("no-tree" for ""), and -2, -3 after a name taken."""
    parts = {u: url_parts(u) for u in urls if u}
    out: Dict[str, str] = {}
    for url in urls:
        mine = parts.get(url, [])
        k = 1
        while k < len(mine) and any(p[-k:] == mine[-k:] for u, p in parts.items() if u != url):
            k += 1
        name = base = "-".join(mine[-k:]) or NO_TREE
        n = 2
        while name in out.values():
            name, n = f"{base}-{n}", n + 1
        out[url] = name
    return out


def grouped(top: Path, patches: Sequence[Written], jobs: int) -> List[Group]:
    """The patches by the tree that would take them (top: the kernel tree whose
    MAINTAINERS tells), each tree where its first patch is; the registry's removal in none."""
    mine = [w for w in patches if not w.entry.registry]
    with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        urls = list(pool.map(lambda w: tree_of(top, w.path), mine))
    named = names(list(dict.fromkeys(urls)))
    groups: Dict[str, Group] = {}
    for w, url in zip(mine, urls):
        groups.setdefault(url, Group(named[url], url)).patches.append(w)
    return list(groups.values())


def carry_reports(old: Path, new: Path) -> None:
    """Make new, with the reports (verify, boot-test) beside the group's last series:
    build() keeps those its own series lacks, and sums them up when they are of it."""
    new.mkdir(parents=True)
    for f in sorted(old.iterdir()) if old.is_dir() else []:
        if f.suffix in REPORTS and f.is_file():
            shutil.copy2(f, new / f.name)


def write_group(asked: Spatch, group: Group, tmp: Path, dest: Path) -> Group:
    """The series of group in tmp/<name>, its cover letter naming it dest/<name>; the
    group as written, its patches where they will be once tmp is dest."""
    new, old = tmp / group.name, dest / group.name
    carry_reports(old, new)
    got = asked.build(new, group.macros, reports=old, registry_last=False)
    done = Group(group.name, group.url, [Written(old / w.path.name, w.entry)
                                         for w in got.patches])
    if sorted(done.retired) != sorted(group.retired):
        raise DemagicError(f"{group.name}: its own series retires "
                           f"{', '.join(map(group_name, done.retired)) or 'nothing'}; the "
                           f"whole one, {', '.join(map(group_name, group.retired))}")
    return done


def split(asked: Spatch, out: Optional[Path]) -> List[Group]:
    """make spatch SPLIT=1: one series per maintainer tree in OUT/<tree>/ (default
    generated-patches/<tree name>-split), OUT written whole or not at all."""
    tree = trees.pristine(asked.kdir, Progress(quiet=True), asked.tree_name)
    if not (tree.repo / SCRIPT).is_file():
        raise UsageError(f"SPLIT=1: {tree.name} has no {SCRIPT} to tell its maintainer trees")
    dest = (out or REPO_ROOT / "generated-patches" / f"{tree.name}-split").resolve()
    if dest.exists() and not dest.is_dir():
        raise UsageError(f"OUT={dest}: not a directory")
    whole, tmp = temporary(dest, ".whole"), temporary(dest)
    try:
        groups = grouped(tree.repo, asked.build(whole, asked.targets).patches, asked.jobs)
        shutil.rmtree(tmp, ignore_errors=True)
        tmp.mkdir(parents=True)
        written = [write_group(asked, g, tmp, dest) for g in groups]
        swap_dir(tmp, dest)
    finally:
        shutil.rmtree(whole, ignore_errors=True)
        shutil.rmtree(tmp, ignore_errors=True)
    for group in written:
        print(group.line())
    return written
