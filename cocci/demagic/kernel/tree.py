# SPDX-License-Identifier: GPL-2.0
"""Kernel trees: a pristine git copy under build/trees/, and worktrees off it.

The user's KDIR is only ever read.  Without KDIR the tree is one of Debian's
linux-source packages (TREE=linux-6.1, the default, or linux-6.12),
installed when missing and extracted once; a half-done extraction or import
has no stamp and is redone.
"""

from __future__ import annotations

import hashlib
import os
import re
import shutil
from dataclasses import dataclass
from pathlib import Path
from contextlib import contextmanager
from typing import Iterator, List, Optional, Sequence, Tuple

from demagic.core import lock, paths
from demagic.model.series import Series
from demagic.core.proc import CommandError, Progress, run
from demagic.core.errors import DemagicError, UsageError

DEFAULT_NAME = "linux-6.1"
# The trees demagic provides itself, from Debian's packages: name -> kernel series.
DEBIAN_TREES = {"linux-6.1": "6.1", "linux-6.12": "6.12"}
# A fixed identity and date make the pristine commit, and so everything after it, reproducible.
GIT_ENV = {
    "GIT_AUTHOR_NAME": "demagic", "GIT_AUTHOR_EMAIL": "demagic@localhost",
    "GIT_COMMITTER_NAME": "demagic", "GIT_COMMITTER_EMAIL": "demagic@localhost",
    "GIT_AUTHOR_DATE": "2022-12-01T00:00:00Z", "GIT_COMMITTER_DATE": "2022-12-01T00:00:00Z",
}


@dataclass(frozen=True)
class Tree:
    """A pristine git copy of a kernel tree."""
    name: str
    repo: Path
    base: str          # the pristine commit
    version: str       # e.g. 6.1.192
    has_history: bool  # the source was a git checkout with history
    origin: str = ""   # what it was made from, in words: "Debian's linux-source-6.1 6.1.192-1"
    dirty: Tuple[str, ...] = ()   # files with uncommitted changes, snapshot on top of HEAD

    @property
    def debian(self) -> bool:
        """One of Debian's packaged trees (its series is reproducible)."""
        return self.origin.startswith("Debian's ")


def tree_key(kdir: Optional[Path], tree_name: str) -> str:
    """The name a tree goes by under build/ (and its lock): KDIR's base name, or TREE."""
    return kdir.resolve().name if kdir is not None else tree_name


def package(name: str) -> str:
    """The Debian package of a tree demagic provides."""
    return f"linux-source-{DEBIAN_TREES[name]}"


def tarball(name: str) -> Path:
    return Path(f"/usr/src/{package(name)}.tar.xz")


def check_tree_name(name: str) -> str:
    if name not in DEBIAN_TREES:
        raise UsageError(f"TREE={name}: not a tree demagic provides (one of "
                         f"{', '.join(sorted(DEBIAN_TREES))}; or KDIR= for your own)")
    return name


def package_version(name: str) -> str:
    """The installed version of the tree's Debian package ("" when unknown)."""
    res = run(["dpkg-query", "-W", "-f=${Version}", package(name)], check=False)
    return res.stdout.strip() if res.returncode == 0 else ""


def kernel_version(kdir: Path) -> str:
    """VERSION.PATCHLEVEL.SUBLEVEL from the top Makefile, or UsageError."""
    makefile = kdir / "Makefile"
    if not makefile.is_file():
        raise UsageError(f"KDIR={kdir}: not a kernel tree (no top Makefile)")
    try:
        head = makefile.read_text(errors="replace")[:2000]
    except OSError as exc:
        raise UsageError(f"KDIR={kdir}: not a readable kernel tree ({exc.strerror})") from exc
    fields = dict(re.findall(r"^(VERSION|PATCHLEVEL|SUBLEVEL) = (\d+)", head, re.M))
    if "VERSION" not in fields or "PATCHLEVEL" not in fields:
        raise UsageError(f"KDIR={kdir}: not a kernel tree (its top Makefile has no VERSION "
                         "and PATCHLEVEL)")
    for need in ("scripts", "include"):
        if not (kdir / need).is_dir():
            raise UsageError(f"KDIR={kdir}: an incomplete kernel tree (no {need}/ directory)")
    return ".".join(fields.get(k, "0") for k in ("VERSION", "PATCHLEVEL", "SUBLEVEL"))


