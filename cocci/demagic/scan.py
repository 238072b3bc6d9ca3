# SPDX-License-Identifier: GPL-2.0
"""Find and judge the magic numbers of a kernel tree: python3 -m demagic scan.

One pass of text picks the files worth parsing: the .c/.h files that name
MAGIC, and of those only the ones that store or compare a MAGIC name that is
both stored and compared somewhere (all names when macros are given, so that
write-only ones are found too).  find_magic.cocci then runs once over each of
them, in groups, J spatch processes at a time; no file is parsed twice.  The
tree's text supplies the rest of the evidence (facts.py) and judge.py gives
the verdicts.

A file spatch gives up on (an exception, a fatal error, a timeout of
FILE_TIMEOUT seconds) fails the run, by name.  Functions that spatch cannot
parse are skipped silently, as under coccicheck: kernel files have some.
A whole-tree scan leaves out the host programs of tools/ and scripts/.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import resource
import sys
import tempfile
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Dict, Iterable, List, Optional, Sequence, Set, Tuple

from demagic import facts, judge
from demagic.model import Candidate, Site, Verdict
from demagic.proc import DemagicError, Progress, UsageError, run

RULE = Path(__file__).resolve().parents[1] / "find_magic.cocci"
# One line of the rule's report mode (see the emit() helper in the rule).
REPORT_RX = re.compile(
    r"^(?P<file>[^:\n]+):(?P<line>\d+):(?P<col>\d+)-\d+: WARNING: magic "
    r"(?P<what>\w+)=(?P<kind>[\w-]+) const=(?P<const>\S+) field=(?P<field>\S+) "
    r"func=(?P<func>\S+) type=(?P<type>.+?) expr=(?P<expr>.*)$")
# Host programs, not kernel code: a whole-tree scan leaves them out (M= still scans them).
HOST_DIRS = ("tools/", "scripts/")
CHUNK = 24           # files per spatch process: amortises its start-up, keeps progress fine
FILE_TIMEOUT = 120   # seconds spatch may spend on one file
# spatch's stderr lines that mean a file was not analysed: an exception (EXN:, which
# is also how a per-file timeout shows) or a fatal error.  Functions spatch cannot
# parse are skipped silently under --very-quiet, as in coccicheck: that is normal.
FAILURE_RX = re.compile(r"^(?:EXN:.*|.*Fatal error.*|.*\bTimeout\b.*)$", re.M)
KIND_RANK = {"bug": 0, "warn": 1, "message": 2, "early-exit": 3, "condition": 4}


@dataclass(frozen=True)
class Record:
    """One report line of find_magic.cocci."""
    file: str
    line: int
    col: int
    what: str    # set, call, check, type, kind, flag, truth
    kind: str
    const: str
    field: str
    func: str
    type: str
    expr: str

    @property
    def key(self) -> Tuple[str, int, int]:
        return (self.file, self.line, self.col)

    def site(self, kind: Optional[str] = None) -> Site:
        return Site(self.file, self.line, self.func, self.kind if kind is None else kind)


def rule_options(rule: Path = RULE) -> List[str]:
    """The spatch flags the rule's `// Options:` header line asks for."""
    for line in rule.read_text().splitlines():
        if line.startswith("// Options:"):
            return line.split(":", 1)[1].split()
    return []


def parse_report(text: str) -> List[Record]:
    out: List[Record] = []
    for line in text.splitlines():
        m = REPORT_RX.match(line)
        if m:
            d = {k: ("" if v == "-" else v) for k, v in m.groupdict().items()}
            out.append(Record(d["file"], int(d["line"]), int(d["col"]), d["what"], d["kind"],
                              d["const"], d["field"], d["func"], d["type"], d["expr"]))
    return out


def list_files(root: Path, subdir: Optional[str], words: Optional[Sequence[str]]) -> List[str]:
    """.c/.h files under root/subdir containing MAGIC (or one of words), relative to root."""
    where = subdir or "."
    if not (root / where).is_dir():
        raise UsageError(f"M={subdir}: no such directory in {root}")
    pattern = ["-wF", *[a for w in words for a in ("-e", w)]] if words else ["-F", "-e", "MAGIC"]
    out = facts.grep_tree(root, ["-l", *pattern], ["*.c", "*.h"], [where])
    files = sorted(os.path.normpath(f) for f in out.split())
    if not subdir:
        files = [f for f in files if not f.startswith(HOST_DIRS)]
    return files


