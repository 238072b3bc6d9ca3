# SPDX-License-Identifier: GPL-2.0
"""Configure kernel build directories and build single objects in them, W=1."""

from __future__ import annotations

import os
import re
import shutil
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Dict, List, Optional, Sequence, Set, Tuple

from demagic.core import ccache
from demagic.core.proc import BATCH, CommandError, run
from demagic.kernel import kconfig
from verify.targets import Target
from demagic.kernel.build import BuildError, configure

CCWRAP = Path(__file__).resolve().parent / "ccwrap.sh"
DIAG_RE = re.compile(r"^(?P<file>[^\s:][^:]*):(?P<line>\d+):(?:(?P<col>\d+):)? "
                     r"(?P<kind>warning|error): (?P<msg>.*)$")
MAKE_ERROR_RE = re.compile(r"\*\*\* \[[^\]]*?:\d+: (\S+\.o)\] Error")
STAMP = ".demagic-config"


@dataclass(frozen=True)
class Diagnostic:
    """A compiler warning or error, its line number dropped so it survives a patch."""
    file: str
    kind: str
    message: str

    def __str__(self) -> str:
        return f"{self.file}: {self.kind}: {self.message}"


@dataclass
class ObjectResult:
    """One object after a make run."""
    obj: str
    ok: bool
    diagnostics: List[Diagnostic] = field(default_factory=list)

    def warnings(self) -> List[Diagnostic]:
        return [d for d in self.diagnostics if d.kind == "warning"]

    def errors(self) -> List[Diagnostic]:
        return [d for d in self.diagnostics if d.kind == "error"]


def parse_diagnostics(text: str, src: Path) -> List[Diagnostic]:
    """gcc diagnostics of text, paths made relative to the source tree."""
    out = []
    prefix = str(src).rstrip("/") + "/"
    for line in text.splitlines():
        match = DIAG_RE.match(line.strip())
        if match:
            path = match.group("file")
            path = path[len(prefix):] if path.startswith(prefix) else path
            path = re.sub(r"^(\.\./)+", "", path)
            out.append(Diagnostic(path, match.group("kind"), match.group("msg")))
    return out


def new_warnings(before: Sequence[Diagnostic], after: Sequence[Diagnostic]) -> List[Diagnostic]:
    """Warnings after that were not there before (as a multiset)."""
    extra = Counter(d for d in after if d.kind == "warning") - \
        Counter(d for d in before if d.kind == "warning")
    return sorted(extra.elements(), key=str)


