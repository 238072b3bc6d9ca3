# SPDX-License-Identifier: GPL-2.0
"""The cover letter: what the series does, on which tree, what it leaves out, how it was
tested (series/proof.py, from the reports) and how it was made."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import List, Optional

from demagic.core.prose import and_list, flow
from demagic.model.target import group_name
from demagic.series import message, proof
from demagic.series.write import Entry
from demagic.model.candidate import Candidate, Verdict
from demagic.rewrite.apply import RULE_OF
from demagic.kernel.tree import Tree

ACTIONS = {Verdict.REMOVE: "remove the tag", Verdict.FLAG: "make it a bool",
           Verdict.KEEP: "drop the row only"}


@dataclass
class Facts:
    """Everything the cover letter says."""
    tree: Tree
    scope: str
    entries: List[Entry]
    manual: List[str] = field(default_factory=list)
    review: List[Candidate] = field(default_factory=list)
    series: str = ""                     # the series directory, as the user names it
    tools: Optional[message.Tools] = None
    found: proof.Proof = field(default_factory=lambda: proof.Proof(None, None))


def intro(f: Facts) -> str:
    by = {v: [e for e in f.entries if e.verdict is v and e.macros] for v in Verdict}
    parts = [f"{len(by[Verdict.REMOVE])} removed", f"{len(by[Verdict.FLAG])} turned into a bool"]
    keeps = [group_name(e.macros) for e in by[Verdict.KEEP]]
    text = (f"This series retires magic numbers of Linux {f.tree.version}: "
            + ", ".join(parts)
            + (f", and {len(keeps)} that were never magic numbers leave the registry "
               f"({', '.join(keeps)})" if keeps else "") + ".")
    left = ([f"{len(f.manual)} need{'s' if len(f.manual) == 1 else ''} a manual fix"]
            if f.manual else []) + ([f"{len(f.review)} are left for review"] if f.review else [])
    if left:
        text += f" Others remain: {' and '.join(left)} (listed below)."
    gone = [e for e in f.entries if e.registry]
    if gone:
        text += f" The last patch removes {gone[0].registry} itself."
    return flow(text)


def base(f: Facts) -> str:
    t = f.tree
    if t.dirty:
        return flow(f"It applies to {t.origin} (Linux {t.version}); commit those changes, "
                    "or send them first, before this series.")
    if t.has_history:
        return flow(f"It applies to {t.origin} (Linux {t.version}), the base-commit below, "
                    "and is meant for mainline.")
    if t.debian and f.scope == "registry":
        return flow(f"It applies to {t.origin} (Linux {t.version}), imported into git as is, "
                    "and reproduces by machine the series that retired the registry's last "
                    "entries by hand in 2022: only the registry's entries are retired.")
    if t.debian:
        return flow(f"It applies to {t.origin} (Linux {t.version}), imported into git as is. "
                    "It is meant for mainline: rebase it there before sending.")
    return flow(f"It applies to {t.origin} (Linux {t.version}), which has no git history.")


def table(f: Facts) -> str:
    rows = [f"{'magic':<28} {'action':<18} {'files':>5} {'lines removed':>13}",
            f"{'-' * 28} {'-' * 18} {'-' * 5} {'-' * 13}"]
    for e in f.entries:
        name = group_name(e.macros) if e.macros else "magic-number.rst"
        action = "delete the registry" if e.registry else ACTIONS[e.verdict]
        rows.append(f"{name:<28} {action:<18} {e.files:>5} {e.removed:>13}")
    return "\n".join(rows)


def left_out(f: Facts) -> List[str]:
    out = []
    if f.manual:
        out.append(flow("Not in this series, for a manual fix (the rules cannot rewrite every "
                        "use):") + "\n" + "\n".join(flow(line.replace(": needs a manual fix: ", ": "),
                                                         "  ") for line in f.manual))
    if f.review:
        lines = [flow("Not in this series, left for review: not enough evidence either way "
                      "(scan.txt beside the series has the evidence for and against):")]
        for c in f.review:
            where = str(c.define) if c.define else c.header
            lines.append(flow(f"{c.macro} ({where}): {c.against[0] if c.against else c.reason}",
                              "  "))
        out.append("\n".join(lines))
    return out


def made(f: Facts) -> str:
    tools = f.tools
    if tools is None:
        return ""
    used = [RULE_OF[v] for v in (Verdict.REMOVE, Verdict.FLAG)
            if any(e.verdict is v and e.macros for e in f.entries)]
    rules = and_list(f"{rule.name} (sha256 {tools.rules.get(rule.name, '?')})" for rule in used)
    return flow(f"Made with Coccinelle ({tools.spatch}) and {tools.demagic}. Its scan decided "
                "each verdict from the evidence the patch's message gives; "
                + (f"its semantic patch{'es' if len(used) > 1 else ''} {rules} (in demagic's "
                   "cocci/ directory) made the changes, run as each message says."
                   if used else "no code was rewritten."))


def subject(f: Facts) -> str:
    """What the series does, counted: no more than it does."""
    removed = len([e for e in f.entries if e.verdict is Verdict.REMOVE and e.macros])
    flags = len([e for e in f.entries if e.verdict is Verdict.FLAG and e.macros])
    parts = []
    if removed:
        parts.append(f"remove {removed} magic number{'s' if removed > 1 else ''}")
    if flags:
        parts.append(f"turn {flags} into bool{'s' if flags > 1 else ''}")
    if any(e.registry for e in f.entries):
        parts.append("delete magic-number.rst")
    elif any(e.verdict is Verdict.KEEP and e.macros for e in f.entries):
        parts.append("drop registry rows")
    return ", ".join(parts) or "magic numbers"


def blurb(f: Facts) -> str:
    paras = [intro(f), base(f), table(f)] + left_out(f) + \
        [proof.testing(f.found, f.series), proof.credit(f.found), made(f)]
    return "\n\n".join(p for p in paras if p)
