# SPDX-License-Identifier: GPL-2.0
"""Commit messages written from what the scan found, in kernel style.

Every sentence comes from the magic's own evidence: where it is set, what
each check does on a mismatch (evidence/shapes.py), where the checked
pointers come from, whether the checks are compiled at all, what the patch
removes (read back from the change itself) and how behaviour changes.
"""

from __future__ import annotations

import os
import re
import textwrap
from dataclasses import dataclass
from pathlib import Path
from typing import Dict, List, Optional, Sequence

from demagic.model import DEBUG, Candidate, CheckShape, Site, Verdict
from demagic.patches import Patch, Removed
from demagic.proc import run
from demagic.rewrite import Result, Target

PREFIXES = Path(__file__).resolve().parents[1] / "subject-prefixes"
WIDTH = 72


@dataclass(frozen=True)
class Tools:
    """What made the series, for the line that says so."""
    spatch: str          # "spatch 1.1.1"
    demagic: str         # "demagic 0.5"
    rules: Dict[str, str]   # rule file name -> first 12 hex digits of its sha256


@dataclass(frozen=True)
class Change:
    """The change a patch makes, read back from its diff."""
    patch: Patch
    removed: List[Removed]
    registry: List[str]      # registry files whose rows it drops


def group_name(macros: Sequence[str]) -> str:
    """QUEUE_MAGIC_FREE + QUEUE_MAGIC_USED -> QUEUE_MAGIC_{FREE,USED}."""
    if len(macros) == 1:
        return macros[0]
    head = os.path.commonprefix(list(macros))
    head = head[:head.rfind("_") + 1] if "_" in head else head
    return head + "{" + ",".join(m[len(head):] for m in macros) + "}"


GENERIC_DIRS = {"arch", "drivers", "include", "linux", "asm", "uapi", "kernel", "hw", "core",
                "common", "src", "lib"}


def prefix_for(tree: Path, files: Sequence[str], has_history: bool) -> str:
    """The subsystem's own subject prefix for the most changed file."""
    code = [f for f in files if not f.startswith("Documentation/")] or list(files)
    if has_history:
        for rel in code:
            res = run(["git", "-C", str(tree), "log", "-20", "--format=%s", "--", rel], check=False)
            subjects = [s for s in res.stdout.splitlines() if ":" in s and not s.startswith("Merge")]
            if subjects:
                return subjects[0].rsplit(":", 1)[0]
    best = ""
    prefix = "Documentation" if not code else ""
    for line in PREFIXES.read_text().splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        path, _, value = line.partition("\t")
        if any(f.startswith(path) for f in code[:1]) and len(path) > len(best):
            best, prefix = path, value.strip()
    if prefix:
        return prefix
    # No entry: the nearest directory that names something (drivers/fsi -> fsi).
    dirs = [d for d in code[0].split("/")[:-1] if d not in GENERIC_DIRS]
    return dirs[-1] if dirs else code[0].split("/")[-1].split(".")[0]


def flow(paragraph: str) -> str:
    return textwrap.fill(paragraph, width=WIDTH, break_on_hyphens=False, break_long_words=False)


def _and(items: Sequence[str]) -> str:
    items = list(dict.fromkeys(i for i in items if i))
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


def _fn(site: Site) -> str:
    return f"{site.function}()" if site.function else Path(site.file).name


def _fns(sites: Sequence[Site]) -> str:
    return _and([_fn(s) for s in sites])


# What one statement of an error path does, in words.
STEP_WORDS = (
    (re.compile(r"^return$"), "returns"),
    (re.compile(r"^return (.+)$"), r"returns \1"),
    (re.compile(r"^goto (\w+)$"), r"jumps to \1"),
    (re.compile(r"^break$"), "leaves the loop"),
    (re.compile(r"^continue$"), "skips to the next one"),
    (re.compile(r"^(?:\w*BUG|panic)\b"), "crashes the machine"),
    (re.compile(r"^(WARN\w*)\("), r"warns (\1)"),
    (re.compile(r"^(\w*unlock\w*|up|up_read|up_write)\("), r"releases its lock (\1())"),
    (re.compile(r"^(?:\w*_put|put_\w+|kfree|kvfree)\("), "drops what it took"),
    (re.compile(r"^([\w.>\-\[\]]+) = (.+)$"), r"sets \1 to \2"),
)


