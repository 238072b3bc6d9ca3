# SPDX-License-Identifier: GPL-2.0
"""Commit messages written from what the scan found, in kernel style.

Every sentence comes from the magic's own evidence: where it is set, what
each check does on a mismatch (evidence/shapes.py), where the checked
pointers come from, whether the checks are compiled at all, what the patch
removes (read back from the change itself) and how behaviour changes.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Dict, List, Sequence

from demagic.core.paths import COCCI
from demagic.core.prose import and_list, flow
from demagic.kernel.registry import Entry
from demagic.model.candidate import Candidate, CheckShape, Finding, Role, Site, SiteKind, Verdict
from demagic.model.patches import Patch, Removed
from demagic.core.proc import run
from demagic.model.target import Target, group_name
from demagic.rewrite.apply import Result

PREFIXES = COCCI / "subject-prefixes"


@dataclass(frozen=True)
class Tools:
    """What made the series, for the line that says so."""
    spatch: str          # "spatch 1.1.1"
    demagic: str         # "demagic 0.5"
    rules: Dict[str, str]   # rule file name -> first 12 hex digits of its sha256
    unifdef: str = "unifdef"   # "unifdef 2.10", which retires a dead switch


@dataclass(frozen=True)
class Change:
    """The change a patch makes, read back from its diff."""
    patch: Patch
    removed: List[Removed]
    registry: List[str]      # registry files whose rows it drops


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


# What one statement of an error path does, in words (third person, then base form).
STEP_WORDS = (
    (re.compile(r"^return$"), "returns", "return"),
    (re.compile(r"^return (.+)$"), r"returns \1", r"return \1"),
    (re.compile(r"^goto (\w+)$"), r"jumps to \1", r"jump to \1"),
    (re.compile(r"^break$"), "leaves the loop", "leave the loop"),
    (re.compile(r"^continue$"), "skips to the next one", "skip to the next one"),
    (re.compile(r"^(?:\w*BUG|panic)\b"), "crashes the machine", "crash the machine"),
    (re.compile(r"^(WARN\w*)\("), r"warns (\1())", r"warn (\1())"),
    (re.compile(r"^(\w*unlock\w*|up|up_read|up_write)\("), r"unlocks (\1())", r"unlock (\1())"),
    (re.compile(r"^(?:\w*_put|put_\w+|kfree|kvfree)\("), "drops what it took", "drop what it took"),
    (re.compile(r"^([\w.>\-\[\]]+) = (.+)$"), r"sets \1 to \2", r"set \1 to \2"),
    (re.compile(r"^\w+\("), "prints a message", "print a message"),
)


def path_words(text: str, base: bool = False) -> str:
    """'pr_err(...); return -EINVAL' -> 'prints a message and returns -EINVAL'
    (base: 'print a message and return -EINVAL')."""
    steps = []
    for part in [p.strip() for p in text.split(";") if p.strip()]:
        for rx, third, plain in STEP_WORDS:
            m = rx.match(part)
            if m:
                steps.append(m.expand(plain if base else third))
                break
        else:
            steps.append(part)
    return and_list(list(dict.fromkeys(steps))) or ("do nothing" if base else "does nothing")


def expr_text(expr: str) -> str:
    """Kernel spacing for a member chain: 'bc -> hdrv' -> 'bc->hdrv'."""
    return re.sub(r"\s*(->|\.)\s*", r"\1", " ".join(expr.split()))


def calls_words(text: str) -> str:
    """'unregister_netdev(dev); free_netdev(dev)' -> 'unregister_netdev() and free_netdev()'."""
    parts = [p.strip() for p in text.split(";") if p.strip()]
    names = [re.sub(r"^(\w+)\s*\(.*$", r"\1()", p) if re.match(r"^\w+\s*\(", p) else p
             for p in parts]
    return and_list(names)


def check_sentence(shapes: Sequence[CheckShape], guard: str) -> List[str]:
    """What each check does on a mismatch, functions that do the same named together."""
    out: List[str] = []
    asserts: Dict[str, List[CheckShape]] = {}
    paths: Dict[str, List[CheckShape]] = {}
    for s in shapes:
        macro = s.mismatch.split("(")[0]
        if s.kind in ("assert", "warn") and macro in ("BUG_ON", "WARN_ON", "WARN_ON_ONCE", "WARN",
                                                     "WARN_ONCE", "VM_BUG_ON") \
                and s.mismatch.startswith(macro + "(") and ";" not in s.mismatch:
            asserts.setdefault(macro, []).append(s)
        elif s.kind == "else-error":
            out.append(f"In {s.site.where}, a match calls {calls_words(s.match)}; a mismatch "
                       f"only {path_words(s.mismatch)}.")
        elif s.kind == "match-error":
            out.append(f"In {s.site.where}, finding the magic already there makes it "
                       f"{path_words(s.mismatch, base=True)}.")
        else:
            paths.setdefault(path_words(s.mismatch), []).append(s)
    for macro, group in asserts.items():
        verb = "crashes the machine on a mismatch" if "BUG" in macro else \
            "warns on a mismatch and goes on"
        out.append(f"In {and_list(s.site.where for s in group)}, {macro}() {verb}.")
    parts = [f"in {and_list(s.site.where for s in group)} a mismatch {words}"
             for words, group in paths.items()]
    if parts:
        out.append(_cap("; ".join(parts)) + ".")
    if guard:
        out.append(f"The check{'s are' if len(shapes) > 1 else ' is'} only compiled with {guard} "
                   "defined, and nothing in the tree defines it.")
    return out


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]


def warrant_sentences(cands: Sequence[Candidate], shapes: Sequence[CheckShape]) -> List[str]:
    """Why only an object of the struct reaches the checks (evidence/warrants.py), check
    by check; where the scan found no such reason, where the pointer comes from."""
    c = cands[0]
    at = {(f.site.file, f.site.line): f.what for m in cands for f in m.evidence.warrants}
    came = {(f.site.file, f.site.line): expr_text(f.what.split(" = ", 1)[-1])
            for m in cands for f in m.evidence.sources}
    ops = {(f.site.file, f.site.line): f.what for m in cands for f in m.evidence.operations}
    found: Dict[str, List[str]] = {}
    unknown: Dict[str, List[str]] = {}
    tables: Dict[str, List[str]] = {}
    for s in shapes:
        if s.role is not Role.DEBUG or s.kind == "dead":
            continue
        key = (s.site.file, s.site.line)
        if key in at:
            found.setdefault(at[key], []).append(s.site.where)
        else:
            unknown.setdefault(came.get(key, "a pointer the scan did not follow"),
                               []).append(s.site.where)
        if key in ops:
            tables.setdefault(ops[key], []).append(s.site.where)
    out = []
    if found:
        parts = [f"in {and_list(where)} the pointer is {what}" for what, where in found.items()]
        head = (f"Only a struct {c.struct} reaches "
                + ("these checks" if sum(map(len, found.values())) > 1 else "this check")
                if not unknown else "Where the checked pointer comes from")
        out.append(f"{head}: " + "; ".join(parts) + ".")
    by_function: Dict[str, List[str]] = {}
    for table, where in tables.items():
        for w in where:
            by_function.setdefault(w, []).append(table)
    by_tables: Dict[str, List[str]] = {}
    for function, found_in in by_function.items():
        kind = {t.rsplit(" in ", 1)[0] for t in found_in}
        files = and_list(sorted({t.rsplit(" in ", 1)[1] for t in found_in}))
        text = (f"the {kind.pop()} of {files}" if len(kind) == 1 else
                and_list(sorted(found_in)))
        by_tables.setdefault(text, []).append(function)
    for text, functions in by_tables.items():
        many = len(functions) > 1
        out.append(f"{and_list(functions)} {'are operations' if many else 'is an operation'} "
                   f"of {text}.")
    if unknown:
        parts = [f"in {and_list(where)} ({src})" for src, where in unknown.items()]
        out.append("Nothing the scan found fixes the pointer's type "
                   + " or ".join(parts) + ".")
    return out


def change_sentences(shapes: Sequence[CheckShape]) -> List[str]:
    """How behaviour changes once the checks are gone."""
    out = []
    shapes = [s for s in shapes if s.role == Role.DEBUG and s.kind != "dead"]
    exits: Dict[str, List[CheckShape]] = {}
    for s in shapes:
        if s.kind == "match-error" and s.kept:
            out.append(f"In {s.site.where}, the error path ({path_words(s.mismatch)}) now runs "
                       f"whenever {and_list(s.kept.split('; '))} holds, not only with the magic "
                       "there too.")
        elif s.kind in ("early-exit", "message", "warn", "match-error") and \
                re.search(r"\b(?:return|goto|break|continue)\b", s.mismatch):
            exits.setdefault(path_words(exit_part(s.mismatch), base=True), []).append(s)
    for words, group in exits.items():
        names = {s.site.where for s in group}
        out.append(f"Where {'a match' if group[0].kind == 'match-error' else 'a mismatch'} made "
                   f"{and_list(s.site.where for s in group)} {words}, "
                   f"{'they go' if len(names) > 1 else 'it goes'} on now.")
    crashes = [s for s in shapes if s.kind == "assert" and "BUG" in s.mismatch.split("(")[0]]
    if crashes:
        out.append(f"{and_list(s.site.where for s in crashes)} no longer crash"
                   f"{'es' if len({s.site.where for s in crashes}) == 1 else ''} on a mismatch.")
    for s in shapes:
        if s.kind == "else-error":
            many = ";" in s.match.strip().rstrip(";")
            out.append(f"{s.site.where} used to skip {calls_words(s.match)} on a mismatch; it now "
                       f"always calls {'them' if many else 'it'}.")
    kept = list(dict.fromkeys(k for s in shapes if s.kind != "match-error"
                              for k in s.kept.split("; ") if k))
    if len(kept) == 1:
        out.append(f"The test of {kept[0]} stays.")
    elif kept:
        out.append(f"The other tests of those conditions stay: {', '.join(kept)}.")
    return out


def exit_part(path: str) -> str:
    """The exit of an error path: 'pr_err(...); return -EINVAL' -> 'return -EINVAL'."""
    parts = [p.strip() for p in path.split(";") if p.strip()]
    exits = [p for p in parts if re.match(r"^(?:return|goto|break|continue)\b", p)]
    return exits[-1] if exits else path


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
    docs = kernel_doc_lines(change.patch)
    what.append("the field" + (" with its kernel-doc line" if docs == 1 else
                               f" with its {docs} kernel-doc lines" if docs else ""))
    if not target.keep_define:
        what.append("the #define" if len(target.macros) == 1 else "the #defines")
    if result.wrappers:
        what.append(f"the macro{'s' if len(result.wrappers) > 1 else ''} that wrapped them "
                    f"({', '.join(w + '()' for w in result.wrappers)})")
    mine = set(target.macros) | set(result.wrappers) | {target.member}
    offsets = {m for c in cands for m, f in c.evidence.offset_macros.items()
               if f == target.member}
    extra = sorted({r.name for r in change.removed if r.kind == "macro" and r.name not in mine})
    switches = [m for m in extra if m not in offsets and bare_define(change.patch, m)]
    others = [m for m in extra if m not in offsets and m not in switches]
    statics = sorted({r.name for r in change.removed if r.kind == "static"})
    if [m for m in extra if m in offsets]:
        what.append(f"its offset macro {and_list([m for m in extra if m in offsets])}")
    if statics or others:
        what.append(f"{and_list(statics + others)}, which only the checks used")
    if switches:
        what.append(f"#define {and_list(switches)}, which only switched the checks on")
    what += comment_words(change.patch)
    text = "Remove " + and_list(what)
    if change.registry:
        main, translations = change.registry[0], len(change.registry) - 1
        text += (f", and the row{'s' if len(target.macros) > 1 else ''} in {main}"
                 + (f" and its {translations} translation{'s' if translations > 1 else ''}"
                    if translations else ""))
    text += "."
    if target.keep_define:
        uses = sorted({f.site for c in cands for f in c.evidence.other_mentions},
                      key=lambda x: (x.file, x.line))
        places = [f"{u.file}:{u.line}" for u in uses]
        where = (and_list(places) if len(places) <= 3 else
                 ", ".join(places[:3]) + f" and {len(places) - 3} more places")
        text += f" The #define stays: {and_list(target.macros)} is also used in {where}."
    return text


def bare_define(patch: Patch, name: str) -> bool:
    """The patch removes `#define name` with no value (a switch for #ifdef)."""
    return any(re.match(rf"^\s*#\s*define\s+{re.escape(name)}\s*$", ln.text)
               for f in patch.files for ln in f.removed())


KERNEL_DOC_MEMBER = re.compile(r"^\s*\*\s*@[\w.]+\s*:")


def kernel_doc_lines(patch: Patch) -> int:
    """The kernel-doc lines of members (` * @magic: ...`) the patch removes."""
    return sum(1 for f in patch.files if f.path.endswith((".c", ".h"))
               for ln in f.removed() if KERNEL_DOC_MEMBER.match(ln.text))


def comment_blocks(patch: Patch) -> int:
    """Whole comments the patch removes from C files (runs of removed comment lines; a
    member's kernel-doc line is not one)."""
    n = 0
    for f in patch.files:
        if not f.path.endswith((".c", ".h")):
            continue
        prev = -2
        for ln in f.removed():
            if re.match(r"^\s*(/\*|\*|//)", ln.text) and not KERNEL_DOC_MEMBER.match(ln.text):
                if ln.number != prev + 1:
                    n += 1
                prev = ln.number
    return n


def reworded(patch: Patch) -> bool:
    """The patch rewords a comment to drop its words about the magic."""
    for f in patch.files:
        gone = [ln.text for ln in f.removed() if re.match(r"^\s*(/\*|\*|//)", ln.text)
                and re.search(r"\bmagic\b", ln.text, re.I)]
        new = [ln.text for ln in f.added() if re.match(r"^\s*(/\*|\*|//)", ln.text)]
        if gone and new:
            return True
    return False


def comment_words(patch: Patch) -> List[str]:
    out = []
    n = comment_blocks(patch) - (1 if reworded(patch) else 0)
    if n > 0:
        out.append("the comment that headed it" if n == 1 else "the comments that headed them")
    if reworded(patch):
        out.append("the words about the magic in a comment")
    return out


def tool_sentence(target: Target, result: Result, rule: Path, tools: Tools) -> str:
    opts = " ".join(f"{k}={v}" if v else k for k, v in result.defines.items())
    again = (f" (again with magic={', '.join(target.macros[1:])})"
             if len(target.macros) > 1 else "")
    return (f"Made with Coccinelle ({tools.spatch}) and {tools.demagic}'s {rule.name} "
            f"(sha256 {tools.rules.get(rule.name, '?')}, in demagic's cocci/ directory), "
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
        text += f" and set in {and_list(s.where for s in sets)}"
    text += "."
    for m in cands:
        if not m.evidence.shapes and m.sets and checked:
            text += (f" {m.macro} is stored there in {and_list(s.where for s in m.sets)} "
                     "and never compared.")
    return text


def remove_body(target: Target, cands: Sequence[Candidate], result: Result,
                change: Change, tools: Tools, rule: Path) -> str:
    shapes = [s for c in cands for s in c.evidence.shapes]
    c = cands[0]
    paras = [_intro(target, cands)]
    if shapes:
        paras.append(" ".join(check_sentence(shapes, c.evidence.guard)))
        if c.evidence.guard:
            paras.append(("The checks are" if len(shapes) > 1 else "The check is") +
                         " dead code; the field and its assignment are all that is left of "
                         "it at run time.")
        else:
            why = warrant_sentences(cands, shapes)
            if why:
                paras.append(" ".join(why))
            changes = change_sentences(shapes)
            if changes:
                paras.append(" ".join(changes))
    else:
        owned = [f.what.split(": ", 1)[-1] for m in cands for f in m.evidence.written_into]
        paras.append(f"Nothing compares or reads the field: it is written in "
                     f"{and_list(s.where for m in cands for s in m.sets)}, into memory the kernel "
                     f"owns ({and_list(list(dict.fromkeys(owned)))}), and never read. It only "
                     "costs the field and the store.")
    paras.append(removal_sentence(target, cands, result, change))
    if result.offsets:
        paras.append("Assembly reaches this structure through hand-written offsets; "
                     "they move down with the field: " + ", ".join(result.offsets) + ".")
    paras.append(tool_sentence(target, result, rule, tools))
    return "\n\n".join(flow(p) for p in paras)


def _switch_part(f: Finding, sets: Sequence[Site]) -> str:
    """A reader's name for one block under the switch: 'the field in struct key (a.h)',
    'key_check() (b.h)', 'the store in key_alloc() (c.c)'."""
    what, rel = f.what, f.site.file
    if what.startswith("in struct "):
        return f"the field {what} ({rel})"
    if what.startswith("defines "):
        return f"{what[len('defines '):]} ({rel})"
    if what.startswith("in ") and what.endswith("()"):
        fn = what[3:-2]
        stores = any(s.file == rel and s.function == fn for s in sets)
        return f"{'the store' if stores else 'the code'} {what} ({rel})"
    return f"{what} ({rel})"


def switch_body(target: Target, cands: Sequence[Candidate], change: Change,
                tools: Tools) -> str:
    """A field that only a dead switch of the code's own compiles: the switch goes too."""
    c = cands[0]
    ev = c.evidence
    sym = target.switch
    paras = [_intro(target, cands)]
    off = (f": {and_list(sorted({s.file for s in ev.switch_off}))} #undefs it"
           if ev.switch_off else "")
    sets = [s for m in cands for s in m.sets]
    parts = [_switch_part(f, sets) for f in ev.switch_code]
    paras.append(f"The field exists only with {sym} defined, and nothing in the tree defines "
                 f"it{off}. Every block under {sym} uses the magic or the field: "
                 f"{and_list(parts)}. None of it is compiled.")
    for noop in ev.switch_noops:
        # the calls are the one no-op's when there is one; several share the list
        its = list(ev.switch_calls) if len(ev.switch_noops) == 1 else []
        where = and_list(sorted({s.file for s in its}))
        paras.append(f"Without {sym}, {noop.what}() is an empty macro"
                     + (f": its {len(its)} call{'s' if len(its) > 1 else ''}, in {where}, "
                        f"do{'es' if len(its) == 1 else ''} nothing." if its else "."))
    what = []
    if ev.switch_off:
        what.append("its #undef")
    what.append(f"the code under #ifdef {sym}")
    noops = [f.what + "()" for f in ev.switch_noops]
    if noops:
        what.append(f"{and_list(noops)} with {'its' if len(noops) == 1 else 'their'} calls")
    comments = comment_blocks(change.patch)
    if comments:
        what.append("the comment that headed that code" if comments == 1 else
                    f"the {comments} comments that headed that code")
    paras.append(f"Remove {sym} with the field: {and_list(what)}.")
    by_demagic = (["the #undef"] if ev.switch_off else []) + \
        ([f"{and_list(noops)} with {'its' if len(noops) == 1 else 'their'} calls"]
         if noops else [])
    paras.append(f"Made with {tools.unifdef} (unifdef -U{sym}), which removed the code under "
                 f"#ifdef {sym}, and {tools.demagic}, which removed {and_list(by_demagic)}."
                 if by_demagic else f"Made with {tools.unifdef} (unifdef -U{sym}).")
    return "\n\n".join(flow(p) for p in paras)


def flag_body(target: Target, cands: Sequence[Candidate], result: Result, change: Change,
              tools: Tools, rule: Path) -> str:
    c = cands[0]
    ev = c.evidence
    ones = [s for s in ev.flag_sets if s.kind is SiteKind.SET]
    zeros = [s for s in ev.flag_sets if s.kind is SiteKind.CLEAR]
    truths = [s for s in c.checks if s.kind is SiteKind.TRUTH]
    paras = [_intro(target, cands)]
    states = []
    if ones:
        states.append(f"set to 1 in {and_list(s.where for s in ones)}")
    if zeros:
        states.append(f"cleared to 0 in {and_list(s.where for s in zeros)}")
    state = f"Besides the magic, the field is {and_list(states)}"
    state += f", and tested for truth in {and_list(s.where for s in truths)}" if truths else ""
    deciding = [s for s in ev.shapes if s.role != Role.DEBUG]
    if deciding:
        state += (f"; in {and_list(s.site.where for s in deciding)} a compare with the magic picks "
                  "a normal path")
    meaning = {"busy": f"whether the {c.struct} is in use", "up": "whether it is up",
               "active": "whether it is active"}
    state += (f": it says {meaning[target.flag]}." if target.flag in meaning and
              target.flag != target.member else f": it is a state flag, {target.member}.")
    paras.append(state)
    same = target.flag == target.member
    paras.append(f"Make it a bool{'' if same else ' ' + target.flag}: true where the magic"
                 f"{' or 1' if ones else ''} was stored, false where 0 was, and each compare "
                 "with the magic a truth test.")
    for s in ev.shapes:
        if s.role == Role.DEBUG and ones:
            paras.append(
                f"In {s.site.where}, the compare with {target.macros[0]} now also lets "
                f"through a {c.struct} set to 1 in {and_list(o.where for o in ones)} but not yet "
                "to the magic. "
                f"That compare only made {s.site.where} {path_words(s.mismatch, base=True)} "
                "(a debug check), so widening it changes no normal path.")
    rest = ["the #define"] + comment_words(change.patch)
    text = f"Remove {and_list(rest)}"
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
    if target.switch:
        return switch_body(target, cands, change, tools)
    return remove_body(target, cands, result, change, tools, rule)


def keep_body(c: Candidate, registry: Sequence[str], rows: Sequence[Entry] = ()) -> str:
    """A registry row's removal: why the value is no magic number, and where the row's
    path is wrong, where the value really is."""
    where = registry[0] if registry else "the registry"
    more = f" and its {len(registry) - 1} translations" if len(registry) > 1 else ""
    text = (f"{c.macro} is not a magic number: {c.reason.rstrip('.')}. Drop its row "
            f"from {where}{more}; the code stays as it is.")
    row = next((r for r in rows if r.macro == c.macro), None)
    if row and c.define and row.file and row.file != c.define.file:
        text += f" (The row names {row.file}; {c.macro} is defined in {c.define.file}.)"
    return flow(text)


def removal_body(registry: Sequence[str]) -> str:
    more = f" and its {len(registry) - 1} translations" if len(registry) > 1 else ""
    return flow(f"Every magic number {registry[0]} listed is now either gone or not a magic "
                f"number at all, and new code should not add any: remove it{more}, and their "
                "entries in the index files beside them.")
