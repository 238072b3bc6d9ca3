# SPDX-License-Identifier: GPL-2.0
"""verify run: walk the series patch by patch on one worktree and fill the matrix."""

from __future__ import annotations

import hashlib
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Dict, List, Optional, Set, Tuple

from demagic.core.files import write_atomic
from demagic.core.errors import DemagicError, UsageError
from demagic.core.proc import Progress, run
from demagic.core import paths
from demagic.core.paths import REPO_ROOT
from demagic.kernel.tree import GIT_ENV, Tree, pristine, worktree
from demagic.model.series import Series
from demagic.kernel import leftovers
from verify import basecache, checkpatch, kerneldoc, layout, reference
from verify.targets import ARCHES, Target, by_name
from verify.builddir import BuildDir, BuildError, ObjectResult, new_warnings, pahole, tools_missing
from demagic.model.reports import objects_text, Cell, Row, VerifyReport, failed, not_applicable, passed
from demagic.model.patches import Patch, Removed, added_members, removed_in_series
from verify.plan import HEADER_USERS, Includes, ObjectPlan, plan, union

FAST_NOTE = ("--fast: no build after each patch: bisect is n.a., builds and layout compare "
             "the pristine tree with the whole series applied")
FULL_NOTE = ("full: every patch's objects are built W=1 before the series and right after "
             "the patch; after each patch the objects of the earlier patches are rebuilt; "
             "the results before the series are kept by content (verify/basecache.py)")
CHECK_NOTES = [
    "nothing-left: removed #define and static names, struct members (through variables of "
    "that struct), documentation table rows and deleted documents must have no reference "
    "after the patch",
    "builds: each object on the first architecture whose .config (defconfig + verify/configs "
    "fragment, checked to be a subset) builds it; configured out = fail; no new W=1 warning",
    "header users: beside the files a patch touches, the nearest "
    f"{HEADER_USERS} other users of each header it changes are built: files that include the "
    "header (directly, or through a header that names what changed) and name the struct that "
    "loses a member (or one that embeds it) or a macro it removes or changes; assembly files "
    "through such a header count too; a user no .config builds is listed, not failed",
    "arm: RiscPC is built -march=armv4 with its gcc < 9.1 gate lifted (a compile test: "
    "Debian's gcc 12 has no ARMv3)",
    "layout: pahole of each struct that loses a member, before and after; *_OFFSET macros of "
    "its header must match the real offsets",
    "kernel-doc: the tree's scripts/kernel-doc -none on the .c and .h files a patch touches, "
    "before and after it: a warning it adds fails",
    "reference: code differences from the upstream patch fail; Documentation differences "
    "are listed",
]

Key = Tuple[str, str]   # (arch name, object)


@dataclass
class Options:
    kdir: Optional[Path] = None
    series: Optional[Series] = None
    ref: Optional[Path] = None
    out: Optional[Path] = None
    jobs: int = 2
    fast: bool = False
    tree: str = "linux-6.1"
    state: str = "series"
    quiet: bool = False
    prereq: Optional[Path] = None    # patches (a file or a directory) applied before the
                                     # series, not verified: what it depends on


@dataclass
class Walk:
    """What the walk learnt: per patch its plan, what it retires, and the builds."""
    tree: Tree
    wt: Path
    patches: List[Patch]
    dirs: Dict[str, BuildDir] = field(default_factory=dict)
    plans: List[ObjectPlan] = field(default_factory=list)
    removed: List[List[Removed]] = field(default_factory=list)
    base: Dict[Key, ObjectResult] = field(default_factory=dict)
    base_key: str = ""       # what the tree before the series is: the pristine commit, and
                             # the prerequisite patches on it
    after: List[Dict[Key, ObjectResult]] = field(default_factory=list)
    shapes: Dict[Tuple[str, str, str, str], Optional[str]] = field(default_factory=dict)
    rows: List[Row] = field(default_factory=list)


