# SPDX-License-Identifier: GPL-2.0
"""The probe: every object a series touches, built as a module where Kconfig allows it,
loaded and unloaded in the guest before and after the series.

plan() reads the series' model and the tree's Makefiles and Kconfig: for each
touched C file, the symbols that build its object (kbuild gates, directory by
directory) and what those depend on (demagic.kdeps).  The settings become one
fragment, the same for every state of the tree, so that the before and after
kernels differ only by the series.  What the final .config really builds is
read back by built(): a module to load, built in (its init ran at boot), or
not built here and why.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Dict, List, Optional, Sequence, Tuple

from demagic.kernel import kconfig
from demagic.kernel.kbuild import enabled, levels, module_of, object_of
from demagic.kernel.kdeps import Reader
from demagic.model.patches import Patch
from qemu import selftests
from qemu.machines import Machine, GuestTest

FRAGMENT = "probe.config"     # beside the arch's O= directory
LIST = "probe.list"           # in a kept kernel: "module patch path" per line
REPORT = "probe.built"        # in a kept kernel: "patch path how why" per target
NAME = "probe"


@dataclass(frozen=True)
class Target:
    """One touched C file of one patch and the object kbuild makes of it."""
    patch: str
    path: str
    obj: str
    symbols: Tuple[str, ...]   # CONFIG_ symbols of the gates chosen, innermost first
    module: str


@dataclass
class Plan:
    tree: Path = Path(".")    # the pristine tree the plan was read from; its selftests run
    targets: List[Target] = field(default_factory=list)
    fragment: Dict[str, str] = field(default_factory=dict)   # CONFIG_X -> y|m
    unplanned: Dict[Tuple[str, str], str] = field(default_factory=dict)  # (patch, path) -> why
    selftests: List[selftests.Selftest] = field(default_factory=list)
    kunit: List[selftests.KunitSuite] = field(default_factory=list)


# What the guest needs to run the kernel's selftests on the host's userland (virtio 9p).
HOST_SHARE = ("VIRTIO_PCI", "NET_9P_VIRTIO", "9P_FS", "TMPFS")


def _srcarch(arch: Machine) -> str:
    return "x86" if arch.karch in ("x86_64", "i386") else arch.karch


def plan(patches: Sequence[Patch], tree: Path, arch: Machine,
         static: Dict[str, str]) -> Plan:
    """What to build for the probe on arch; static (the arch's own fragments) wins
    wherever it sets a symbol to y or m."""
    out = Plan(tree)
    reader = Reader(tree, _srcarch(arch))
    srcarch = _srcarch(arch)
    known = {k[len("CONFIG_"):]: v for k, v in static.items()}
    for patch in patches:
        for path in patch.paths():
            obj = object_of(path)
            if obj is None:
                continue
            if path.startswith("arch/") and path.split("/")[1] != srcarch:
                out.unplanned[(patch.name, path)] = f"{path.split('/')[1]} code"
                continue
            found = levels(tree, obj)
            if not found:
                out.unplanned[(patch.name, path)] = f"no Makefile names {Path(obj).name}"
                continue
            chosen: List[str] = []
            for level in found:
                alts = sorted(level.alternatives, key=lambda a: (
                    not set(a) <= set(chosen),     # one that needs nothing new first
                    not all(s[len("CONFIG_"):] in reader.entries for s in a)))
                chosen += [s for s in (alts[0] if alts else ()) if s not in chosen]
            settings: Dict[str, str] = {}
            unmet: List[str] = []
            for sym in chosen:
                got, missing = reader.requirements(sym[len("CONFIG_"):], "m", known)
                settings.update({k: v for k, v in got.items() if settings.get(k) != "y"})
                unmet += missing
            if unmet:
                out.unplanned[(patch.name, path)] = "; ".join(dict.fromkeys(unmet))
                continue
            out.targets.append(Target(patch.name, path, obj, tuple(chosen), module_of(tree, obj)))
            _ask(out, static, settings)
    own: Dict[str, List[str]] = {}
    for t in out.targets:
        if t.symbols:
            own.setdefault(t.symbols[0], []).append(t.path)
    out.kunit = selftests.kunit_suites(tree, [t.path for t in out.targets])
    for test in selftests.discover(tree, own):
        wanted = [(name, "y") for name in HOST_SHARE] + \
            [(k[len("CONFIG_"):], v) for k, v in test.config]
        settings, unmet = {}, []
        for name, value in wanted:
            got, missing = reader.requirements(name, value, {**known, **settings})
            settings.update({k: v for k, v in got.items() if settings.get(k) != "y"})
            unmet += missing
        if not unmet:
            out.selftests.append(test)
            _ask(out, static, settings)
    return out


def _ask(out: Plan, static: Dict[str, str], settings: Dict[str, str]) -> None:
    """Add settings to the fragment: y beats m, the arch's own y or m is left alone."""
    for name, value in settings.items():
        key = "CONFIG_" + name
        if static.get(key, "n") in ("y", "m"):
            continue
        if out.fragment.get(key) != "y":
            out.fragment[key] = value


def fragment_text(p: Plan) -> str:
    return ("# The probe: what the series touches, as modules, with their dependencies.\n"
            + "".join(f"{k}={v}\n" for k, v in sorted(p.fragment.items())))


@dataclass(frozen=True)
class Built:
    """What the final .config made of one target."""
    target: Target
    how: str        # "module", "built-in" or "not built"
    why: str = ""   # for not built: the gate that is off


def built(p: Plan, src: Path, config: Path) -> List[Built]:
    final = kconfig.parse(config.read_text(), str(config))
    out = []
    for t in p.targets:
        ok, why = enabled(src, t.obj, final)
        if not ok:
            out.append(Built(t, "not built", why))
        elif t.symbols and final.get(t.symbols[0]) == "m":
            out.append(Built(t, "module"))
        else:
            out.append(Built(t, "built-in"))
    return out


def list_text(results: Sequence[Built]) -> str:
    return "".join(f"{b.target.module} {b.target.patch} {b.target.path}\n"
                   for b in results if b.how == "module")


@dataclass(frozen=True)
class Outcome:
    """What the probe made of one touched file, as the coverage table reads it."""
    patch: str
    path: str
    how: str         # module, built-in, not built, not planned
    why: str = ""
    module: str = ""


def report_text(p: Plan, results: Sequence[Built]) -> str:
    rows = [Outcome(b.target.patch, b.target.path, b.how, b.why, b.target.module)
            for b in results]
    rows += [Outcome(patch, path, "not planned", why) for (patch, path), why in p.unplanned.items()]
    return "".join("\t".join((o.patch, o.path, o.how, o.why, o.module)) + "\n" for o in rows)


def read_report(path: Path) -> List[Outcome]:
    """The Outcome of each touched file of a kept kernel."""
    if not path.is_file():
        return []
    return [Outcome(*(line.split("\t") + [""] * 5)[:5])
            for line in path.read_text().splitlines() if line]


def read_list(path: Path) -> List[Tuple[str, str, str]]:
    if not path.is_file():
        return []
    return [tuple(line.split()[:3]) for line in path.read_text().splitlines()   # type: ignore
            if len(line.split()) >= 3]


def guest_test(entries: Sequence[Tuple[str, str, str]]) -> Optional[GuestTest]:
    """The probe as a guest test over the files whose modules it loads."""
    if not entries:
        return None
    modules = sorted({m for m, _, _ in entries})
    return GuestTest(NAME, tuple(sorted({p for _, _, p in entries})),
                     depth=f"loads and unloads {', '.join(modules)}")


def modules_of(entries: Sequence[Tuple[str, str, str]]) -> List[str]:
    return list(dict.fromkeys(m for m, _, _ in entries))
