# SPDX-License-Identifier: GPL-2.0
"""The commits of a work copy as a reviewable mail series, written atomically."""

from __future__ import annotations

import re
import shutil
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Dict, List, Sequence, Tuple

from demagic.proc import DemagicError, run

FORMAT_PATCH = ["format-patch", "--cover-letter", "--zero-commit", "--no-signature",
                "--subject-prefix=PATCH", "--no-renames", "-q"]


@dataclass(frozen=True)
class Mailed:
    """Who a patch goes to."""
    to: Tuple[str, ...]
    cc: Tuple[str, ...]


def maintainers(work: Path, patch: Path) -> Mailed:
    """To: the maintainers, Cc: reviewers and lists, from get_maintainer.pl."""
    script = work / "scripts" / "get_maintainer.pl"
    if not script.exists():
        return Mailed((), ())
    res = run(["perl", str(script), "--no-git", "--no-git-fallback", "--no-tree",
               "--no-substatus", str(patch)], cwd=work, check=False)
    to: List[str] = []
    cc: List[str] = []
    for line in res.stdout.splitlines():
        m = re.match(r"^(.*?)\s*\((.*)\)\s*$", line)
        who, role = (m.group(1), m.group(2)) if m else (line.strip(), "")
        if not who or "@" not in who:
            continue
        (to if role.startswith(("maintainer", "supporter")) else cc).append(who)
    return Mailed(tuple(dict.fromkeys(to)), tuple(dict.fromkeys(cc)))


def add_headers(patch: Path, mailed: Mailed) -> None:
    """Put To:/Cc: after the Subject: of a format-patch file."""
    text = patch.read_text()
    head, sep, rest = text.partition("\n\n")
    extra = ""
    if mailed.to:
        extra += "\nTo: " + ",\n    ".join(mailed.to)
    if mailed.cc:
        extra += "\nCc: " + ",\n    ".join(mailed.cc)
    patch.write_text(head + extra + sep + rest)


def checkpatch(work: Path, patches: Sequence[Path]) -> Dict[Path, Tuple[List[str], List[str]]]:
    """(errors, warnings) that scripts/checkpatch.pl reports on each patch."""
    found: Dict[Path, Tuple[List[str], List[str]]] = {p: ([], []) for p in patches}
    script = work / "scripts" / "checkpatch.pl"
    if not script.exists() or not patches:
        return found
    res = run(["perl", str(script), "--no-color", "--no-summary", "--terse", "--show-types",
               *map(str, patches)], cwd=work, check=False)
    by_name = {str(p): p for p in patches}
    for line in res.stdout.splitlines():
        name = line.split(":", 1)[0]
        if name in by_name:
            kind = 0 if ": ERROR:" in line else 1 if ": WARNING:" in line else None
            if kind is not None:
                found[by_name[name]][kind].append(line[len(name) + 1:])
    return found


def format_series(work: Path, base: str, dest: Path, who: Tuple[str, str]) -> List[Path]:
    """git format-patch base..HEAD into dest (cover letter first, from who)."""
    run(["git", "-C", str(work), "-c", f"user.name={who[0]}", "-c", f"user.email={who[1]}",
         "-c", "core.abbrev=12", *FORMAT_PATCH, "-o", str(dest), f"{base}..HEAD"])
    return sorted(dest.glob("*.patch"))


def fill_cover(cover: Path, subject: str, blurb: str, mailed: Mailed) -> None:
    text = cover.read_text()
    text = text.replace("*** SUBJECT HERE ***", subject).replace("*** BLURB HERE ***", blurb)
    # format-patch dates the cover letter now: use the date of the patches.
    patch_date = re.search(r"^Date: .*$", (cover.parent / sorted(
        p.name for p in cover.parent.glob("0001-*.patch"))[0]).read_text(), re.M)
    if patch_date:
        text = re.sub(r"^Date: .*$", patch_date.group(0), text, count=1, flags=re.M)
    cover.write_text(text)
    add_headers(cover, mailed)


def mail_all(work: Path, patches: Sequence[Path], jobs: int) -> Dict[Path, Mailed]:
    with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        found = list(pool.map(lambda p: maintainers(work, p), patches))
    return dict(zip(patches, found))


def style_all(work: Path, patches: Sequence[Path], jobs: int) -> Dict[Path, Tuple[List[str], List[str]]]:
    """checkpatch.pl over the patches, in jobs batches (one perl start each)."""
    batches = [list(patches[k::max(1, jobs)]) for k in range(max(1, jobs))]
    found: Dict[Path, Tuple[List[str], List[str]]] = {}
    with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        for part in pool.map(lambda b: checkpatch(work, b), batches):
            found.update(part)
    return {p: found[p] for p in patches}


def replace_dir(new: Path, out: Path, keep_suffixes: Sequence[str] = (".txt", ".md", ".json")) -> None:
    """Swap new in as out; reports of the old out (scan, verify, boot) stay."""
    if out.exists():
        if not out.is_dir():
            raise DemagicError(f"OUT={out}: not a directory")
        for old in out.iterdir():
            if old.suffix in keep_suffixes and not (new / old.name).exists():
                shutil.copy2(old, new / old.name)
        trash = out.with_name(f".{out.name}.old")
        shutil.rmtree(trash, ignore_errors=True)
        out.rename(trash)
        new.rename(out)
        shutil.rmtree(trash)
    else:
        out.parent.mkdir(parents=True, exist_ok=True)
        new.rename(out)