def build_dir(walk: Walk, arch: Target, state: str, jobs: int) -> BuildDir:
    if arch.name not in walk.dirs:
        out = paths.BUILD / "verify" / walk.tree.name / f"{arch.name}-{state}"
        walk.dirs[arch.name] = BuildDir(arch, walk.wt, out, jobs)
    return walk.dirs[arch.name]


def build(walk: Walk, objects: Dict[str, List[str]],
          prev: Optional[Dict[Key, ObjectResult]] = None,
          touched: Optional[Set[str]] = None) -> Dict[Key, ObjectResult]:
    """Build the objects; with prev and touched, skip an architecture none of whose
    objects depends on a touched file (kbuild's own dependency record), reusing prev."""
    out: Dict[Key, ObjectResult] = {}
    for arch_name, objs in sorted(objects.items()):
        bdir = walk.dirs[arch_name]
        if prev is not None and touched is not None and all(
                (arch_name, o) in prev and prev[(arch_name, o)].ok
                and not touched & bdir.deps(o) for o in objs):
            out.update({(arch_name, o): prev[(arch_name, o)] for o in objs})
            continue
        for obj, res in bdir.build(objs).items():
            out[(arch_name, obj)] = res
    return out


def structs_of(removed: List[Removed]) -> Dict[str, Tuple[str, Set[str]]]:
    """struct -> (file, removed member names)."""
    out: Dict[str, Tuple[str, Set[str]]] = {}
    for item in removed:
        if item.kind == "field":
            out.setdefault(item.struct, (item.file, set()))[1].add(item.name)
    return out


def capture(walk: Walk, index: int, when: str, results: Dict[Key, ObjectResult]) -> None:
    """pahole of the structs patch index changes, in each of its objects that built."""
    for struct in structs_of(walk.removed[index]):
        for arch_name, obj in walk.plans[index].all():
            path = walk.dirs[arch_name].out / obj
            res = results.get((arch_name, obj))
            text = pahole(path, struct, walk.dirs[arch_name].arch.linker()) \
                if res is not None and res.ok else None
            walk.shapes[(when, arch_name, obj, struct)] = text


def builds_cell(walk: Walk, index: int, results: Dict[Key, ObjectResult]) -> Cell:
    item = walk.plans[index]
    if not item.sources:
        return not_applicable("touches no C or assembly source")
    problems = list(item.configured_out)
    built = []
    for arch_name, obj in item.all():
        before = walk.base.get((arch_name, obj))
        after = results.get((arch_name, obj))
        if before is None or not before.ok:
            problems += [f"{arch_name} {obj}: does not build before the series"] + \
                [f"  {d}" for d in (before.errors() if before else [])[:5]]
            continue
        if after is None or not after.ok:
            problems += [f"{arch_name} {obj}: does not build after the patch"] + \
                [f"  {d}" for d in (after.errors() if after else [])[:5]]
            continue
        extra = new_warnings(before.diagnostics, after.diagnostics)
        problems += [f"{arch_name} {obj}: new warning: {d}" for d in extra]
        built.append(f"{arch_name} {obj} ({len(after.warnings())} W=1 warnings, as before)")
    if problems:
        return failed(f"{len(problems)} problems", problems + built)
    row = walk.rows[index]
    row.built = list(item.all())
    row.header_users = [f"{a} {o}" for a, o in item.all()
                        if o[:-2] + ".c" in item.header_users or o[:-2] + ".S" in item.header_users]
    users = f" ({len(row.header_users)} of them users of a changed header)" \
        if row.header_users else ""
    return passed(f"{row.built_text()}{users}, no new warning", built + item.header_notes)