def _uses(data: bytes, setters: Dict[str, Tuple[str, str]]) -> Iterable[Tuple[str, str]]:
    """(name, "store" or "compare") for each MAGIC name data stores or compares:
    x = C, .f = C, x == C, C != x, and C handed to a setter or checker macro."""
    for name, start, end in facts.magic_words(data):
        before = data[max(0, start - 64):start].rstrip(b" \t\n(")
        tail = data[end:end + 8].lstrip(b" \t\n")
        after = tail.lstrip(b")").lstrip()
        if before.endswith((b"==", b"!=")) or after.startswith((b"==", b"!=")):
            yield name, "compare"
        elif before.endswith(b"=") and not before[-2:-1] in (b"<", b">", b"+", b"-", b"*", b"/",
                                                             b"%", b"&", b"|", b"^"):
            yield name, "store"
        elif before.endswith(b",") and tail.startswith(b")"):
            call = re.search(rb"(\w+)\s*\([^(),;]*,?$", before)
            if call and call.group(1).decode() in setters:
                op = setters[call.group(1).decode()][1]
                yield name, "store" if op == "=" else "compare"


def prefilter(files: Sequence[str], texts: facts.Texts, every: bool = False) -> List[str]:
    """The files worth parsing.

    A candidate is stored somewhere and compared somewhere (directly or through a
    setter/checker macro): only names seen both ways make their files worth it.
    every=True keeps each file that stores or compares any MAGIC name (write-only
    ones too), for a scan of given macros."""
    setters = facts.setter_macros(texts, files)
    seen: Dict[str, Dict[str, Set[str]]] = {"store": {}, "compare": {}}
    for f in files:
        for name, how in _uses(texts.raw(f), setters):
            seen[how].setdefault(name, set()).add(f)
    stored, compared = seen["store"], seen["compare"]
    names = set(stored) | set(compared) if every else set(stored) & set(compared)
    keep: Set[str] = set()
    for name in names:
        keep |= stored.get(name, set()) | compared.get(name, set())
    return sorted(keep)


def _spatch_chunk(root: Path, files: Sequence[str], extra: Sequence[str]) -> Tuple[str, List[str]]:
    """Run the rule over files (one group each); returns report text and failed files."""
    with tempfile.NamedTemporaryFile("w", suffix=".groups", delete=False) as fh:
        fh.write("\n\n".join(files) + "\n")
        groups = fh.name
    try:
        res = run(["spatch", "--very-quiet", "-D", "report", *rule_options(), *extra,
                   "--timeout", str(FILE_TIMEOUT), "--sp-file", str(RULE),
                   "--file-groups", groups], cwd=root, check=False)
    finally:
        os.unlink(groups)
    failed = []
    if res.returncode != 0 or FAILURE_RX.search(res.stderr):
        bad = [f for f in files if f in res.stderr]
        failed = bad or list(files)
        if res.returncode != 0 and not bad and len(files) > 1:
            # The whole process died: find the culprit file by file.
            text, failed = "", []
            for f in files:
                t, fl = _spatch_chunk(root, [f], extra)
                text += t
                failed += fl
            return text, failed
    return res.stdout, failed


