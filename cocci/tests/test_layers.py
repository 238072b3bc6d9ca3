# SPDX-License-Identifier: GPL-2.0
"""The layering of demagic, read from the imports (module level and inside functions).

Stages import only downwards: core < model < kernel < scan < judge < rewrite <
series < verify, qemu < cli.  verify and qemu stand side by side and do not import
each other.  No two modules import each other, directly or around a longer cycle.
"""

from __future__ import annotations

import ast
import tempfile
import unittest
from pathlib import Path
from typing import Dict, List, Optional, Set

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = {"demagic": ROOT / "cocci" / "demagic", "verify": ROOT / "verify", "qemu": ROOT / "qemu"}
# the rank of each stage: a module may import its own stage and those ranked lower
RANKS = {"demagic.core": 0, "demagic.model": 1, "demagic.kernel": 2, "demagic.scan": 3,
         "demagic.judge": 4, "demagic.rewrite": 5, "demagic.series": 6, "verify": 7,
         "qemu": 7, "demagic.cli": 8, "demagic.__main__": 9}


def modules(packages: Dict[str, Path]) -> Dict[str, Path]:
    """Every module of the packages by its dotted name (tests excluded)."""
    out = {}
    for name, top in packages.items():
        for path in sorted(top.rglob("*.py")):
            rel = path.relative_to(top).with_suffix("")
            if "tests" in rel.parts:
                continue
            parts = [p for p in rel.parts if p != "__init__"]
            out[".".join([name, *parts])] = path
    return out


def imports(path: Path, name: str, known: Set[str]) -> Set[str]:
    """The modules of known that the module imports, anywhere in it."""
    tree = ast.parse(path.read_text(), str(path))
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: Set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            targets = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                up = package.split(".")[:len(package.split(".")) - node.level + 1]
                base = ".".join(up + ([base] if base else []))
            targets = [f"{base}.{a.name}" for a in node.names] + [base]
        else:
            continue
        for target in targets:
            while target and target not in known:
                target = target.rpartition(".")[0]
            if target and target != name:
                found.add(target)
    return found


def stage(module: str) -> Optional[str]:
    """The stage a module belongs to (the longest prefix of RANKS)."""
    best = None
    for prefix in RANKS:
        if module == prefix or module.startswith(prefix + "."):
            if best is None or len(prefix) > len(best):
                best = prefix
    return best


def graph(packages: Dict[str, Path]) -> Dict[str, Set[str]]:
    mods = modules(packages)
    known = set(mods)
    return {name: {t for t in imports(path, name, known) if not _is_package_of(t, name)}
            for name, path in mods.items()}


def _is_package_of(target: str, name: str) -> bool:
    """A package's __init__ imported by its own module (no edge worth a rule)."""
    return name.startswith(target + ".")


def upward(edges: Dict[str, Set[str]]) -> List[str]:
    """Each import of a higher stage, or of a peer stage of the same rank."""
    out = []
    for src, targets in sorted(edges.items()):
        s = stage(src)
        for dst in sorted(targets):
            d = stage(dst)
            if s is None or d is None:
                out.append(f"{src} -> {dst}: outside every stage")
            elif RANKS[d] > RANKS[s] or (RANKS[d] == RANKS[s] and d != s):
                out.append(f"{src} ({s}) imports {dst} ({d})")
    return out


def cycles(edges: Dict[str, Set[str]]) -> List[List[str]]:
    """The strongly connected components of more than one module (Tarjan)."""
    index: Dict[str, int] = {}
    low: Dict[str, int] = {}
    stack: List[str] = []
    on: Set[str] = set()
    out: List[List[str]] = []
    counter = [0]

    def visit(v: str) -> None:
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in sorted(edges.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for v in sorted(edges):
        if v not in index:
            visit(v)
    return out


class Layers(unittest.TestCase):
    def test_every_module_has_a_stage(self) -> None:
        self.assertEqual([m for m in modules(PACKAGES) if stage(m) is None and m != "demagic"], [])

    def test_imports_only_go_down(self) -> None:
        self.assertEqual(upward(graph(PACKAGES)), [])

    def test_no_cycle(self) -> None:
        self.assertEqual(cycles(graph(PACKAGES)), [])


class Planted(unittest.TestCase):
    """The checks above catch what they are for, on a copy with one import planted."""

    def plant(self, files: Dict[str, str]) -> Dict[str, Set[str]]:
        tmp = Path(tempfile.mkdtemp(prefix="demagic-layers."))
        self.addCleanup(lambda: __import__("shutil").rmtree(tmp))
        for rel, text in files.items():
            path = tmp / rel
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text)
        return graph({"demagic": tmp / "demagic"})

    def test_an_upward_import_is_caught(self) -> None:
        edges = self.plant({
            "demagic/__init__.py": "", "demagic/kernel/__init__.py": "",
            "demagic/series/__init__.py": "",
            "demagic/series/cover.py": "from demagic.kernel import tree\n",
            "demagic/kernel/tree.py": "def f():\n    from demagic.series.cover import x\n"})
        self.assertEqual(upward(edges), ["demagic.kernel.tree (demagic.kernel) imports "
                                         "demagic.series.cover (demagic.series)"])

    def test_a_cycle_is_caught(self) -> None:
        edges = self.plant({
            "demagic/__init__.py": "", "demagic/scan/__init__.py": "",
            "demagic/scan/a.py": "from demagic.scan import b\n",
            "demagic/scan/b.py": "from .c import x\n",
            "demagic/scan/c.py": "import demagic.scan.a\n"})
        self.assertEqual(upward(edges), [])
        self.assertEqual(cycles(edges), [["demagic.scan.a", "demagic.scan.b", "demagic.scan.c"]])

    def test_peers_do_not_import_each_other(self) -> None:
        self.assertEqual(upward({"verify.run": {"qemu.kernel"}}),
                         ["verify.run (verify) imports qemu.kernel (qemu)"])


if __name__ == "__main__":
    unittest.main()
