# SPDX-License-Identifier: GPL-2.0
"""The reports beside a series, as records: verify's matrix, the boot suite's results and
coverage, and the mutants that coverage reads.

verify and the boot suite write them (to_json); the cover letter and the
boot suite read them back (load), each only when it was made for the same
series (its digest).  No reader takes a report apart as a dict or as prose.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from enum import Enum
from pathlib import Path
from typing import Any, Dict, List, Optional, Tuple, Type, TypeVar


CHECKS = ("applies", "nothing-left", "checkpatch", "kernel-doc", "builds", "bisect", "layout",
          "reference")


class Status(str, Enum):
    PASS = "pass"
    FAIL = "FAIL"
    NA = "n.a."


@dataclass(frozen=True)
class CheckpatchFinding:
    """One line of checkpatch's report on a patch."""
    patch: str         # the patch's file name
    line: int          # in the patch file
    level: str         # ERROR, WARNING or CHECK
    type: str          # AVOID_BUG, FILE_PATH_CHANGES, ...
    message: str
    reason: str = ""   # why it stays (see reason()), when the reader asked

    def __str__(self) -> str:
        return f"{self.patch}:{self.line}: {self.level}:{self.type}: {self.message}"

    @property
    def error(self) -> bool:
        return self.level == "ERROR"

    def to_json(self) -> Dict[str, Any]:
        return {"patch": self.patch, "line": self.line, "level": self.level, "type": self.type,
                "message": self.message, "reason": self.reason}

    @staticmethod
    def from_json(data: Dict[str, Any]) -> "CheckpatchFinding":
        return CheckpatchFinding(data["patch"], data["line"], data["level"], data["type"], data["message"],
                       data.get("reason", ""))


@dataclass
class Cell:
    """The verdict of one check on one patch, a one-line reason and the evidence."""
    status: Status
    reason: str
    details: List[str] = field(default_factory=list)

    def to_json(self) -> Dict[str, Any]:
        return {"status": self.status.value, "reason": self.reason, "details": self.details}

    @staticmethod
    def from_json(data: Dict[str, Any]) -> "Cell":
        return Cell(Status(data["status"]), data["reason"], list(data.get("details", [])))


def passed(reason: str, details: Any = ()) -> Cell:
    return Cell(Status.PASS, reason, list(details))


def failed(reason: str, details: Any = ()) -> Cell:
    return Cell(Status.FAIL, reason, list(details))


def not_applicable(reason: str, details: Any = ()) -> Cell:
    return Cell(Status.NA, reason, list(details))


def objects_text(n: int) -> str:
    return f"{n} object" + ("" if n == 1 else "s")


@dataclass
class Row:
    """One patch of the series: a cell per check, and the objects its build proved."""
    number: int
    name: str
    subject: str
    cells: Dict[str, Cell] = field(default_factory=dict)
    built: List[Tuple[str, str]] = field(default_factory=list)   # (arch, object) built W=1
    header_users: List[str] = field(default_factory=list)       # "arch object" of them that
                                                                 # use a header it changes
    checkpatch: List["CheckpatchFinding"] = field(default_factory=list)   # with reasons

    def cell(self, check: str) -> Cell:
        return self.cells.get(check, not_applicable("not run"))

    def failures(self) -> List[str]:
        return [c for c in CHECKS if self.cell(c).status is Status.FAIL]

    def built_text(self) -> str:
        """'3 objects on i386, x86_64': where the patch was built."""
        archs = sorted({a for a, _ in self.built})
        return f"{objects_text(len(self.built))} on {', '.join(archs)}"

    def to_json(self) -> Dict[str, Any]:
        return {"number": self.number, "name": self.name, "subject": self.subject,
                "cells": {c: self.cell(c).to_json() for c in CHECKS},
                "built": [list(b) for b in self.built], "header_users": self.header_users,
                "checkpatch": [f.to_json() for f in self.checkpatch]}

    @staticmethod
    def from_json(data: Dict[str, Any]) -> "Row":
        return Row(data["number"], data["name"], data["subject"],
                   {c: Cell.from_json(v) for c, v in data["cells"].items()},
                   [(a, o) for a, o in data.get("built", [])], list(data.get("header_users", [])),
                   [CheckpatchFinding.from_json(f) for f in data.get("checkpatch", [])])


R = TypeVar("R", "VerifyReport", "BootReport", "MutantsReport")


def _load(cls: Type[R], path: Path, digest: str) -> Optional[R]:
    """The report in path if it was made for the series of digest (None: absent, of
    another series, or of another format)."""
    try:
        data = json.loads(path.read_text())
    except (OSError, ValueError):
        return None
    if not isinstance(data, dict) or data.get("series_digest") != digest:
        return None
    try:
        return cls.from_json(data)   # type: ignore[attr-defined,no-any-return]
    except (KeyError, TypeError, ValueError):
        return None


