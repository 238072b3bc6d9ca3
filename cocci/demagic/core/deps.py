# SPDX-License-Identifier: GPL-2.0
"""The Debian packages each make target needs, checked and, as root, installed."""

from __future__ import annotations

import os
import shlex
import sys
import time
from pathlib import Path
from typing import Dict, List, Sequence

from demagic.core.proc import CommandError, run
from demagic.core.errors import DemagicError

# One place for every package the project uses, by the target that needs it.
BASE = ["coccinelle", "git", "perl", "python3", "unifdef", "xz-utils"]
KERNEL_BUILD = ["gcc", "make", "flex", "bison", "bc", "libelf-dev", "libssl-dev",
                "cpio", "kmod", "dwarves"]
PACKAGES: Dict[str, List[str]] = {
    "tree": ["linux-source-6.1", "git", "xz-utils"],
    "spatch": BASE + ["linux-source-6.1"],
    "scan": BASE + ["linux-source-6.1"],
    "verify": BASE + ["linux-source-6.1"] + KERNEL_BUILD + [
        "gcc-arm-linux-gnueabi", "gcc-hppa-linux-gnu", "gcc-mips64-linux-gnuabi64", "ccache"],
    "boot-test": BASE + ["linux-source-6.1"] + KERNEL_BUILD + [
        # gcc-multilib conflicts with the cross compilers: take its two halves.
        "qemu-system-x86", "busybox-static", "libc6-dev-i386", "lib32gcc-12-dev", "patch",
        # the host userland the kernel's selftests run on in the guest (over 9p)
        "iproute2", "iputils-ping", "ccache"],
    "bench": BASE + ["linux-source-6.1"],
    "check-mail": BASE + ["linux-source-6.1", "b4"],
}
# make test regenerates the committed series of both of Debian's trees.
PACKAGES["test"] = sorted(set(sum(PACKAGES.values(), [])) | {"linux-source-6.12"})
# Foreign dpkg architectures whose packages a target downloads (the i386
# guest's busybox-static:i386, unpacked, never installed on the host).
FOREIGN: Dict[str, List[str]] = {"boot-test": ["i386"], "test": ["i386"]}


def missing(packages: Sequence[str]) -> List[str]:
    """The packages of the list that dpkg does not report as installed."""
    out = []
    for pkg in packages:
        res = run(["dpkg-query", "-W", "-f=${db:Status-Status}", pkg], check=False)
        if res.returncode != 0 or res.stdout.strip() != "installed":
            out.append(pkg)
    return out


def have_lists() -> bool:
    lists = Path("/var/lib/apt/lists")
    return lists.is_dir() and any(lists.glob("*Packages*"))


APT_ENV = {"DEBIAN_FRONTEND": "noninteractive"}
UPDATE_TRIES = 3
UPDATE_PAUSE = 15.0


def update() -> None:
    """apt-get update, tried again while a mirror is mid-sync.

    When some lists still fail, apt keeps the others (and any older copy of the
    failed ones): say which failed and go on.  If a package is then out of
    reach, apt-get install fails and that failure is the error."""
    last = ""
    for attempt in range(UPDATE_TRIES):
        res = run(["apt-get", "update", "-q"], env=APT_ENV, check=False)
        if res.returncode == 0:
            return
        errors = [l[3:] for l in (res.stdout + res.stderr).splitlines() if l.startswith("E: ")]
        last = errors[0] if errors else f"apt-get update exited {res.returncode}"
        if attempt + 1 < UPDATE_TRIES:
            time.sleep(UPDATE_PAUSE)
    print(f"  warning: apt-get update, {UPDATE_TRIES} tries: {last}; installing from the lists "
          "that did download", file=sys.stderr, flush=True)


def install(packages: Sequence[str]) -> None:
    """apt-get install, with one apt-get update first when the lists are stale."""
    argv = ["apt-get", "install", "-y", "-q", "--no-install-recommends", *packages]
    if not have_lists():
        update()
    try:
        run(argv, env=APT_ENV)
    except CommandError:
        update()
        run(argv, env=APT_ENV)


def foreign_missing(archs: Sequence[str]) -> List[str]:
    """The architectures of the list that dpkg does not know yet."""
    res = run(["dpkg", "--print-foreign-architectures"], check=False)
    have = set(res.stdout.split()) | {run(["dpkg", "--print-architecture"]).stdout.strip()}
    return [a for a in archs if a not in have]


def add_foreign(target: str) -> None:
    """dpkg --add-architecture (then apt-get update) for what target downloads."""
    need = foreign_missing(FOREIGN.get(target, []))
    if not need:
        return
    cmd = "; ".join(f"dpkg --add-architecture {a}" for a in need) + "; apt-get update"
    if os.geteuid() != 0:
        raise DemagicError(f"{target} needs packages of {', '.join(need)}; run as root: {cmd}")
    print(f"  adding dpkg architecture for {target}: {' '.join(need)}", file=sys.stderr, flush=True)
    for arch in need:
        run(["dpkg", "--add-architecture", arch])
    update()


def ensure(target: str) -> None:
    """Make sure the packages of target are there, or say how to get them."""
    if target not in PACKAGES:
        raise DemagicError(f"deps: unknown target '{target}'")
    add_foreign(target)
    ensure_packages(PACKAGES[target], target)


def ensure_packages(packages: Sequence[str], why: str) -> None:
    """Install what of packages is missing (as root), or say how to."""
    need = missing(packages)
    if not need:
        return
    cmd = "apt-get install " + " ".join(shlex.quote(p) for p in need)
    if os.geteuid() != 0:
        raise DemagicError(f"{why} needs Debian packages; run as root: {cmd}")
    print(f"  installing for {why}: {' '.join(need)}", file=sys.stderr, flush=True)
    install(need)