def path_words(text: str) -> str:
    """'pr_err(...); return -EINVAL' -> 'prints a message and returns -EINVAL'."""
    steps = []
    for part in [p.strip() for p in text.split(";") if p.strip()]:
        for rx, words in STEP_WORDS:
            if rx.search(part):
                steps.append(rx.sub(words, part) if "\\" in words else words)
                break
        else:
            steps.append("prints a message" if re.match(r"^\w+\(", part) else part)
    steps = list(dict.fromkeys(steps))
    return _and(steps) or "does nothing"


def calls_words(text: str) -> str:
    """'unregister_netdev(dev); free_netdev(dev)' -> 'unregister_netdev() and free_netdev()'."""
    parts = [p.strip() for p in text.split(";") if p.strip()]
    names = [re.sub(r"^(\w+)\s*\(.*$", r"\1()", p) if re.match(r"^\w+\s*\(", p) else p
             for p in parts]
    return _and(names)


def check_sentence(shapes: Sequence[CheckShape], guard: str) -> List[str]:
    """One sentence per kind of check, naming the functions."""
    by: Dict[str, List[CheckShape]] = {}
    for s in shapes:
        by.setdefault(s.kind if s.kind != "dead" else "dead", []).append(s)
    out = []
    for kind, group in by.items():
        where = _fns([s.site for s in group])
        if kind in ("assert", "warn") and all(s.mismatch.startswith(("BUG", "WARN", "VM_BUG"))
                                              for s in group):
            macro = group[0].mismatch.split("(")[0]
            verb = "crashes the machine" if "BUG" in macro else "warns and goes on"
            out.append(f"In {where}, {macro}() {verb} on a mismatch.")
        elif kind == "else-error":
            s = group[0]
            out.append(f"In {where}, a match calls {calls_words(s.match)}; a mismatch only "
                       f"{path_words(s.mismatch)}.")
        elif kind == "match-error":
            out.append(f"In {where}, finding the magic already there "
                       f"{path_words(group[0].mismatch).replace('returns', 'makes it return')}.")
        else:
            paths = _and([path_words(s.mismatch) for s in group])
            out.append(f"In {where}, a mismatch {paths}.")
    if guard:
        out.append(f"The check{'s are' if len(shapes) > 1 else ' is'} only compiled with {guard} "
                   "defined, and nothing in the tree defines it.")
    return out


OWN_SOURCE = re.compile(r"netdev_priv|container_of|list_entry|_priv\(|k[mzc]?alloc|parameter")


def source_sentence(c: Candidate) -> str:
    """Where the checked pointers come from, when the scan followed them."""
    srcs = [f.what for f in c.evidence.sources]
    if not srcs:
        return ""
    uniq = list(dict.fromkeys(re.sub(r"^\w+ = ", "", s) for s in srcs))
    if len(uniq) > 3:
        return ""
    text = f"The checked pointer{'s come' if len(srcs) > 1 else ' comes'} from {_and(uniq)}"
    if all(OWN_SOURCE.search(s) for s in uniq):
        text += (": a typed argument or the driver's own memory, so a mismatch can only be "
                 "memory that was overwritten or freed")
    return text + "."


def change_sentences(c: Candidate) -> List[str]:
    """How behaviour changes once the checks are gone."""
    out = []
    shapes = [s for s in c.evidence.shapes if s.role == DEBUG and s.kind != "dead"]
    exits = [s for s in shapes if s.kind in ("early-exit", "message", "warn", "match-error")
             and re.search(r"\b(?:return|goto|break|continue)\b", s.mismatch)]
    if exits:
        out.append(f"Where a mismatch made {_fns([s.site for s in exits])} give up, "
                   f"{'they go' if len({_fn(s.site) for s in exits}) > 1 else 'it goes'} on now.")
    crashes = [s for s in shapes if s.kind == "assert" and "BUG" in s.mismatch.split("(")[0]]
    if crashes:
        out.append(f"{_fns([s.site for s in crashes])} no longer crash"
                   f"{'es' if len(crashes) == 1 else ''} on a mismatch.")
    for s in shapes:
        if s.kind == "else-error":
            out.append(f"{_fn(s.site)} used to skip {calls_words(s.match)} on a mismatch; "
                       "it now always calls them." if ";" in s.match.rstrip("; ") else
                       f"{_fn(s.site)} used to skip {calls_words(s.match)} on a mismatch; "
                       "it now always calls it.")
    kept = [s for s in shapes if s.kept]
    for s in kept:
        out.append(f"In {_fn(s.site)}, the test of {_and(s.kept.split('; '))} stays.")
    return out


