# SPDX-License-Identifier: GPL-2.0
"""Apply the rules of cocci/ to one target, in a work tree."""

from __future__ import annotations

import json
import os
import re
import tempfile
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Dict, List, Mapping, Optional, Sequence, Tuple

from demagic.core import rules
from demagic.core.rules import rule_options
from demagic.scan import discover
from demagic.rewrite import offsets as layout, preproc, switchoff
from demagic.core import memo
from demagic.model.candidate import Verdict
from demagic.model.target import Target
from demagic.core.proc import CommandError, run
from demagic.core.errors import DemagicError
from demagic.kernel.grep import Grep
from demagic.kernel.source import wrapper_macros
from demagic.rewrite.tidy import drop_member_doc, realign, tidy

RULE_OF = {Verdict.REMOVE: rules.REMOVE, Verdict.FLAG: rules.FLAG}
SPATCH_TIMEOUT = 120.0   # seconds spatch may spend on one file
FILES_PER_RUN = 4


class SpatchError(DemagicError):
    """spatch failed on a file, timed out, or left a use it should have rewritten."""


class ResidueError(SpatchError):
    """spatch ran, but a use of the magic is left: a shape the rules do not handle
    (or code spatch could not parse)."""


@dataclass
class Result:
    """What the rewrite did, for the commit message."""
    files: List[str] = field(default_factory=list)
    wrappers: List[str] = field(default_factory=list)
    offsets: List[str] = field(default_factory=list)
    manual: List[str] = field(default_factory=list)   # why no patch can be made
    defines: Dict[str, str] = field(default_factory=dict)  # the -D of the first spatch run


def wrappers(tree: Path, files: Sequence[str], member: str) -> Tuple[List[str], List[str]]:
    """The wrapper macros of files that store member (setters) or test it for a mismatch
    (checkers), in the order the files define them."""
    found = [w for rel in files for w in wrapper_macros((tree / rel).read_bytes())
             if w.member == member]
    setters = list(dict.fromkeys(w.name for w in found if w.op == "="))
    checkers = list(dict.fromkeys(w.name for w in found if w.op == "!=" and w.name not in setters))
    return setters, checkers


def grep_files(grep: Grep, words: Sequence[str], subdir: Optional[str] = None,
               glob: str = "*.[ch]") -> List[str]:
    """Files of the tree matching glob that mention any of words (one git grep)."""
    options = ["-l", "-w"]
    for w in words:
        options += ["-e", w]
    return sorted(grep.tree(options, [glob], [subdir] if subdir else ["."]).split())


def _spatch(rule: Path, defines: Dict[str, str], tree: Path, rels: Sequence[str]) -> None:
    """Rewrite rels in place with one spatch run, each file a group of its own.

    spatch takes about a second to parse a rule, more than most files take to
    rewrite, so the rule is parsed once for them all.  When the run fails or
    times out, the files get their text back and run one by one, so that the
    error names the file.  A file's result is kept in the cache by what it is
    made from: spatch's version, the rule's text, the options and the file's
    bytes; a run that reports a timeout is not kept."""
    # --no-scanner: the kernel's .cocciconfig asks for --use-gitgrep, which costs a
    # git grep of the whole tree for each group of --file-groups, seconds each.
    argv = ["spatch", "--very-quiet", "--in-place", "--no-scanner", *rule_options(rule),
            "-D", "patch"]
    for key, value in defines.items():
        argv += ["-D", f"{key}={value}" if value else key]      # "": a virtual rule
    settings = [*memo.spatch_inputs(tree), json.dumps(argv), rule.read_text()]
    todo = []
    names = {}
    for rel in rels:
        data = (tree / rel).read_bytes()
        names[rel] = memo.key("spatch", *settings, rel, data)
        kept = memo.get("spatch", names[rel])
        if kept is None:
            todo.append(rel)
        elif kept != data:
            (tree / rel).write_bytes(kept)
    if todo and _spatch_files(argv + ["--sp-file", str(rule)], tree, todo):
        for rel in todo:
            memo.put("spatch", names[rel], (tree / rel).read_bytes())


def _spatch_files(argv: List[str], tree: Path, rels: Sequence[str]) -> bool:
    """Run argv on rels; whether the result may be kept (spatch reported no timeout)."""
    if len(rels) == 1:
        return _spatch_run(argv + [rels[0]], tree, rels[0], SPATCH_TIMEOUT)
    originals = {rel: (tree / rel).read_bytes() for rel in rels}
    with tempfile.NamedTemporaryFile("w", suffix=".groups") as groups:
        groups.write("\n\n".join(rels) + "\n")
        groups.flush()
        try:
            return _spatch_run(argv + ["--file-groups", groups.name], tree, f"{len(rels)} files",
                               SPATCH_TIMEOUT * len(rels))
        except SpatchError:
            pass
    for rel, data in originals.items():
        (tree / rel).write_bytes(data)
    return all([_spatch_run(argv + [rel], tree, rel, SPATCH_TIMEOUT) for rel in rels])