def check_kdir(kdir: Path) -> None:
    if not kdir.exists():
        raise UsageError(f"KDIR={kdir}: no such directory")
    if not kdir.is_dir():
        raise UsageError(f"KDIR={kdir}: not a directory")
    if not os.access(kdir, os.R_OK | os.X_OK):
        raise UsageError(f"KDIR={kdir}: not readable")
    kernel_version(kdir)


def _git(repo: Path, *args: str, check: bool = True) -> str:
    return run(["git", "-C", str(repo), *args], env=GIT_ENV, check=check).stdout


def _identity(kdir: Optional[Path], name: str) -> str:
    """What the pristine copy was made from: redo it when this changes.

    A git checkout: its HEAD and, when it has uncommitted changes, a digest of
    them.  A plain tree: its version and a digest of every file's size and
    time, so that a tree extracted again over an older one is taken again."""
    if kdir is None:
        st = tarball(name).stat()
        return f"tarball {tarball(name)} {st.st_size} {int(st.st_mtime)}"
    if (kdir / ".git").exists():
        head = run(["git", "-C", str(kdir), "rev-parse", "HEAD"], check=False).stdout.strip()
        if head:
            dirty = changed_files(kdir)
            return f"git {kdir} {head}" + (f" dirty {_digest_files(kdir, dirty)}" if dirty else "")
    listing = run(["find", ".", "-type", "f", "-printf", "%P %s %T@\\n"], cwd=kdir).stdout
    return (f"dir {kdir} {kernel_version(kdir)} "
            f"{hashlib.sha256(listing.encode()).hexdigest()[:16]}")


def changed_files(kdir: Path) -> List[str]:
    """Files of a git checkout that differ from its HEAD (untracked ones too)."""
    res = run(["git", "-C", str(kdir), "status", "--porcelain", "--untracked-files=all",
               "--ignore-submodules=all", "-z"], check=False)
    if res.returncode != 0:
        raise UsageError(f"KDIR={kdir}: git cannot read this checkout "
                         f"({(res.stderr or res.stdout).strip().splitlines()[-1:] or ['?']})")
    out = []
    fields = res.stdout.split("\0")
    k = 0
    while k < len(fields):
        entry = fields[k]
        if len(entry) > 3:
            out.append(entry[3:])
            if entry[0] in "RC":   # a rename: the old name follows
                k += 1
                out.append(fields[k])
        k += 1
    return sorted(set(out))


def _digest_files(kdir: Path, files: Sequence[str]) -> str:
    digest = hashlib.sha256()
    for rel in files:
        path = kdir / rel
        digest.update(rel.encode() + b"\0")
        if path.is_file():
            digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def _import(src: Path, repo: Path, progress: Progress) -> None:
    """Turn the copied tree at repo into a git repository with one pristine commit."""
    progress.step(f"importing {src} into git")
    _git(repo, "init", "-q", "-b", "pristine")
    _git(repo, "config", "gc.auto", "0")
    # Debian's tarball ignores everything at the top (for its packaging): force-add.
    _git(repo, "add", "-f", "-A")
    _git(repo, "commit", "-q", "--no-verify", "-m", f"pristine {src}")


def _populate(kdir: Optional[Path], name: str, tmp: Path, progress: Progress) -> bool:
    """Copy or extract the source into tmp; True when it brought git history."""
    if kdir is None:
        progress.step(f"extracting {tarball(name)}")
        unpack = tmp.parent / (tmp.name + ".x")
        shutil.rmtree(unpack, ignore_errors=True)
        unpack.mkdir(parents=True)
        run(["tar", "-C", str(unpack), "-xf", str(tarball(name))])
        (top,) = list(unpack.iterdir())
        top.rename(tmp)
        unpack.rmdir()
        return False
    if (kdir / ".git").exists():
        progress.step(f"cloning {kdir}")
        run(["git", "clone", "-q", "--shared", str(kdir), str(tmp)])
        _git(tmp, "checkout", "-q", "-B", "pristine", "HEAD")
        dirty = changed_files(kdir)
        if dirty:
            _snapshot(kdir, tmp, dirty, progress)
        subs = run(["git", "-C", str(kdir), "submodule", "status"], check=False).stdout.split()
        if subs:
            progress.step(f"submodules of {kdir} are not copied: they are not kernel code "
                          "demagic reads")
        return True
    progress.step(f"copying {kdir}")
    run(["cp", "-a", "--reflink=auto", f"{kdir}/.", str(tmp)])
    return False


