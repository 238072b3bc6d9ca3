# SPDX-License-Identifier: GPL-2.0
"""Which files to parse, and find_magic.cocci over them: its report and what spatch lost.

One pass of text picks the files worth parsing: the .c/.h files that name
MAGIC, and of those the ones that store a MAGIC name into a field or compare
one (all names when macros are given).  find_magic.cocci then runs once over
each of them, in groups, J spatch processes at a time; no file is parsed
twice.  spatch runs with --verbose-parsing, so that code it could not parse
is known by file and lines (Unparsed), never skipped in silence.

A file spatch gives up on (an exception, a fatal error, a timeout of
FILE_TIMEOUT seconds) fails the run, by name.
"""

from __future__ import annotations

import json
import os
import re
import tempfile
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Dict, Iterable, List, Optional, Sequence, Set, Tuple

from demagic.core import rules
from demagic.core.rules import rule_options
from demagic.core import memo
from demagic.scan import structs
from demagic.model.candidate import Site, SiteKind
from demagic.core.errors import DemagicError, UsageError
from demagic.core.proc import Progress, run
from demagic.kernel.source import FUNC_START, Texts, magic_words
from demagic.kernel.grep import Grep

RULE = rules.FIND
# One line of the rule's report mode (see the emit() helper in the rule).
REPORT_RX = re.compile(
    r"^(?P<file>[^:\n]+):(?P<line>\d+):(?P<col>\d+)-\d+: WARNING: magic "
    r"(?P<what>\w+)=(?P<kind>[\w-]+) const=(?P<const>\S+) field=(?P<field>\S+) "
    r"func=(?P<func>\S+) type=(?P<type>.+?) expr=(?P<expr>.*)$")
# Host programs, not kernel code: a whole-tree scan leaves them out (M= still scans them).
HOST_DIRS = ("tools/", "scripts/")
# Files per spatch process.  Each start costs about a CPU-second (the rule and the
# macro file parsed again): the 329 files of a 6.1 scan in 14 runs of 24 files took
# 45 to 49 CPU-seconds, in 4 runs of 96 files 38 to 45 (four rounds, interleaved).
CHUNK = 96
FILE_TIMEOUT = 120   # seconds spatch may spend on one file
# spatch's stderr lines that mean a file was not analysed: an exception (EXN:, which
# is also how a per-file timeout shows) or a fatal error.
FAILURE_RX = re.compile(r"^(?:EXN:.*|.*Fatal error.*|.*\bTimeout\b.*)$", re.M)
# --verbose-parsing: the file being parsed, where a parse error resynchronised,
# the error itself, and each line it dropped.
HANDLING_RX = re.compile(r"^HANDLING: (\S+)")
SYNC_RX = re.compile(r"^ERROR-RECOV: found sync .* at line (\d+)")
ERROR_RX = re.compile(r'^ = File "([^"]+)", line (\d+)')
BAD_RX = re.compile(r"^(?:bad:|BAD:!+)")


@dataclass(frozen=True)
class Record:
    """One report line of find_magic.cocci."""
    file: str
    line: int
    col: int
    what: str    # set, call, check, type, kind, store, truth
    kind: str
    const: str
    field: str
    func: str
    type: str
    expr: str

    @property
    def key(self) -> Tuple[str, int, int]:
        return (self.file, self.line, self.col)

    def site(self, kind: Optional[SiteKind] = None) -> Site:
        return Site(self.file, self.line, self.func,
                    SiteKind(self.kind) if kind is None else SiteKind(kind))


@dataclass(frozen=True)
class Unparsed:
    """Lines of a file that spatch dropped: what it saw of them is gone from the scan."""
    file: str
    first: int
    last: int
    error: int           # the line of the parse error

    def __str__(self) -> str:
        return f"{self.file}:{self.first}-{self.last}"


@dataclass
class Report:
    """Everything one run of the rule over a set of files gives."""
    records: List[Record] = field(default_factory=list)
    unparsed: List[Unparsed] = field(default_factory=list)
    failed: List[str] = field(default_factory=list)


def parse_report(text: str) -> List[Record]:
    out: List[Record] = []
    for line in text.splitlines():
        m = REPORT_RX.match(line)
        if m:
            d = {k: ("" if v == "-" else v) for k, v in m.groupdict().items()}
            out.append(Record(d["file"], int(d["line"]), int(d["col"]), d["what"], d["kind"],
                              d["const"], d["field"], d["func"], d["type"], d["expr"]))
    return out


