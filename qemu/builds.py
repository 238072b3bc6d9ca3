# SPDX-License-Identifier: GPL-2.0
"""The kernels a series needs: the probe's plan, and each arch's kernel before and after,
kept by what they were made from."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Dict, List, Optional, Sequence, Tuple

from demagic.core import paths
from demagic.core.files import write_atomic
from demagic.core.proc import Progress
from demagic.kernel import tree as dtree
from demagic.model.patches import Patch
from demagic.model.series import Series
from qemu import kernel, probe, sync
from qemu.machines import FLAVOURS, Machine, Flavour

def work_root(tr: dtree.Tree, flavour: Flavour = FLAVOURS["plain"]) -> Path:
    """build/qemu/<tree>, and a directory of its own below it for each other flavour."""
    root = paths.BUILD / "qemu" / tr.name
    return root if flavour.name == "plain" else root / flavour.name


@dataclass(frozen=True)
class Probing:
    """The probe of one series: its plan and the fragment file every state builds with."""
    arch: Machine
    plan: probe.Plan
    fragment: Path


def probing(tr: dtree.Tree, parsed: Sequence[Patch], flavour: Flavour) -> Probing:
    """The probe runs on the first arch: the series' C files as modules, with what they need."""
    arch = flavour.archs[0]
    plan = probe.plan(parsed, tr.repo, arch,
                      kernel.kconfig.requested(kernel.fragments(arch)))
    frag = work_root(tr, flavour) / f"{arch.name}-{probe.FRAGMENT}"
    text = probe.fragment_text(plan)
    if not frag.exists() or frag.read_text() != text:
        write_atomic(frag, text)
    return Probing(arch, plan, frag)


def build_kernels(tr: dtree.Tree, series: Optional[Series], label: str, jobs: int,
                  progress: Progress, probed: Probing,
                  flavour: Flavour = FLAVOURS["plain"],
                  ready: Callable[[kernel.Build], object] = lambda b: None) -> List[kernel.Build]:
    """Every arch's kernel for the tree with series applied (None: pristine), kept as <arch>-<label>.

    A kept kernel made from the same inputs is reused; the others are built
    incrementally in the arch's one O= directory, from whatever state it holds.
    ready is called with each arch's kernel, in the flavour's order, as soon as it is
    there: the caller may boot it while the next one builds.
    """
    builds: Dict[str, kernel.Build] = {}
    todo: Dict[str, Tuple[Path, str]] = {}
    def frag(arch: Machine) -> Optional[Path]:
        return probed.fragment if probed is not None and probed.arch == arch else None

    root = work_root(tr, flavour)
    for arch in flavour.archs:
        dest = root / f"{arch.name}-{label}"
        key = kernel.inputs_key(tr.base, series, arch, frag(arch))
        hit = kernel.cached(arch, dest, key)
        if hit:
            progress.step(f"{label}: {arch.name} kernel unchanged, kept in {dest}")
            builds[arch.name] = hit
        else:
            todo[arch.name] = (dest, key)
    src = sync.sync(tr, series, root) if todo else None
    for arch in flavour.archs:
        if src is not None and arch.name in todo:
            dest, key = todo[arch.name]
            out = root / arch.name
            progress.step(f"{label}: building {arch.name} kernel in {out}")
            builds[arch.name] = kernel.build(
                src, out, arch, jobs, dest, key,
                probed.plan if probed is not None and probed.arch == arch else None, frag(arch))
        ready(builds[arch.name])
    return [builds[arch.name] for arch in flavour.archs]