def bisect_cell(walk: Walk, index: int, results: Dict[Key, ObjectResult]) -> Cell:
    earlier = union(walk.plans[:index])
    keys = [(a, o) for a, objs in earlier.items() for o in objs]
    own = set(walk.plans[index].all())
    keys = [k for k in keys if k not in own]
    if not keys:
        return not_applicable("no object of an earlier patch to rebuild")
    broken = [f"{a} {o}" for a, o in keys if not results.get((a, o), ObjectResult(o, False)).ok]
    if broken:
        verb = "no longer builds" if len(broken) == 1 else "no longer build"
        return failed(f"{objects_text(len(broken))} of earlier patches {verb}", broken)
    return passed(f"{objects_text(len(keys))} of earlier patches still build")


def layout_cell(walk: Walk, index: int, when: str, results: Dict[Key, ObjectResult]) -> Cell:
    structs = structs_of(walk.removed[index])
    if not structs:
        return not_applicable("no struct loses a member")
    objs = walk.plans[index].all()
    broken = [k for k in objs if not results.get(k, ObjectResult(k[1], False)).ok]
    if objs and len(broken) == len(objs):
        return not_applicable("no object of the patch builds after it (see builds)")
    unbuilt: List[str] = []
    added = set().union(*added_members(walk.patches[index]).values()) \
        if added_members(walk.patches[index]) else set()
    problems: List[str] = []
    notes: List[str] = []
    for struct, (header, gone) in sorted(structs.items()):
        pair = next(((walk.shapes.get(("base", a, o, struct)), walk.shapes.get((when, a, o, struct)),
                      f"{a} {o}") for a, o in walk.plans[index].all()
                     if walk.shapes.get(("base", a, o, struct))
                     and walk.shapes.get((when, a, o, struct))), None)
        if pair is None and broken:
            unbuilt.append(struct)
            continue
        if pair is None:
            problems.append(f"struct {struct}: no object of the patch describes it before "
                            "and after (not built, or not in its DWARF)")
            continue
        before = layout.parse_pahole(struct, pair[0] or "")
        after = layout.parse_pahole(struct, pair[1] or "")
        problems += layout.compare(before, after, gone, added & set(after.names()))
        notes.append(f"struct {struct} ({pair[2]}): -{', -'.join(sorted(gone))}: "
                     f"{before.size} -> {after.size} bytes, {before.size - after.size} saved")
        path = walk.wt / header
        if path.is_file():
            macros = layout.offsets_of(path.read_text(errors="replace"), after, gone)
            problems += layout.check_offsets(macros, after, gone)
            notes += [f"{m.name} = {m.value:#x} agrees with {struct}.{m.member}"
                      for m in macros if m.value is not None and after.offset(m.member) == m.value]
    if problems:
        return failed(problems[0], problems + notes)
    if unbuilt and not notes:
        return not_applicable(f"struct {', '.join(unbuilt)}: the objects that describe it do "
                              "not build after the patch (see builds)")
    return passed("; ".join(n for n in notes if "bytes" in n), notes)


def nothing_left_cell(wt: Path, removed: List[Removed]) -> Cell:
    if not removed:
        return not_applicable("removes no macro, static, member, table row or document")
    hits, notes = leftovers.check(wt, removed)
    unique = sorted({str(r) for r in removed})
    names = ", ".join(unique[:12]) + (" ..." if len(unique) > 12 else "")
    if hits:
        return failed(f"{len(hits)} references left to {names}", hits + notes)
    return passed(f"no reference left to {len(unique)}: {names}", notes)


def old_text(wt: Path) -> Callable[[str], str]:
    def read(path: str) -> str:
        try:
            return (wt / path).read_text(errors="replace")
        except OSError:
            return ""
    return read