def parse_unparsed(stderr: str) -> List[Unparsed]:
    """The regions spatch's --verbose-parsing says it dropped, per file."""
    out: List[Unparsed] = []
    current, sync = "", 0
    pending: Optional[Tuple[str, int, int]] = None   # file, error line, sync line
    bad = 0

    def flush() -> None:
        if pending is not None:
            rel, err, at = pending
            last = at if at >= err else err
            first = max(1, last - bad + 1) if bad else err
            out.append(Unparsed(rel, min(first, err), last, err))

    for line in stderr.splitlines():
        m = HANDLING_RX.match(line)
        if m:
            flush()
            pending, bad, current, sync = None, 0, m.group(1), 0
            continue
        m = SYNC_RX.match(line)
        if m:
            sync = int(m.group(1))
            continue
        m = ERROR_RX.match(line)
        if m:
            flush()
            pending, bad = (m.group(1) or current, int(m.group(2)), sync), 0
            sync = 0
            continue
        if pending is not None and BAD_RX.match(line):
            bad += 1
    flush()
    return out


def list_files(grep: Grep, subdir: Optional[str], words: Optional[Sequence[str]]) -> List[str]:
    """.c/.h files under the tree's subdir containing MAGIC (or one of words), relative to
    its top."""
    root = grep.root
    where = subdir or "."
    if not (root / where).is_dir():
        raise UsageError(f"M={subdir}: no such directory in {root}")
    pattern = ["-wF", *[a for w in words for a in ("-e", w)]] if words else ["-F", "-e", "MAGIC"]
    out = grep.tree(["-l", *pattern], ["*.c", "*.h"], [where])
    files = sorted(os.path.normpath(f) for f in out.split())
    if not subdir:
        files = [f for f in files if not f.startswith(HOST_DIRS)]
    return files


def uses(data: bytes, setters: Dict[str, Tuple[str, str]]) -> Iterable[Tuple[str, str]]:
    """(name, how) for each MAGIC name data stores or compares: "field" for x->f = C and
    .f = C, "store" for any other store, "compare" for x == C and C != x, and the
    same through a setter or checker macro."""
    for name, start, end in magic_words(data):
        before = data[max(0, start - 64):start].rstrip(b" \t\n(")
        tail = data[end:end + 8].lstrip(b" \t\n")
        after = tail.lstrip(b")").lstrip()
        if before.endswith((b"==", b"!=")) or after.startswith((b"==", b"!=")):
            yield name, "compare"
        elif before.endswith(b"=") and not before[-2:-1] in (b"<", b">", b"+", b"-", b"*", b"/",
                                                             b"%", b"&", b"|", b"^", b"!", b"="):
            member = re.search(rb"(?:->|\.)\s*\w+\s*(?:\[[^\]]*\]\s*)?=$", before)
            yield name, "field" if member else "store"
        elif before.endswith(b",") and tail.startswith(b")"):
            call = re.search(rb"(\w+)\s*\([^(),;]*,?$", before)
            if call and call.group(1).decode() in setters:
                op = setters[call.group(1).decode()][1]
                yield name, "field" if op == "=" else "compare"


def prefilter(files: Sequence[str], texts: Texts, every: bool = False) -> List[str]:
    """The files worth parsing.

    A candidate is stored into a structure field somewhere: compared somewhere
    too (directly or through a checker macro), or never compared (write-only).
    The files that store or compare such a name are parsed.  every=True keeps
    each file that stores or compares any MAGIC name, for a scan of given macros."""
    setters = structs.setter_macros(texts, files)
    seen: Dict[str, Dict[str, Set[str]]] = {"field": {}, "store": {}, "compare": {}}
    for f in files:
        for name, how in uses(texts.raw(f), setters):
            seen[how].setdefault(name, set()).add(f)
    into_field, compared = seen["field"], seen["compare"]
    names = set(into_field) | set(compared) | set(seen["store"]) if every else set(into_field)
    keep: Set[str] = set()
    for name in names:
        for how in seen.values():
            keep |= how.get(name, set())
    return sorted(keep)


def _spatch_chunk(root: Path, files: Sequence[str], extra: Sequence[str]) -> Report:
    """The rule's report on files (one group each).

    Each file's part is kept in the cache by what it is made from: spatch's
    version, the rule and its options, this parser of its output and the
    file's bytes.  A run that failed, or named a file outside its own, is not
    kept.  A run of files none of which the cache holds is returned as spatch
    gave it; else the parts go in the order of files, as one run gives them."""
    settings = [*memo.spatch_inputs(root), json.dumps([rule_options(RULE), list(extra)]),
                RULE.read_text(), Path(__file__).read_text()]
    names = {f: memo.key("find", *settings, f, (root / f).read_bytes()) for f in files
             if (root / f).is_file()}
    kept: Dict[str, Report] = {}
    for f in names:
        part = memo.get_object("find", names[f], Report)
        if part is not None:
            kept[f] = part
    todo = [f for f in files if f not in kept]
    fresh = _spatch_run(root, todo, extra) if todo else Report()
    if fresh.failed or not {r.file for r in fresh.records} | {u.file for u in fresh.unparsed} \
            <= set(todo):
        return Report([r for f in files if f in kept for r in kept[f].records] + fresh.records,
                      [u for f in files if f in kept for u in kept[f].unparsed] + fresh.unparsed,
                      fresh.failed)
    for f in todo:
        kept[f] = Report([r for r in fresh.records if r.file == f],
                         [u for u in fresh.unparsed if u.file == f])
        if f in names:
            memo.put_object("find", names[f], kept[f])
    if len(todo) == len(files):
        return fresh
    return Report([r for f in files for r in kept[f].records],
                  [u for f in files for u in kept[f].unparsed])