def removal_sentence(target: Target, cands: Sequence[Candidate], result: Result,
                     change: Change) -> str:
    """What the patch removes, read back from its diff."""
    checks = [s for c in cands for s in c.evidence.shapes]
    sets = [s for c in cands for s in c.sets]
    dead = [s for c in cands for s in c.evidence.dead_sets]
    what = []
    if checks:
        what.append("the check" if len(checks) == 1 else "the checks")
    what.append("the assignment" if len(sets) + len(dead) == 1 else "the assignments")
    what.append("the field")
    what.append("the #define" if len(target.macros) == 1 else "the #defines")
    if result.wrappers:
        what.append(f"the macro{'s' if len(result.wrappers) > 1 else ''} that wrapped them "
                    f"({', '.join(w + '()' for w in result.wrappers)})")
    mine = set(target.macros) | set(result.wrappers) | {target.member}
    extra_macros = sorted({r.name for r in change.removed if r.kind == "macro"
                           and r.name not in mine and r.name not in result.offsets})
    statics = sorted({r.name for r in change.removed if r.kind == "static"})
    if statics:
        what.append(f"{_and(statics)}, which only the checks used")
    if extra_macros:
        what.append(f"#define {_and(extra_macros)}, which only switched the checks on")
    if comment_lines(change.patch):
        what.append("the comments that described them")
    text = "Remove " + _and(what)
    if change.registry:
        main, translations = change.registry[0], len(change.registry) - 1
        text += (f", and the row{'s' if len(target.macros) > 1 else ''} in {main}"
                 + (f" and its {translations} translation{'s' if translations > 1 else ''}"
                    if translations else ""))
    return text + "."


def comment_lines(patch: Patch) -> int:
    """Lines of C comments the patch removes."""
    n = 0
    for f in patch.files:
        if not f.path.endswith((".c", ".h")):
            continue
        n += sum(1 for ln in f.removed() if re.match(r"^\s*(/\*|\*|//)", ln.text))
    return n


def tool_sentence(target: Target, result: Result, rule: Path, tools: Tools) -> str:
    opts = " ".join(f"{k}={v}" for k, v in result.defines.items())
    again = (f" (again with magic={', '.join(target.macros[1:])})"
             if len(target.macros) > 1 else "")
    return (f"Made with Coccinelle ({tools.spatch}) and {tools.demagic}'s {rule.name} "
            f"(sha256 {tools.rules.get(rule.name, '?')}, in the cover letter), "
            f"run with {opts}{again}.")


def _intro(target: Target, cands: Sequence[Candidate]) -> str:
    c = cands[0]
    name = group_name(target.macros)
    where = f"struct {c.struct}" + (f" ({c.header})" if c.header else "")
    checked = [m for m in cands if m.evidence.shapes]
    sets = [s for m in (checked or cands) for s in m.sets]
    verb = "are" if len(target.macros) > 1 else "is"
    text = f"{name} {verb} kept in the {c.field} field of {where}"
    if sets:
        text += f" and set in {_fns(sets)}"
    text += "."
    for m in cands:
        if not m.evidence.shapes and m.sets and checked:
            text += f" {m.macro} is stored there in {_fns(m.sets)} and never compared."
    return text