def _snapshot(kdir: Path, tmp: Path, files: Sequence[str], progress: Progress) -> None:
    """Commit the uncommitted changes of kdir on top of its HEAD in the copy: the series
    follows the tree as the user sees it, and its cover letter says so."""
    progress.step(f"{kdir} has uncommitted changes to {len(files)} files: "
                  "the series is made on top of them")
    for rel in files:
        src, dst = kdir / rel, tmp / rel
        if src.is_file() or src.is_symlink():
            dst.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src, dst, follow_symlinks=False)
        elif dst.exists() or dst.is_symlink():
            dst.unlink()
    _git(tmp, "add", "-f", "-A", "--", *files)
    _git(tmp, "commit", "-q", "--no-verify", "-m",
         f"demagic: snapshot of the uncommitted changes of {kdir} ({len(files)} files)")
    (tmp / ".git" / "demagic-dirty").write_text("\n".join(files) + "\n")


def _ensure_package(name: str) -> None:
    """Debian's package of the tree, installed when missing (as root)."""
    if tarball(name).exists():
        return
    from demagic.core import deps
    deps.ensure_packages([package(name)], f"TREE={name}")
    if not tarball(name).exists():
        raise DemagicError(f"{tarball(name)} missing after installing {package(name)}")


def _source(kdir: Optional[Path], tree_name: str) -> Tuple[Optional[Path], str, str]:
    """(kdir resolved, the tree's name under build/, what its copy is made from), the
    source checked first: a KDIR that is no kernel tree is a UsageError."""
    if kdir is not None:
        kdir = kdir.resolve()
        check_kdir(kdir)
    else:
        _ensure_package(check_tree_name(tree_name))
    name = tree_name if kdir is None else kdir.name
    return kdir, name, _identity(kdir, name)


def _ready(name: str, ident: str) -> bool:
    """The pristine copy of name is there, made from ident."""
    stamp = paths.BUILD / "trees" / f"{name}.stamp"
    return stamp.exists() and stamp.read_text().strip() == ident and \
        (paths.BUILD / "trees" / name).is_dir()


def pristine(kdir: Optional[Path] = None, progress: Optional[Progress] = None,
             tree_name: str = DEFAULT_NAME) -> Tree:
    """The pristine git copy of kdir, or of Debian's tree tree_name, made when missing or
    stale (see opened() for the lock that makes that safe beside other runs)."""
    progress = progress or Progress()
    kdir, name, ident = _source(kdir, tree_name)
    repo = paths.BUILD / "trees" / name
    stamp = paths.BUILD / "trees" / f"{name}.stamp"
    if not _ready(name, ident):
        tmp = paths.BUILD / "trees" / f"{name}.tmp"
        # the work copies belong to the old copy: their git metadata goes with it
        for stale in (tmp, repo, work_path(name)):
            shutil.rmtree(stale, ignore_errors=True)
        stamp.unlink(missing_ok=True)
        tmp.parent.mkdir(parents=True, exist_ok=True)
        history = _populate(kdir, name, tmp, progress)
        if not history:
            _import(kdir or tarball(name), tmp, progress)
        (tmp / ".git" / "demagic-history").write_text("yes\n" if history else "no\n")
        tmp.rename(repo)
        stamp.write_text(ident + "\n")
        progress.step(f"pristine tree ready: {repo}")
    base = _git(repo, "rev-parse", "pristine").strip()
    history = (repo / ".git" / "demagic-history").read_text().strip() == "yes"
    dirty_file = repo / ".git" / "demagic-dirty"
    dirty = dirty_file.read_text().split() if dirty_file.exists() else []
    if kdir is None:
        origin = f"Debian's {package(name)} {package_version(name)}".rstrip()
    elif dirty:
        head = _git(repo, "rev-parse", "--short=12", "pristine~1").strip()
        origin = (f"the git checkout {kdir} at {head} with its uncommitted changes to "
                  f"{len(dirty)} files, committed on top as a snapshot")
    else:
        origin = f"{'the git checkout' if history else 'the tree'} {kdir}"
    return Tree(name, repo, base, kernel_version(repo), history, origin, tuple(dirty))