@dataclass
class VerifyReport:
    """verify's matrix: one row per patch, with what was checked and how."""
    tree: str
    series: str
    reference: str
    mode: str                  # "full" or "fast"
    notes: List[str] = field(default_factory=list)
    rows: List[Row] = field(default_factory=list)
    timings: Dict[str, float] = field(default_factory=dict)
    digest: str = ""           # of the series' patches (Series.digest)

    def failed(self) -> bool:
        return any(row.failures() for row in self.rows)

    def to_json(self) -> Dict[str, Any]:
        return {
            "tree": self.tree, "series": self.series, "reference": self.reference,
            "mode": self.mode, "notes": self.notes, "checks": list(CHECKS),
            "patches": [r.to_json() for r in self.rows],
            "result": "fail" if self.failed() else "pass",
            "series_digest": self.digest,
        }

    @staticmethod
    def from_json(data: Dict[str, Any]) -> "VerifyReport":
        return VerifyReport(data["tree"], data["series"], data["reference"], data["mode"],
                            list(data.get("notes", [])),
                            [Row.from_json(r) for r in data["patches"]], {},
                            data["series_digest"])

    @staticmethod
    def load(path: Path, digest: str) -> Optional["VerifyReport"]:
        return _load(VerifyReport, path, digest)


class Coverage(str, Enum):
    """How far the boot suite's tests reached the code a patch changes."""
    EXERCISED = "exercised"    # a test that runs it failed on a broken variant of the patch
    RAN = "ran"                # a test ran over it and caught no broken variant
    COMPILED = "compile-only"  # no kernel here runs it


@dataclass
class CoverageRow:
    """What the boot suite proves of one patch, and why not more."""
    number: int
    patch: str
    subject: str
    status: Coverage
    tests: List[str] = field(default_factory=list)    # "name (arch)": caught a mutant of it
    ran: List[str] = field(default_factory=list)      # ran over its code, caught none
    notes: List[str] = field(default_factory=list)    # why not more, each in a few words

    def to_json(self) -> Dict[str, Any]:
        return {"number": self.number, "patch": self.patch, "subject": self.subject,
                "status": self.status.value, "tests": self.tests, "ran": self.ran,
                "notes": self.notes}

    @staticmethod
    def from_json(data: Dict[str, Any]) -> "CoverageRow":
        return CoverageRow(data["number"], data["patch"], data["subject"],
                           Coverage(data["status"]), list(data["tests"]), list(data["ran"]),
                           list(data["notes"]))


@dataclass(frozen=True)
class TestResult:
    """One guest test in one boot."""
    state: str      # before, after
    arch: str
    test: str
    status: str     # KTAP's: ok, not ok, skip, ...


@dataclass
class BootReport:
    """The boot suite's results before and after the series, and its coverage."""
    digest: str
    tree: str
    passed: bool
    worse: List[str] = field(default_factory=list)
    results: List[TestResult] = field(default_factory=list)
    coverage: List[CoverageRow] = field(default_factory=list)

    def to_json(self) -> Dict[str, Any]:
        return {"series_digest": self.digest, "tree": self.tree, "passed": self.passed,
                "worse": self.worse,
                "results": [{"state": r.state, "arch": r.arch, "test": r.test,
                             "status": r.status} for r in self.results],
                "coverage": [c.to_json() for c in self.coverage]}

    @staticmethod
    def from_json(data: Dict[str, Any]) -> "BootReport":
        return BootReport(data["series_digest"], data["tree"], bool(data["passed"]),
                          list(data.get("worse", [])),
                          [TestResult(r["state"], r["arch"], r["test"], r["status"])
                           for r in data.get("results", [])],
                          [CoverageRow.from_json(c) for c in data.get("coverage", [])])

    @staticmethod
    def load(path: Path, digest: str) -> Optional["BootReport"]:
        return _load(BootReport, path, digest)


@dataclass
class MutantRecord:
    """One mutant of the series: which patches it broke, and which checks caught it."""
    mutated: List[str]                  # names of the patches the mutant changed
    failing: List[str]                  # "arch:test" (or "arch:crash") that failed
    lost: List[Tuple[str, ...]]         # (arch, test, subtest...) that passed before only


@dataclass
class MutantsReport:
    """make boot-test-mutant's outcome, which the coverage table reads."""
    digest: str
    mutants: Dict[str, MutantRecord] = field(default_factory=dict)

    def to_json(self) -> Dict[str, Any]:
        return {"series_digest": self.digest,
                "mutants": {n: {"mutated": m.mutated, "failing": m.failing,
                                "lost": [list(leaf) for leaf in m.lost]}
                            for n, m in self.mutants.items()}}

    @staticmethod
    def from_json(data: Dict[str, Any]) -> "MutantsReport":
        return MutantsReport(data["series_digest"], {
            n: MutantRecord(list(m["mutated"]), list(m["failing"]),
                            [tuple(leaf) for leaf in m["lost"]])
            for n, m in data["mutants"].items()})

    @staticmethod
    def load(path: Path, digest: str) -> Optional["MutantsReport"]:
        return _load(MutantsReport, path, digest)

    def caught(self, patch: str) -> List[Tuple[str, ...]]:
        """(arch, test, subtest...) of each check that passed on the pristine kernel and
        failed in a mutant that mutated patch."""
        return [leaf for m in self.mutants.values() if patch in m.mutated for leaf in m.lost]