def prepare(walk: Walk, opts: Options, progress: Progress) -> None:
    """Plans (needs configured build dirs), removed identifiers, and the base build."""
    def config_of(arch: Target) -> Dict[str, str]:
        bdir = build_dir(walk, arch, opts.state, opts.jobs)
        if not bdir.configured():
            progress.step(f"configuring {arch.name} ({arch.defconfig} + fragment)")
        return bdir.config

    index = Includes(walk.wt)
    for patch, removed in zip(walk.patches, walk.removed):
        walk.plans.append(plan(walk.wt, patch, config_of, removed, index))
    need = sorted({a for p in walk.plans for a in p.objects})
    missing = tools_missing([by_name(a) for a in need])
    if missing:
        raise DemagicError("cross compiler missing: " + ", ".join(f"{a} needs {c}" for a, c in missing)
                           + " (make deps)")
    objects = union(walk.plans)
    structs: Dict[Key, Set[str]] = {}
    for index, item in enumerate(walk.plans):
        for key in item.all():
            structs.setdefault(key, set()).update(structs_of(walk.removed[index]))
    caches = {a: basecache.load(walk.dirs[a], walk.base_key) for a in objects}
    fresh = {a: objs for a, objs in objects.items() if not basecache.usable(
        caches[a], objs, {o: structs.get((a, o), set()) for o in objs})}
    progress.step("building before the series: " + ", ".join(
        f"{a} {len(o)}" + ("" if a in fresh else " (cached)") for a, o in sorted(objects.items())))
    walk.base = build(walk, fresh)
    for index in range(len(walk.patches)):
        capture(walk, index, "base", walk.base)
    for arch_name, objs in objects.items():
        if arch_name in fresh:
            basecache.save(walk.dirs[arch_name], walk.base_key,
                           {o: walk.base[(arch_name, o)] for o in objs},
                           {o: {s: walk.shapes.get(("base", arch_name, o, s))
                                for s in structs.get((arch_name, o), set())} for o in objs})
            continue
        for obj in objs:
            entry = caches[arch_name][obj]
            walk.base[(arch_name, obj)] = basecache.result(entry, obj)
            for struct, text in entry["pahole"].items():
                walk.shapes[("base", arch_name, obj, struct)] = text


def walk_series(walk: Walk, opts: Options, progress: Progress) -> None:
    applied = True
    prev = walk.base
    for index, patch in enumerate(walk.patches):
        row = Row(patch.number, patch.name, patch.subject)
        walk.rows.append(row)
        if not applied:
            row.cells["applies"] = not_applicable("an earlier patch did not apply")
            continue
        docs_before = kerneldoc.warnings(walk.wt, patch.paths(), walk.removed[index])
        res = run(["git", "-C", str(walk.wt), "am", "-q", str(patch.path.resolve())],
                  env=GIT_ENV, check=False)
        if res.returncode != 0:
            run(["git", "-C", str(walk.wt), "am", "--abort"], check=False)
            row.cells["applies"] = failed("git am failed", (res.stdout + res.stderr).splitlines()[:20])
            applied = False
            continue
        row.cells["applies"] = passed("git am")
        row.cells["nothing-left"] = nothing_left_cell(walk.wt, walk.removed[index])
        row.cells["kernel-doc"] = kerneldoc.cell(patch.paths(), docs_before,
                                                 kerneldoc.warnings(walk.wt, patch.paths(),
                                                                    walk.removed[index]))
        if opts.fast:
            continue
        progress.step(f"{patch.name}: rebuilding what it changed")
        results = build(walk, union(walk.plans[: index + 1]), prev, set(patch.paths()))
        prev = {**prev, **results}
        walk.after.append(results)
        capture(walk, index, f"after{index}", results)
        row.cells["builds"] = builds_cell(walk, index, results)
        row.cells["bisect"] = bisect_cell(walk, index, results)
        row.cells["layout"] = layout_cell(walk, index, f"after{index}", results)
    if opts.fast and applied:
        progress.step("building after the series")
        results = build(walk, union(walk.plans))
        for index, row in enumerate(walk.rows):
            capture(walk, index, "final", results)
            row.cells["builds"] = builds_cell(walk, index, results)
            row.cells["bisect"] = not_applicable("skipped (--fast)")
            row.cells["layout"] = layout_cell(walk, index, "final", results)