def balanced_chunks(root: Path, files: Sequence[str], jobs: int) -> List[List[str]]:
    """Groups of about CHUNK files, biggest files first so that no job finishes last alone."""
    sizes = {f: (root / f).stat().st_size for f in files}
    order = sorted(files, key=lambda f: -sizes[f])
    n = max(jobs, -(-len(order) // CHUNK)) if order else 0
    chunks: List[List[str]] = [[] for _ in range(n)]
    load = [0] * n
    for f in order:
        i = load.index(min(load))
        chunks[i].append(f)
        load[i] += sizes[f]
    return sorted((c for c in chunks if c), key=lambda c: -sum(sizes[f] for f in c))


def run_rule(root: Path, files: Sequence[str], jobs: int, progress: Progress,
             extra: Sequence[str] = ()) -> List[Record]:
    """find_magic.cocci over files, jobs spatch processes at a time; fails on unparsed files."""
    chunks = balanced_chunks(root, files, jobs)
    done, records, failed = 0, [], []
    with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        for chunk, (text, bad) in zip(chunks, pool.map(
                lambda c: _spatch_chunk(root, c, extra), chunks)):
            done += len(chunk)
            records += parse_report(text)
            failed += bad
            progress.step(f"spatch: {done}/{len(files)} files")
    if failed:
        raise DemagicError(f"spatch could not analyse {len(failed)} file(s): "
                           + ", ".join(sorted(failed)))
    return records


def _check_kind(rec: Record, kinds: Dict[Tuple[str, int, int], List[str]]) -> str:
    found = kinds.get(rec.key, [])
    return min(found, key=KIND_RANK.__getitem__) if found else "condition"


Bases = Dict[str, List[Tuple[Site, str, str]]]


def build(root: Path, records: Sequence[Record], texts: facts.Texts,
          files: Sequence[str]) -> Tuple[Dict[str, Candidate], Bases]:
    """Candidates (one per constant) from the rule's records, with sites and struct.

    A constant stored into several fields keeps the field it is stored into most.
    Bases maps each constant to its (site, base expression, type) list."""
    kinds: Dict[Tuple[str, int, int], List[str]] = {}
    types: Dict[Tuple[str, int, int], str] = {}
    for r in records:
        if r.what == "kind":
            kinds.setdefault(r.key, []).append(r.kind)
        elif r.what == "type":
            types[r.key] = r.type
    macros = facts.setter_macros(texts, files)
    uses: Dict[str, List[Record]] = {}
    for r in records:
        if r.what == "call":
            if r.field not in macros:
                continue
            fld, op = macros[r.field]
            r = replace(r, what="set" if op == "=" else "check", field=fld,
                        kind="macro" if op == "=" else r.kind)
        if r.what in ("set", "check"):
            uses.setdefault(r.const, []).append(r)
    cands: Dict[str, Candidate] = {}
    bases: Bases = {}
    for const, recs in uses.items():
        top = (Counter(r.field for r in recs if r.what == "set").most_common(1)
               or Counter(r.field for r in recs).most_common(1))
        c = cands[const] = Candidate(const, "", None, "", top[0][0], "")
        for r in sorted(set(recs), key=lambda r: r.key):
            if r.field != c.field:
                continue
            if r.what == "set":
                c.sets.append(r.site())
            else:
                c.checks.append(r.site(_check_kind(r, kinds)))
            bases.setdefault(const, []).append((r.site(), r.expr, types.get(r.key, "")))
    # Structs the sites' includes do not define are looked up with one grep for all.
    missing = [c for c in cands.values() if not facts.place_struct(root, texts, c, bases[c.macro],
                                                                   search=False)]
    facts.prefetch_definitions(texts, [facts.type_name(b[2]) for c in missing
                                       for b in bases[c.macro]])
    for c in missing:
        facts.place_struct(root, texts, c, bases[c.macro])
    by_field: Dict[Tuple[str, str, str], List[str]] = {}
    for c in cands.values():
        by_field.setdefault((c.header, c.struct, c.field), []).append(c.macro)
    for c in cands.values():
        mates = [m for m in by_field[(c.header, c.struct, c.field)] if m != c.macro]
        if mates and c.struct:
            c.evidence["group"] = mates
    return cands, bases


FLAG_VALUES = ("0", "1", "true", "false")


def _same_struct(c: Candidate, typ: str) -> bool:
    """A store or test whose type spatch knows belongs to c's struct (unknown: assume so)."""
    name = facts.type_name(typ)
    return not name or name in (c.struct, c.evidence.get("typedef", ""))


def _flags(records: Sequence[Record], cands: Dict[str, Candidate]) -> None:
    """Attach the other stores into a candidate's field and its truth tests, from the
    files that set it: 0/1 stores (flag_sets), any other value (value_sets)."""
    types = {r.key: r.type for r in records if r.what == "type"}
    for c in cands.values():
        files = {s.file for s in c.sets}
        mine = [r for r in records if r.field == c.field and r.file in files
                and _same_struct(c, types.get(r.key, ""))]
        stores = [r for r in mine if r.what == "store"
                  and not re.fullmatch(r"\(?\s*\w*MAGIC\w*\s*\)?", r.expr)]
        flag = [r.site() for r in stores if r.expr in FLAG_VALUES]
        value = [r.site("value") for r in stores if r.expr not in FLAG_VALUES]
        truth = [r.site("truth") for r in mine if r.what == "truth"]
        if flag:
            c.evidence["flag_sets"] = sorted(set(flag), key=lambda s: (s.file, s.line))
        if value:
            c.evidence["value_sets"] = sorted(set(value), key=lambda s: (s.file, s.line))
        seen = {(s.file, s.line) for s in c.checks}
        c.checks += [s for s in sorted(set(truth), key=lambda s: (s.file, s.line))
                     if (s.file, s.line) not in seen]


@dataclass
class Stats:
    """What one scan did: for the benchmark."""
    listed: int = 0      # files that name MAGIC (or the macros asked for)
    parsed: int = 0      # files handed to spatch after the prefilter
    seconds: float = 0.0


def collect(root: Path, subdir: Optional[str] = None, macros: Optional[List[str]] = None,
            jobs: int = os.cpu_count() or 1, progress: Optional[Progress] = None,
            stats: Optional[Stats] = None) -> List[Candidate]:
    """Every magic number of root (or only macros, in that order), judged."""
    start = time.monotonic()
    progress = progress or Progress(quiet=True)
    stats = stats if stats is not None else Stats()
    root = Path(root)
    if not (root / "Makefile").is_file():
        raise UsageError(f"KDIR={root}: not a kernel tree (no top Makefile)")
    magic_files = list_files(root, subdir, macros)
    texts = facts.Texts(root)
    files = prefilter(magic_files, texts, every=macros is not None)
    stats.listed, stats.parsed = len(magic_files), len(files)
    progress.step(f"prefilter: {len(files)} of {len(magic_files)} files with MAGIC to parse")
    records = run_rule(root, files, jobs, progress)
    cands, bases = build(root, records, texts, magic_files)
    _flags(records, cands)
    if macros is not None:
        for m in macros:
            if m not in cands and facts.find_define(texts, magic_files, m) is not None:
                cands[m] = Candidate(m, "", None, "", "", "")
        chosen = [cands[m] for m in macros if m in cands]
    else:
        chosen = [c for c in cands.values() if c.sets and c.checks]
    facts.complete(root, texts, chosen, bases, magic_files, progress)
    for c in chosen:
        c.verdict, c.reason = judge.judge(c)
    if macros is None:
        chosen.sort(key=lambda c: (c.define.file if c.define else c.header, c.macro))
    stats.seconds = time.monotonic() - start
    return chosen


def _cpu() -> float:
    """CPU seconds used so far by this process and its finished children."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime


def bench(root: Path, jobs: int, progress: Progress) -> int:
    """Print the scan's wall time beside one naive whole-tree run of the same rule.

    CPU seconds are printed too: on a shared machine they vary less than wall time."""
    stats = Stats()
    cpu0 = _cpu()
    cands = collect(root, jobs=jobs, progress=progress, stats=stats)
    scan_cpu = _cpu() - cpu0
    progress.step(f"scan: {stats.seconds:.1f} s, {stats.parsed} files parsed, "
                  f"{len(cands)} candidates; now the naive run (slow)")
    nfiles = len(facts.grep_tree(root, ["-l", "-e", ""], ["*.c"]).split())
    start, cpu0 = time.monotonic(), _cpu()
    res = run(["spatch", "--very-quiet", "-D", "report", "--no-includes", "--timeout",
               str(FILE_TIMEOUT), "-j", str(jobs), "--sp-file", str(RULE), "--dir", "."],
              cwd=root, check=False)
    naive, naive_cpu = time.monotonic() - start, _cpu() - cpu0
    load = os.getloadavg()[0]
    nrec = len([r for r in parse_report(res.stdout) if r.what in ("set", "check")])
    print(f"scan:  {stats.seconds:7.1f} s wall, {scan_cpu:7.1f} s cpu, {stats.parsed:6d} files "
          f"parsed ({stats.listed} name MAGIC), jobs {jobs}")
    print(f"naive: {naive:7.1f} s wall, {naive_cpu:7.1f} s cpu, {nfiles:6d} files parsed "
          f"(spatch --dir ., every .c), jobs {jobs}, exit {res.returncode}, "
          f"{nrec} set/check reports")
    print(f"ratio: naive / scan = {naive / max(stats.seconds, 1e-9):.1f} wall, "
          f"{naive_cpu / max(scan_cpu, 1e-9):.1f} cpu (load average at the end {load:.1f})")
    return 0


def _site_list(sites: Iterable[Site]) -> str:
    return " ".join(str(s) for s in sites) or "-"


def format_text(cands: Sequence[Candidate]) -> str:
    """Readable text: grouped by verdict (remove, flag, keep), sorted by path."""
    out: List[str] = []
    for verdict in (Verdict.REMOVE, Verdict.FLAG, Verdict.KEEP):
        group = sorted((c for c in cands if c.verdict == verdict),
                       key=lambda c: (c.header or (c.define.file if c.define else ""), c.macro))
        out.append(f"== {verdict.value} ({len(group)})")
        for c in group:
            where = f"struct {c.struct}.{c.field} ({c.header})" if c.struct else f"->{c.field}"
            out.append(f"{c.macro} = {c.value or '?'}  {where}  defined {c.define or '?'}")
            out.append(f"  reason: {c.reason}")
            out.append(f"  sets:   {_site_list(c.sets)}")
            out.append("  checks: " + (" ".join(f"{s}({s.kind})" for s in c.checks) or "-"))
            for key in ("guard", "fixed_address", "uapi", "offset_macros", "group"):
                if key in c.evidence:
                    out.append(f"  {key}: {c.evidence[key]}")
            for key in ("flag_sets", "asm_users", "user_copy"):
                if key in c.evidence:
                    out.append(f"  {key}: {_site_list(c.evidence[key])}")
        out.append("")
    return "\n".join(out)


def format_json(cands: Sequence[Candidate]) -> str:
    lines = []
    for c in cands:
        d = c.to_json()
        d["evidence"] = {k: ([str(s) for s in v] if isinstance(v, list) and v
                             and isinstance(v[0], Site) else v)
                         for k, v in c.evidence.items()}
        lines.append(json.dumps(d, sort_keys=True))
    return "\n".join(lines) + ("\n" if lines else "")


def format_coccicheck(cands: Sequence[Candidate], mode: str) -> str:
    """file:line: message as coccicheck prints in report mode, or org-mode TODO items."""
    lines = []
    for c in sorted(cands, key=lambda c: (c.sets[0].file, c.sets[0].line) if c.sets else ("", 0)):
        site = c.sets[0] if c.sets else c.define
        if site is None:
            continue
        msg = f"{'WARNING' if c.verdict != Verdict.KEEP else 'INFO'}: {c.macro}: {c.verdict.value}: {c.reason}"
        if mode == "org":
            lines.append(f"* TODO [[view:{site.file}::face=ovl-face1::linb={site.line}"
                         f"::colb=1::cole=1][{c.macro} {site.file}::{site.line}]]")
            lines.append(f"  {msg}")
        else:
            lines.append(f"{site.file}:{site.line}: {msg}")
    return "\n".join(lines) + ("\n" if lines else "")


def write_out(text: str, out: Optional[Path]) -> None:
    """Print text, or write it to out atomically (an interrupted run leaves out as it was)."""
    if out is None:
        sys.stdout.write(text)
        return
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = out.with_name(out.name + ".tmp")
    tmp.write_text(text)
    tmp.replace(out)


def parse_args(argv: Sequence[str]) -> argparse.Namespace:
    p = argparse.ArgumentParser(prog="demagic scan", description=__doc__)
    p.add_argument("--kdir", type=Path, help="kernel tree (default: Debian linux-source-6.1)")
    p.add_argument("--subdir", help="only this subdirectory of the tree (as M=)")
    p.add_argument("--macros", nargs="+", help="judge only these constants")
    p.add_argument("--format", choices=("text", "json"), default="text")
    p.add_argument("--mode", choices=("report", "org", "context", "patch", ""), default="")
    p.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    p.add_argument("--out", type=Path, help="write here instead of stdout")
    p.add_argument("--bench", action="store_true",
                   help="time the scan beside the naive whole-tree spatch run")
    args = p.parse_args(argv)
    if args.jobs < 1:
        raise UsageError(f"J={args.jobs}: must be a positive number")
    return args


def main(argv: Sequence[str]) -> int:
    args = parse_args(argv)
    from demagic import tree
    root = args.kdir.resolve() if args.kdir else tree.pristine(None).repo
    if args.kdir:
        tree.check_kdir(root)
    progress = Progress()
    if args.bench:
        return bench(root, args.jobs, progress)
    cands = collect(root, args.subdir, args.macros, args.jobs, progress)
    if args.mode in ("report", "org"):
        text = format_coccicheck(cands, args.mode)
    elif args.format == "json":
        text = format_json(cands)
    else:
        text = format_text(cands)
    write_out(text, args.out)
    progress.step(f"{len(cands)} candidates")
    return 0