@dataclass
class BuildDir:
    """An O= directory for one architecture, used with one source tree."""
    arch: Target
    src: Path
    out: Path
    jobs: int = 2
    use_ccache: bool = True  # compile through demagic.ccache when it is installed
    _config: Optional[Dict[str, str]] = None
    left_out: List[str] = field(default_factory=list)   # fragment symbols the tree lacks

    def make_args(self) -> List[str]:
        args = [*BATCH, "make", "-C", str(self.src), f"O={self.out}", f"ARCH={self.arch.karch}",
                f"CC={CCWRAP} {self.arch.compiler()}", "HOSTCC=gcc"]
        if self.arch.cross:
            args.append(f"CROSS_COMPILE={self.arch.cross}")
        return args

    def ccache_env(self) -> Dict[str, str]:
        """ccache, when installed, keyed on content: a re-run recompiles nothing."""
        return ccache.env() if self.use_ccache else {}

    def _identity(self) -> str:
        frags = "".join(p.read_text() for p in self.arch.fragments())
        return f"{self.src}\n{self.arch.defconfig}\n{frags}"

    def configured(self) -> bool:
        """The directory holds a .config made from the current defconfig and fragments."""
        stamp = self.out / STAMP
        return stamp.is_file() and stamp.read_text() == self._identity() and \
            (self.out / ".config").is_file()

    def configure(self) -> None:
        """defconfig plus the fragments, then the subset check; redone when they change."""
        stamp = self.out / STAMP
        if self.configured():
            self._config = kconfig.parse((self.out / ".config").read_text())
            return
        self.out.mkdir(parents=True, exist_ok=True)
        stamp.unlink(missing_ok=True)
        fitted = self.out / "demagic.fragment"
        wanted, self.left_out = kconfig.fit(self.src, self.arch.fragments(), fitted)
        try:
            self._config = configure(self.src, self.out, self.arch,
                                     lambda target: run(self.make_args() + [target]),
                                     self.arch.defconfig, fitted, wanted)
        except CommandError as exc:
            raise BuildError(f"{self.arch.name}: cannot configure: {exc}") from exc
        stamp.write_text(self._identity())

    @property
    def config(self) -> Dict[str, str]:
        if self._config is None:
            self.configure()
        assert self._config is not None
        return self._config

    def deps(self, obj: str) -> Set[str]:
        """The sources obj was last built from (kbuild's .cmd record), relative to the tree.

        The record names them absolute, or relative to the O= directory when the
        compile went through ccache with a base directory (demagic.ccache)."""
        cmd = self.out / Path(obj).parent / f".{Path(obj).name}.cmd"
        try:
            text = cmd.read_text(errors="replace")
        except OSError:
            return set()
        match = re.search(r"^deps_\S+ := (.*?)^\S+: \$\(deps_", text, re.M | re.S)
        if not match:
            return set()
        src = self.src.resolve()
        out = set()
        source = re.search(r"^source_\S+ := (\S+)", text, re.M)
        tokens = match.group(1).replace("\\\n", " ").split()
        for token in tokens + ([source.group(1)] if source else []):
            if token.startswith("$(") or token.endswith(")") or token == "\\":
                continue
            path = Path(os.path.normpath(self.out / token)) if not token.startswith("/") \
                else Path(token)
            out.add(str(path.relative_to(src)) if path.is_relative_to(src) else token)
        return out

    def build(self, objects: Sequence[str]) -> Dict[str, ObjectResult]:
        """make -k W=1 the objects; each one's result with the diagnostics of its last compile."""
        if not objects:
            return {}
        self.config  # noqa: B018 - configure first
        res = run(self.make_args() + [f"-j{self.jobs}", "-k", "W=1", *objects],
                  check=False, timeout=3600, env=self.ccache_env())
        text = res.stdout + res.stderr
        broken = set(MAKE_ERROR_RE.findall(text))
        out: Dict[str, ObjectResult] = {}
        for obj in objects:
            diag_file = self.out / (obj + ".diag")
            diags = parse_diagnostics(diag_file.read_text(errors="replace"), self.src) \
                if diag_file.is_file() else []
            built = (self.out / obj).is_file()
            ok = built and obj not in broken and not any(d.kind == "error" for d in diags)
            if not ok and not diags:
                diags = [d for d in parse_diagnostics(text, self.src) if d.kind == "error"] or \
                    [Diagnostic(obj, "error", _last_error(text))]
            out[obj] = ObjectResult(obj, ok, diags)
        if res.returncode != 0 and all(r.ok for r in out.values()):
            # make failed before reaching the objects (prepare, a tool): every object fails.
            msg = _last_error(text)
            for obj in objects:
                out[obj] = ObjectResult(obj, False, [Diagnostic(obj, "error", msg)])
        return out


def _last_error(text: str) -> str:
    lines = [ln for ln in text.splitlines() if "error" in ln.lower() or "***" in ln]
    return (lines[0] if lines else (text.strip().splitlines() or ["make failed"])[-1])[:300]


def _pahole(path: Path, struct: str) -> Optional[str]:
    res = run(["pahole", "-C", struct, str(path)], check=False)
    text = res.stdout.strip()
    return text if res.returncode == 0 and text.startswith("struct ") else None


def pahole(obj: Path, struct: str, ld: str) -> Optional[str]:
    """pahole's view of struct in obj's DWARF, or None when obj does not describe it.

    libdw does not apply the debug-section relocations of every architecture's
    relocatable objects (mips64); when pahole finds nothing there, the object is
    linked alone (undefined symbols allowed) and the result read instead.
    """
    text = _pahole(obj, struct)
    if text is not None:
        return text
    linked = obj.with_name(obj.name + ".pahole")
    try:
        run([ld, "--noinhibit-exec", "--unresolved-symbols=ignore-all", "-e", "0",
             "-o", str(linked), str(obj)], check=False)
        return _pahole(linked, struct) if linked.is_file() else None
    finally:
        linked.unlink(missing_ok=True)


def tools_missing(arches: Sequence[Target]) -> List[Tuple[str, str]]:
    """(arch, compiler) pairs whose compiler is not on PATH."""
    return [(a.name, a.compiler()) for a in arches if shutil.which(a.compiler()) is None]
