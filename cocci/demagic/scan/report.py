# SPDX-License-Identifier: GPL-2.0
"""The scan's output: grouped text (the default), JSON lines, and coccicheck's
report and org modes."""

from __future__ import annotations

import json
from dataclasses import fields
from typing import Dict, TYPE_CHECKING, Any, Iterable, List, Sequence

from demagic.model.candidate import Candidate, Evidence, Role, Site, SiteKind, Verdict
from demagic.scan.discover import lost_functions
from demagic.kernel.source import Texts

if TYPE_CHECKING:
    from demagic.scan.collect import Scan

ORDER = (Verdict.REMOVE, Verdict.FLAG, Verdict.REVIEW, Verdict.KEEP)
# Evidence fields the text shows in their own way, or not at all.
QUIET = {"typedef", "struct_line", "field_decl", "leading", "write_only", "flag_name", "shapes",
         "other_structs", "kernel_address", "volatile"}
SHOWN = 3


def _sites(sites: Iterable[Site]) -> str:
    return " ".join(str(s) for s in sites) or "-"


def _value(value: Any) -> str:
    if isinstance(value, list):
        items = [str(v) for v in value]
        more = f" (+{len(items) - SHOWN} more)" if len(items) > SHOWN else ""
        return "; ".join(items[:SHOWN]) + more
    if isinstance(value, dict):
        return ", ".join(f"{k}={v}" for k, v in sorted(value.items()))
    return str(value)


def evidence_lines(ev: Evidence) -> List[str]:
    out = []
    for f in fields(ev):
        value = getattr(ev, f.name)
        if f.name in QUIET or value in ("", 0, False, [], {}):
            continue
        out.append(f"  {f.name}: {_value(value)}")
    return out


def candidate_lines(c: Candidate) -> List[str]:
    where = f"struct {c.struct}.{c.field} ({c.header})" if c.struct else f"->{c.field or '?'}"
    out = [f"{c.macro} = {c.value or '?'}  {where}  defined {c.define or '?'}",
           f"  reason: {c.reason}",
           f"  sets:   {_sites(c.sets)}"]
    if c.evidence.shapes:
        out.append("  checks: " + " ".join(f"{s.site}({s.kind})" for s in c.evidence.shapes))
    truths = [s for s in c.checks if s.kind is SiteKind.TRUTH]
    if truths:
        out.append(f"  truth:  {_sites(truths)}")
    if c.verdict is Verdict.REVIEW:
        debug = [s for s in c.evidence.shapes if s.role == Role.DEBUG]
        if debug:
            out.append("  for:    debug checks at " + _sites(s.site for s in debug))
        elif c.evidence.write_only and c.sets:
            out.append("  for:    written, never compared")
        out += [f"  against: {note}" for note in c.against]
    out += evidence_lines(c.evidence)
    return out


def unparsed_lines(result: "Scan", texts: Texts) -> List[str]:
    by_file: dict = {}
    for u in result.unparsed:
        by_file.setdefault(u.file, []).append(u)
    out = [f"== unparsed ({len(by_file)} files)"]
    for rel, regions in sorted(by_file.items()):
        parts = []
        for u in regions:
            funcs = lost_functions(texts, u)
            parts.append(f"lines {u.first}-{u.last}" + (f" ({', '.join(f + '()' for f in funcs)})"
                                                        if funcs else ""))
        out.append(f"{rel}: " + "; ".join(parts))
    return out


def summary(result: "Scan") -> str:
    counts = {v: sum(1 for c in result.cands if c.verdict is v) for v in ORDER}
    files = len({u.file for u in result.unparsed})
    return (", ".join(f"{v.value} {counts[v]}" for v in ORDER)
            + f"; {result.stats.listed} files name MAGIC, {result.stats.parsed} parsed "
            f"(the others neither store nor compare a MAGIC name), {files} parsed only in part")


def format_text(result: "Scan", texts: Texts) -> str:
    """Readable text: grouped by verdict (remove, flag, review, keep), sorted by path;
    then the code spatch could not parse, then the counts."""
    out: List[str] = []
    for verdict in ORDER:
        group = sorted((c for c in result.cands if c.verdict is verdict),
                       key=lambda c: (c.header or (c.define.file if c.define else ""), c.macro))
        out.append(f"== {verdict.value} ({len(group)})")
        for c in group:
            out += candidate_lines(c)
        out.append("")
    out += unparsed_lines(result, texts)
    out += ["", "== summary", summary(result), ""]
    return "\n".join(out)


def format_json(result: "Scan") -> str:
    lines = [json.dumps(c.to_json(), sort_keys=True) for c in result.cands]
    lines += [json.dumps({"unparsed": str(u), "error_line": u.error}) for u in result.unparsed]
    return "\n".join(lines) + ("\n" if lines else "")


def format_coccicheck(cands: Sequence[Candidate], mode: str) -> str:
    """file:line: message as coccicheck prints in report mode, or org-mode TODO items."""
    lines = []
    for c in sorted(cands, key=lambda c: (c.sets[0].file, c.sets[0].line) if c.sets else ("", 0)):
        site = c.sets[0] if c.sets else c.define
        if site is None:
            continue
        level = "WARNING" if c.verdict in (Verdict.REMOVE, Verdict.FLAG) else "INFO"
        msg = f"{level}: {c.macro}: {c.verdict.value}: {c.reason}"
        if mode == "org":
            lines.append(f"* TODO [[view:{site.file}::face=ovl-face1::linb={site.line}"
                         f"::colb=1::cole=1][{c.macro} {site.file}::{site.line}]]")
            lines.append(f"  {msg}")
        else:
            lines.append(f"{site.file}:{site.line}: {msg}")
    return "\n".join(lines) + ("\n" if lines else "")


def render(result: "Scan", mode: str, form: str, texts: Texts) -> str:
    if mode in ("report", "org"):
        return format_coccicheck(result.cands, mode)
    if form == "json":
        return format_json(result)
    return format_text(result, texts)


CONTEXT = 2


def context(cands: Sequence[Candidate], texts: Texts) -> str:
    """Each candidate's sets and checks, * marked, with CONTEXT lines around them."""
    out: List[str] = []
    for c in cands:
        sites = sorted({(s.file, s.line) for s in c.sets + c.checks})
        if not sites:
            continue
        out.append(f"// {c.macro}: {c.verdict.value}: {c.reason}")
        by_file: Dict[str, List[int]] = {}
        for rel, line in sites:
            by_file.setdefault(rel, []).append(line)
        for rel, lines in by_file.items():
            text = texts.lines(rel)
            out += [f"--- {rel}", f"+++ {rel}"]
            for lo, hi in _hunks(lines, len(text)):
                out.append(f"@@ -{lo},{hi - lo + 1} +{lo},{hi - lo + 1} @@")
                out += [("*" if n in lines else " ") + text[n - 1] for n in range(lo, hi + 1)]
    return "\n".join(out) + ("\n" if out else "")


def _hunks(lines: Sequence[int], size: int) -> List[tuple]:
    spans: List[List[int]] = []
    for n in sorted(set(lines)):
        lo, hi = max(1, n - CONTEXT), min(size, n + CONTEXT)
        if spans and lo <= spans[-1][1] + 1:
            spans[-1][1] = max(spans[-1][1], hi)
        else:
            spans.append([lo, hi])
    return [tuple(s) for s in spans]