def remove_body(target: Target, cands: Sequence[Candidate], result: Result,
                change: Change, tools: Tools, rule: Path) -> str:
    shapes = [s for c in cands for s in c.evidence.shapes]
    c = cands[0]
    paras = [_intro(target, cands)]
    if shapes:
        paras.append(" ".join(check_sentence(shapes, c.evidence.guard)))
        if c.evidence.guard:
            paras.append("The checks are dead code; the field and its assignment are all "
                         "they leave at run time.")
        else:
            why = ["These are debug checks: a mismatch only takes an error path, and a match "
                   "runs on as it would without them."]
            src = source_sentence(c)
            if src:
                why.append(src)
            why.append("Slab debugging and KASAN report overwritten or freed memory where it "
                       "happens.")
            paras.append(" ".join(why))
            changes = [s for m in cands for s in change_sentences(m)]
            if changes:
                paras.append(" ".join(dict.fromkeys(changes)))
    else:
        paras.append(f"Nothing compares or reads the field: it is written in "
                     f"{_fns([s for m in cands for s in m.sets])} and never read, in memory "
                     "the kernel allocates for itself. It only costs the field and the store.")
    paras.append(removal_sentence(target, cands, result, change))
    if result.offsets:
        paras.append("Assembly reaches this structure through hand-written offsets; "
                     "they move down with the field: " + ", ".join(result.offsets) + ".")
    paras.append(tool_sentence(target, result, rule, tools))
    return "\n\n".join(flow(p) for p in paras)


def flag_body(target: Target, cands: Sequence[Candidate], result: Result, change: Change,
              tools: Tools, rule: Path) -> str:
    c = cands[0]
    ev = c.evidence
    ones = [s for s in ev.flag_sets if s.kind == "set"]
    zeros = [s for s in ev.flag_sets if s.kind == "clear"]
    truths = [s for s in c.checks if s.kind == "truth"]
    paras = [_intro(target, cands)]
    states = []
    if ones:
        states.append(f"set to 1 in {_fns(ones)}")
    if zeros:
        states.append(f"cleared to 0 in {_fns(zeros)}")
    state = f"Besides the magic, the field is {_and(states)}"
    state += f", and tested for truth in {_fns(truths)}" if truths else ""
    state += f": it says whether the {c.struct} is {'in use' if target.flag == 'busy' else target.flag}."
    paras.append(state)
    same = target.flag == target.member
    paras.append(f"Make it a bool{'' if same else ' ' + target.flag}: true where the magic"
                 f"{' or 1' if ones else ''} was stored, false where 0 was, and each compare "
                 "with the magic a truth test.")
    for s in ev.shapes:
        if s.role == DEBUG and ones:
            paras.append(
                f"In {_fn(s.site)}, the compare with {target.macros[0]} now also lets "
                f"through a {c.struct} set to 1 in {_fns(ones)} but not yet to the magic. "
                f"That compare only made {_fn(s.site)} {path_words(s.mismatch)} (a debug "
                "check), so widening it changes no normal path.")
    rest = ["the #define"]
    if comment_lines(change.patch):
        rest.append("the comment that described the magic encoding")
    text = f"Remove {_and(rest)}"
    if change.registry:
        text += f", and the row in {change.registry[0]}"
        if len(change.registry) > 1:
            text += f" and its {len(change.registry) - 1} translations"
    paras.append(text + ".")
    paras.append(tool_sentence(target, result, rule, tools))
    return "\n\n".join(flow(p) for p in paras)


def body(target: Target, cands: Sequence[Candidate], result: Result, change: Change,
         tools: Tools, rule: Path) -> str:
    """The commit message body for a removal or a flag conversion."""
    if target.verdict is Verdict.FLAG:
        return flag_body(target, cands, result, change, tools, rule)
    return remove_body(target, cands, result, change, tools, rule)


def keep_body(c: Candidate, registry: Sequence[str]) -> str:
    where = registry[0] if registry else "the registry"
    more = f" and its {len(registry) - 1} translations" if len(registry) > 1 else ""
    return flow(f"{c.macro} is not a magic number: {c.reason.rstrip('.')}. Drop its row "
                f"from {where}{more}; the code stays as it is.")


def removal_body(registry: Sequence[str]) -> str:
    more = f" and its {len(registry) - 1} translations" if len(registry) > 1 else ""
    return flow(f"Every magic number {registry[0]} listed is now either gone or not a magic "
                f"number at all, and new code should not add any: remove it{more}, and their "
                "entries in the index files beside them.")