@contextmanager
def opened(kdir: Optional[Path], tree_name: str, what: str, progress: Optional[Progress] = None,
           work: bool = True) -> Iterator[Tree]:
    """The pristine copy of the tree, made when missing or stale, held while the block runs:
    shared, so that reads go on beside other runs (a scan beside a boot test); with work,
    the tree's work copy and build directories too, one run at a time.  what names the
    command for a run that has to wait."""
    progress = progress or Progress()
    name = tree_key(kdir, tree_name)
    with lock.tree_lock(name, what, progress) as held:
        _, copy, ident = _source(kdir, tree_name)
        if not _ready(copy, ident):
            held.exclusive()        # the runs that read the old copy end first
            pristine(kdir, progress, tree_name)
            held.shared()
        tree = pristine(kdir, progress, tree_name)
        if not work:
            yield tree
            return
        with lock.holding(name, what, progress):
            yield tree


def tree_of_series(series: Series) -> str:
    """Which of Debian's trees a series was made for: the one its cover letter names;
    else the directory's own name; else the default."""
    if series.made_for in DEBIAN_TREES:
        return series.made_for
    return series.path.name if series.path.name in DEBIAN_TREES else DEFAULT_NAME


def work_path(name: str) -> Path:
    """Where the one work copy of the tree named name lives (see worktree())."""
    return paths.BUILD / "work" / name


def worktree(tree: Tree, series: Optional[Series] = None, upto: Optional[int] = None) -> Path:
    """The work copy of tree (a git worktree), reset to the pristine commit, with series
    applied by git am.  upto limits the series to its first N.

    Every command shares one work copy per tree: a checkout of a whole tree is 1.4 to
    1.6 GB, and each command holds the tree's lock while it uses it.  git rewrites only
    the files that differ, each with a new mtime, so the O= builds of verify and the
    boot suite from it stay incremental and never see an older file as up to date.
    """
    path = work_path(tree.name)
    try:
        if not (path / ".git").exists() or \
                run(["git", "-C", str(path), "rev-parse", "--git-dir"], check=False).returncode:
            shutil.rmtree(path, ignore_errors=True)
            path.parent.mkdir(parents=True, exist_ok=True)
            _git(tree.repo, "worktree", "prune")
            _git(tree.repo, "worktree", "add", "-q", "--detach", "-f", str(path), tree.base)
        if Path(_git(path, "rev-parse", "--path-format=absolute", "--git-path",
                     "rebase-apply").strip()).exists():
            _git(path, "am", "--abort", check=False)
        # checkout -f: the index and every tracked file as base has them (in half the
        # time reset --hard takes); clean: nothing else
        _git(path, "checkout", "-q", "--detach", "-f", tree.base)
        _git(path, "clean", "-q", "-fdx")
    except CommandError as exc:
        raise DemagicError(f"cannot set up the work copy {path} of {tree.name} "
                           f"({exc.output.strip().splitlines()[-1] if exc.output.strip() else exc}); "
                           "make clean removes the work copies") from exc
    patches = (series.paths if series is not None else [])[:upto]
    if not patches:
        return path
    # one git am for the whole series (a process per patch costs seconds); where it
    # stops, the commits it made tell which patch did not apply
    res = run(["git", "-C", str(path), "am", "-q", *[str(p.resolve()) for p in patches]],
              env=GIT_ENV, check=False)
    if res.returncode != 0:
        applied = int(_git(path, "rev-list", "--count", f"{tree.base}..HEAD").strip() or 0)
        _git(path, "am", "--abort", check=False)
        culprit = patches[min(applied, len(patches) - 1)]
        raise DemagicError(f"{culprit.name}: does not apply to {tree.name}")
    return path