def lift(wt: Path, patches: List[Patch]) -> None:
    """Commit the architectures' Kconfig lifts in the worktree, before the series."""
    touched = {p for patch in patches for p in patch.paths()}
    done = []
    for arch in ARCHES:
        for path, old, new in arch.lifts:
            if path in touched:
                raise DemagicError(f"the series touches {path}, which verify adjusts to build "
                                   f"{arch.name}: cannot verify it")
            text = (wt / path).read_text()
            if old in text:
                (wt / path).write_text(text.replace(old, new, 1))
                done.append(path)
    if done:
        run(["git", "-C", str(wt), "commit", "-q", "-m", "verify: Kconfig lifts", *done],
            env=GIT_ENV)


def prerequisites(wt: Path, prereq: Optional[Path]) -> str:
    """Apply the prerequisite patches (git am) on the worktree; their digest ("" if none)."""
    if prereq is None:
        return ""
    files = sorted(prereq.glob("*.patch")) if prereq.is_dir() else [prereq]
    if not files:
        raise UsageError(f"PREREQ={prereq}: no patch there")
    digest = hashlib.sha256()
    for patch in files:
        digest.update(patch.read_bytes())
        res = run(["git", "-C", str(wt), "am", "-q", str(patch.resolve())], env=GIT_ENV,
                  check=False)
        if res.returncode != 0:
            run(["git", "-C", str(wt), "am", "--abort"], check=False)
            raise UsageError(f"PREREQ: {patch.name} does not apply to the tree")
    return "+" + digest.hexdigest()[:16]


def verify(opts: Options, progress: Progress) -> VerifyReport:
    """Every check on every patch of opts.series."""
    start = time.monotonic()
    if opts.series is None:
        raise UsageError("no SERIES= to verify")
    patches = list(opts.series.patches)
    tree = pristine(opts.kdir, progress, opts.tree)
    progress.step(f"work copy of the pristine {tree.name}")
    wt = worktree(tree)
    lift(wt, patches)
    walk = Walk(tree, wt, patches, base_key=tree.base + prerequisites(wt, opts.prereq))
    walk.removed = removed_in_series(patches, old_text(wt))
    try:
        prepare(walk, opts, progress)
    except BuildError as exc:
        raise DemagicError(str(exc)) from exc
    walk_series(walk, opts, progress)
    progress.step("checkpatch and reference")
    refs = reference.load(opts.ref) if opts.ref and opts.ref.is_dir() else None
    for patch, row in zip(patches, walk.rows):
        row.cells["checkpatch"], row.checkpatch = checkpatch.check(tree.repo, patch.path)
        row.cells["reference"] = reference.compare(patch, refs, str(opts.ref))
    matrix = VerifyReport(f"{tree.name} ({tree.version})", shown(opts.series.path), reference.ref_label(
        opts.ref if refs is not None else None), "fast" if opts.fast else "full",
        [FAST_NOTE if opts.fast else FULL_NOTE] + CHECK_NOTES, walk.rows)
    matrix.timings["total"] = time.monotonic() - start
    matrix.digest = opts.series.digest
    return matrix


def shown(path: Path) -> str:
    """A path as reports show it: relative to the project when inside it."""
    try:
        return str(path.resolve().relative_to(REPO_ROOT))
    except ValueError:
        return str(path)


def default_out(kdir: Optional[Path], tree: str = "linux-6.1") -> Path:
    name = tree if kdir is None else kdir.resolve().name
    return paths.BUILD / "verify" / name


def write_reports(matrix: VerifyReport, out: Path, text: str, markdown: str, js: str,
                  series: Optional[Path] = None) -> None:
    """report.{txt,md,json} in out, and verify.{md,json} beside the series (where make
    spatch reads them for the cover letter), each written whole or not at all."""
    files = [(out, "report.txt", text), (out, "report.md", markdown), (out, "report.json", js)]
    if series is not None:
        files += [(series, "verify.md", markdown), (series, "verify.json", js)]
    for where, name, content in files:
        write_atomic(where / name, content)