def _spatch_run(root: Path, files: Sequence[str], extra: Sequence[str]) -> Report:
    """Run the rule over files (one group each)."""
    with tempfile.NamedTemporaryFile("w", suffix=".groups", delete=False) as fh:
        fh.write("\n\n".join(files) + "\n")
        groups = fh.name
    try:
        res = run(["spatch", "--quiet", "--verbose-parsing", "-D", "report", *rule_options(RULE),
                   *extra, "--timeout", str(FILE_TIMEOUT), "--sp-file", str(RULE),
                   "--file-groups", groups], cwd=root, check=False)
    finally:
        os.unlink(groups)
    # spatch's own macro file (an absolute path) is not the tree's code
    report = Report(parse_report(res.stdout),
                    [u for u in parse_unparsed(res.stderr) if not u.file.startswith("/")],
                    failed_files(res.stderr, files))
    if res.returncode != 0 and not report.failed:
        report.failed = list(files)
    if res.returncode != 0 and len(files) > 1:
        # The whole process died: find the culprit file by file.
        report = Report()
        for f in files:
            one = _spatch_run(root, [f], extra)
            report.records += one.records
            report.unparsed += one.unparsed
            report.failed += one.failed
    return report


def failed_files(stderr: str, files: Sequence[str]) -> List[str]:
    """The files of a run that spatch gave up on: named in a failure line, or the
    file it was handling when the line came.  Source lines echoed by
    --verbose-parsing are not failures, whatever they say."""
    out: List[str] = []
    current = ""
    for line in stderr.splitlines():
        m = HANDLING_RX.match(line)
        if m:
            current = m.group(1)
            continue
        if BAD_RX.match(line) or line.startswith(("  around", "  whole content")):
            continue
        if FAILURE_RX.match(line):
            named = [f for f in files if f in line]
            for f in named or ([current] if current else []):
                if f not in out:
                    out.append(f)
    return out


def spread(root: Path, files: Sequence[str], n: int) -> List[Tuple[List[str], int]]:
    """files in n groups of about the same bytes, each with its bytes: the biggest file
    goes first, each file to the group with the fewest bytes so far, so that no spatch
    run finishes last alone.  Empty groups are dropped."""
    sizes = {f: (root / f).stat().st_size if (root / f).exists() else 0 for f in files}
    groups: List[List[str]] = [[] for _ in range(n)]
    load = [0] * n
    for f in sorted(files, key=lambda f: -sizes[f]):
        i = load.index(min(load))
        groups[i].append(f)
        load[i] += sizes[f]
    return [(g, size) for g, size in zip(groups, load) if g]


def balanced_chunks(root: Path, files: Sequence[str], jobs: int) -> List[List[str]]:
    """Groups of about CHUNK files, the biggest group first."""
    n = max(jobs, -(-len(files) // CHUNK)) if files else 0
    return [g for g, _ in sorted(spread(root, files, n), key=lambda gs: -gs[1])]


def run_rule(root: Path, files: Sequence[str], jobs: int, progress: Progress,
             extra: Sequence[str] = ()) -> Report:
    """find_magic.cocci over files, jobs spatch processes at a time; fails on files
    spatch could not analyse at all.  The report goes in the order of files, as
    one run over them all gives it, however they were shared out."""
    chunks = balanced_chunks(root, files, jobs)
    done, total = 0, Report()
    with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        for chunk, part in zip(chunks, pool.map(lambda c: _spatch_chunk(root, c, extra), chunks)):
            done += len(chunk)
            total.records += part.records
            total.unparsed += part.unparsed
            total.failed += part.failed
            progress.step(f"spatch: {done}/{len(files)} files")
    rank = {f: i for i, f in enumerate(files)}
    total.records.sort(key=lambda r: rank.get(r.file, len(files)))
    total.unparsed.sort(key=lambda u: rank.get(u.file, len(files)))
    if total.failed:
        raise DemagicError(f"spatch could not analyse {len(total.failed)} file(s): "
                           + ", ".join(sorted(set(total.failed))))
    return total


def lost_functions(texts: Texts, region: Unparsed) -> List[str]:
    """The functions defined (or partly defined) in an unparsed region."""
    lines = texts.lines(region.file)
    names = []
    for no in range(region.first, min(region.last, len(lines)) + 1):
        m = FUNC_START.match(lines[no - 1])
        if m and not lines[no - 1].startswith(("#", "static const", "struct")) \
                and m.group(1) not in names:
            names.append(m.group(1))
    return names