def _spatch_run(argv: Sequence[str], tree: Path, what: str, timeout: float) -> bool:
    try:
        res = run(argv, cwd=tree, check=False, timeout=timeout)
    except CommandError as exc:
        raise SpatchError(f"{what}: spatch timed out after {timeout:.0f} s"
                          if exc.returncode == -1 else f"{what}: {exc}") from exc
    if res.returncode != 0:
        last = (res.stderr.strip().splitlines() or ["no message"])[-1]
        raise SpatchError(f"{what}: spatch failed: {last}")
    return "timeout" not in res.stderr.lower()


def chunks(tree: Path, files: Sequence[str], jobs: int) -> List[List[str]]:
    """files in at most jobs groups of FILES_PER_RUN files or more (but one), spread by
    size: each spatch run pays its rule parse for several files, and the runs end
    together."""
    n = max(1, min(jobs, len(files) // FILES_PER_RUN))
    return [sorted(g) for g, _ in discover.spread(tree, files, n)]


def code_lines(text: str) -> List[str]:
    """The lines of text with comments blanked out (line numbers kept)."""
    def blank(m: "re.Match[str]") -> str:
        return re.sub(r"[^\n]", " ", m.group(0))
    return re.sub(r"/\*.*?\*/|//[^\n]*", blank, text, flags=re.S).splitlines()


def residue(tree: Path, originals: Mapping[str, str], names: Sequence[str]) -> List[str]:
    """file:line (the line) in the original file of every use of names left in the
    code of the files (comments and #if 0 code excluded)."""
    left = []
    for rel, original in originals.items():
        path = tree / rel
        if not path.exists():
            continue
        before = original.splitlines()
        dead = False
        for no, line in enumerate(code_lines(path.read_text(errors="replace")), 1):
            if re.match(r"^\s*#\s*if\s+0\b", line):
                dead = True
            elif dead and re.match(r"^\s*#\s*(endif|else|elif)\b", line):
                dead = False
            if not dead and any(re.search(rf"\b{re.escape(n)}\b", line) for n in names):
                text = path.read_text(errors="replace").splitlines()[no - 1]
                where = before.index(text) + 1 if text in before else no
                left.append(f"{rel}:{where} ({text.strip()})")
    return left


def _flag_dead_code(text: str, member: str, flag: str, bases: Sequence[str]) -> str:
    """Rename the field in #if 0 code, which spatch never parses."""
    out, dead = [], False
    for line in text.splitlines(keepends=True):
        if re.match(r"^\s*#\s*if\s+0\b", line):
            dead = True
        elif dead and re.match(r"^\s*#\s*endif\b", line):
            dead = False
        elif dead:
            for base in bases:
                line = re.sub(rf"\b({re.escape(base)}\s*->\s*){re.escape(member)}\b",
                              rf"\g<1>{flag}", line)
        out.append(line)
    return "".join(out)


def _flag_member_line(original: str, text: str, member: str, flag: str, macros: Sequence[str],
                      what: str) -> str:
    """The new bool member keeps the old column layout, and the old comment unless that
    described the magic encoding; then it gets what, a comment on what the flag says."""
    lines = text.splitlines(keepends=True)
    decl = re.compile(rf"^(\s*)bool\s+{re.escape(flag)};")
    for k, line in enumerate(lines):
        if decl.match(line):
            old = next((o for o in original.splitlines(keepends=True)
                        if re.match(rf"^\s*[\w\s]+?\b{re.escape(member)}\s*;", o)), None)
            bare = re.sub(r"\s*/\*.*\*/\s*$", "", line.rstrip("\n"))
            comment = ""
            if old is not None:
                old_bare = re.sub(r"\s*/\*.*\*/\s*$", "", old.rstrip("\n")) + "\n"
                bare = realign(old_bare, bare + "\n").rstrip("\n")
                m = re.search(r"(\s*)(/\*.*\*/)\s*$", old.rstrip("\n"))
                if m and not re.search(r"magic|" + "|".join(map(re.escape, macros)), m.group(2),
                                       re.I):
                    comment = m.group(1) + m.group(2)
            if not comment and what:
                comment = "\t/* " + what + " */"
            lines[k] = bare + comment + "\n"
    return "".join(lines)


def _bases(diff_old: str, member: str) -> List[str]:
    return sorted(set(re.findall(rf"\b(\w+)\s*->\s*{re.escape(member)}\b", diff_old)))


def seeing(tree: Path, files: Sequence[str], macros: Sequence[str], defined_in: str) -> List[str]:
    """The files of files that see the #define in defined_in, when others define the same
    name (a MAGIC of one driver's header is not the MAGIC of another's): defined_in, and
    the files of files that include it, or include one of them that does.  files as they are when
    only one file defines it."""
    texts = {rel: (tree / rel).read_text(errors="replace") for rel in files}
    names = "|".join(re.escape(m) for m in macros)
    define = re.compile(rf"^[ \t]*#[ \t]*define[ \t]+(?:{names})\b", re.M)
    definers = {rel for rel, text in texts.items() if define.search(text)}
    if not defined_in or not definers - {defined_in}:
        return list(files)
    seen = {defined_in}
    grown = True
    while grown:
        bases = {os.path.basename(rel) for rel in seen}
        grown = False
        for rel, text in texts.items():
            if rel in seen or rel in definers:
                continue
            included = {os.path.basename(m) for m in re.findall(
                r'^[ \t]*#[ \t]*include[ \t]*["<]([^">]+)[">]', text, re.M)}
            if included & bases:
                seen.add(rel)
                grown = True
    return [rel for rel in files if rel in seen]


def mentioning(tree: Path, pool: Sequence[str], words: Sequence[str]) -> List[str]:
    """The files of pool (from one earlier grep) that still mention words."""
    pat = re.compile(r"\b(" + "|".join(re.escape(w) for w in words) + r")\b")
    return [rel for rel in pool
            if (tree / rel).exists() and pat.search((tree / rel).read_text(errors="replace"))]


def apply(tree: Path, target: Target, jobs: int, subdir: Optional[str] = None,
          pool: Optional[Sequence[str]] = None, grep: Optional[Grep] = None) -> Result:
    """Rewrite the tree for target in place; the tree is a work copy.

    pool, when given, is the files a single grep found for all targets; grep, how the
    tree is grepped (default: as it is)."""
    grep = grep or Grep(tree)
    result = Result()
    files = (mentioning(tree, pool, target.macros) if pool is not None
             else grep_files(grep, target.macros, subdir))
    if target.header and target.header not in files and (tree / target.header).exists():
        files.append(target.header)
    files = seeing(tree, files, target.macros, target.defined_in)
    if subdir:
        outside = [f for f in grep_files(grep, target.macros)
                   if f not in files and not f.startswith(subdir.rstrip("/") + "/")]
        if outside:
            result.manual.append(f"also used outside M={subdir} ({', '.join(outside[:3])}): "
                                 "run without M=")
            return result
    if target.switch:
        files += [f for f in grep_files(grep, [target.switch, *target.noops]) if f not in files]
    setters, checkers = wrappers(tree, files, target.member)
    # Wrappers are only looked for, and removed, where the magic is used.
    result.wrappers = setters + checkers
    originals = {rel: (tree / rel).read_text(errors="replace") for rel in files}
    if target.switch:
        try:
            switchoff.retire(tree, files, target.switch, target.noops)
        except switchoff.NoopUseError as exc:
            raise ResidueError(str(exc)) from exc
    rule = RULE_OF[target.verdict]
    for macro in target.macros:
        defines = {"magic": macro, "member": target.member, "sname": target.struct}
        if target.verdict is Verdict.FLAG:
            defines["flag"] = target.flag
        if setters:
            defines["setter"] = setters[0]
        if checkers:
            defines["checker"] = checkers[0]
        if target.keep_define:
            defines["keep_define"] = ""
        result.defines = result.defines or dict(defines)
        with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
            list(pool.map(lambda part: _spatch(rule, defines, tree, part),
                          chunks(tree, files, jobs)))
    # a constant used elsewhere stays; what must be gone is its field (the series writer's
    # leftover check) and its wrappers
    dead = ([] if target.keep_define else list(target.macros)) + result.wrappers
    if target.switch:
        dead += [target.switch, *target.noops]
    plan = layout.offset_plan(grep, target, originals)
    users = [f for f in grep_files(grep, plan.dead_macros, glob="*.[chS]")
             if f != target.header] \
        if plan.dead_macros else []
    if users:
        plan.manual = f"{', '.join(plan.dead_macros)} still used in {', '.join(users[:3])}"
    if plan.manual:
        result.manual.append(plan.manual)
        return result
    for rel, original in originals.items():
        path = tree / rel
        text = path.read_text(errors="replace")
        text = plan.apply(rel, text)
        if target.verdict is Verdict.FLAG:
            text = _flag_member_line(original, text, target.member, target.flag, target.macros,
                                     target.flag_comment)
            text = _flag_dead_code(text, target.member, target.flag,
                                   _bases(original, target.member))
        text = preproc.clean(original, text, dead + plan.dead_macros)
        text = tidy(original, text)
        if target.verdict is Verdict.REMOVE:
            text = drop_member_doc(original, text, target.struct, target.member)
        if text != original:
            path.write_text(text)
            result.files.append(rel)
    result.offsets = plan.changes
    left = residue(tree, originals, dead)
    if left:
        more = f" and {len(left) - 3} more" if len(left) > 3 else ""
        raise ResidueError(f"{' '.join(target.macros)} is still used at {', '.join(left[:3])}"
                          f"{more}: a use the rules do not rewrite, or code spatch could not "
                          "parse")
    return result
