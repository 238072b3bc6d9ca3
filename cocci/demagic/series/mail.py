# SPDX-License-Identifier: GPL-2.0
"""The commits of a work copy as a reviewable mail series, written atomically."""

from __future__ import annotations

import json
import re
import tempfile
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Dict, List, Optional, Sequence, Tuple

from demagic.kernel import checkpatch
from demagic.model.reports import CheckpatchFinding as Finding
from demagic.core import memo
from demagic.core.errors import DemagicError
from demagic.core.proc import run

FORMAT_PATCH = ["format-patch", "--cover-letter", "--zero-commit", "--no-signature",
                "--subject-prefix=PATCH", "--no-renames", "-q"]


@dataclass(frozen=True)
class Mailed:
    """Who a patch goes to."""
    to: Tuple[str, ...]
    cc: Tuple[str, ...]


# To: the people who look after the code; Cc: reviewers and lists.
TO_ROLES = ("maintainer", "supporter", "odd fixer", "chief penguin")
# get_maintainer.pl options demagic uses, by the name its GetOptions declares.
GM_OPTIONS = (("--no-git", "git!"), ("--no-git-fallback", "git-fallback!"), ("--no-tree", "tree!"))


def gm_options(script: Path) -> List[str]:
    """The options of GM_OPTIONS that this tree's get_maintainer.pl accepts."""
    text = script.read_text(errors="replace")
    return [opt for opt, decl in GM_OPTIONS if f"'{decl}'" in text or f'"{decl}"' in text]


PERL_FIXED = {"PERL_HASH_SEED": "0", "PERL_PERTURB_KEYS": "0"}


DOCS = "Documentation/"
TRANSLATIONS = "Documentation/translations/"


def split(text: str) -> Tuple[str, List[Tuple[str, str]]]:
    """A format-patch text as its head (up to the first diff) and its diffs by file."""
    at = text.find("\ndiff --git ")
    if at < 0:
        return text, []
    head, body = text[:at + 1], text[at + 1:]
    parts = re.split(r"(?m)^(?=diff --git )", body)
    out = []
    for part in parts:
        m = re.match(r"diff --git a/(\S+) ", part)
        if m:
            out.append((m.group(1), part))
    return head, out


def maintainers(work: Path, patch: Path) -> Mailed:
    """To: the maintainers, Cc: reviewers and lists, from the tree's get_maintainer.pl.

    A patch that changes code goes to those who look after that code; the
    registry rows it drops add the documentation maintainers and list to Cc:,
    not the translators of every translation, who get the patches that change
    only documentation.  A tree without the script gets no addresses; a script
    that fails stops the run."""
    script = work / "scripts" / "get_maintainer.pl"
    if not script.exists():
        return Mailed((), ())
    head, code, docs = parts(patch)
    if not code:
        return _addresses(ask(work, script, patch))
    found = _addresses(ask_part(work, script, patch, head, code))
    if not docs:
        return found
    more = _addresses(ask_part(work, script, patch, head, docs))
    cc = [w for w in found.cc + more.to + more.cc if w not in found.to]
    return Mailed(found.to, tuple(dict.fromkeys(cc)))


def parts(patch: Path) -> Tuple[str, List[str], List[str]]:
    """A format-patch file as its head, its diffs of code, and its diffs of documentation
    but for the translations."""
    head, diffs = split(patch.read_text(errors="replace"))
    code = [d for path, d in diffs if not path.startswith(DOCS)]
    docs = [d for path, d in diffs if path.startswith(DOCS) and not path.startswith(TRANSLATIONS)]
    return head, code, docs


def ask(work: Path, script: Path, patch: Path, name: str = "",
        extra: Sequence[str] = ()) -> str:
    """What get_maintainer.pl prints for one patch file, with extra options (name: the
    patch it was cut from); a script that fails stops the run."""
    # perl orders hash keys at random per process; get_maintainer.pl lists sections
    # that match equally well in that order: a fixed seed gives the same To: each run
    res = run(["perl", str(script), *gm_options(script), *extra, str(patch)], cwd=work,
              check=False, env=PERL_FIXED)
    if res.returncode != 0:
        why = (res.stderr or res.stdout).strip().splitlines()
        raise DemagicError(f"scripts/get_maintainer.pl failed on {name or patch.name} "
                           f"(exit {res.returncode}): {why[0] if why else 'no message'}")
    return res.stdout


def ask_part(work: Path, script: Path, patch: Path, head: str, diffs: Sequence[str],
             extra: Sequence[str] = ()) -> str:
    """ask() about part of patch: its head with only diffs (see parts())."""
    with tempfile.TemporaryDirectory(prefix="demagic-gm-") as tmp:
        part = Path(tmp) / "part.patch"
        part.write_text(head + "".join(diffs))
        return ask(work, script, part, patch.name, extra)


def _addresses(answer: str) -> Mailed:
    """get_maintainer.pl's answer as To: (maintainers) and Cc: (the others)."""
    to: List[str] = []
    cc: List[str] = []
    for line in answer.splitlines():
        m = re.match(r"^(.*?)\s*\((.*)\)\s*$", line)
        who, role = (m.group(1), m.group(2)) if m else (line.strip(), "")
        if not who or "@" not in who:
            continue
        (to if role.startswith(TO_ROLES) else cc).append(who)
    if not to and cc:
        to, cc = cc[:1], cc[1:]
    return Mailed(tuple(dict.fromkeys(to)), tuple(dict.fromkeys(cc)))


def message_id(digest: str, number: int) -> str:
    """A Message-Id for patch number of a series, the same for the same series."""
    return f"<demagic-{digest}-{number:04d}@localhost>"


def unfold_subject(head: str) -> str:
    """The Subject: on one line, as RFC 5322 allows up to 998 characters: git
    format-patch folds a long one, git am unfolds it, but Debian's b4 (0.12) copies
    it with its line break into the message it writes and stops."""
    return re.sub(r"(?m)^Subject: .*(?:\n[ \t].*)+",
                  lambda m: re.sub(r"\n(?=[ \t])", "", m.group(0)), head)


def add_headers(patch: Path, mailed: Mailed, digest: str = "", number: int = 0) -> None:
    """Put To:/Cc: after the Subject: of a format-patch file, and with digest the thread
    headers git send-email --thread would give: every patch answers the cover letter."""
    text = patch.read_text()
    head, sep, rest = text.partition("\n\n")
    head = unfold_subject(head)
    extra = ""
    if digest:
        extra += f"\nMessage-Id: {message_id(digest, number)}"
        if number:
            first = message_id(digest, 0)
            extra += f"\nIn-Reply-To: {first}\nReferences: {first}"
    if mailed.to:
        extra += "\nTo: " + ",\n    ".join(mailed.to)
    if mailed.cc:
        extra += "\nCc: " + ",\n    ".join(mailed.cc)
    patch.write_text(head + extra + sep + rest)


NETDEV = "netdev@vger.kernel.org"


def tree_tag(patch: Path, mailed: Mailed) -> str:
    """The tree a patch names in its subject, as its list requires: net-next for a
    change of code that goes to netdev ("" for any other)."""
    _head, diffs = split(patch.read_text(errors="replace"))
    code = any(not path.startswith(DOCS) for path, _d in diffs)
    return "net-next" if code and NETDEV in mailed.to + mailed.cc else ""


def tag_subject(patch: Path, tag: str) -> None:
    """[PATCH 04/20] -> [PATCH net-next 04/20]."""
    if not tag:
        return
    text = patch.read_text()
    patch.write_text(re.sub(r"(?m)^Subject: \[PATCH ", f"Subject: [PATCH {tag} ", text, count=1))


def add_notes(patch: Path, lines: Sequence[str]) -> None:
    """Put lines under the --- of a format-patch file, before the diffstat: git am leaves
    them out of the commit."""
    if not lines:
        return
    text = patch.read_text()
    at = text.find("\n---\n")
    if at < 0:
        raise DemagicError(f"{patch.name}: no --- line to put notes under")
    at += len("\n---\n")
    patch.write_text(text[:at] + "\n".join(lines) + "\n\n" + text[at:])


def format_series(work: Path, base: str, dest: Path, who: Tuple[str, str],
                  base_commit: bool = False) -> List[Path]:
    """git format-patch base..HEAD into dest (cover letter first, from who); with
    base_commit, the cover letter ends with base-commit: (the tree has upstream history)."""
    run(["git", "-C", str(work), "-c", f"user.name={who[0]}", "-c", f"user.email={who[1]}",
         "-c", "core.abbrev=12", *FORMAT_PATCH, *([f"--base={base}"] if base_commit else []),
         "-o", str(dest), f"{base}..HEAD"])
    return sorted(dest.glob("*.patch"))


def fill_cover(cover: Path, subject: str, blurb: str, mailed: Mailed,
               date: Optional[str] = None, digest: str = "") -> None:
    """Subject and text of the cover letter; date (RFC 2822) when the series has fixed
    dates, else format-patch's own."""
    text = cover.read_text()
    text = text.replace("*** SUBJECT HERE ***", subject).replace("*** BLURB HERE ***", blurb)
    if date:
        text = re.sub(r"^Date: .*$", f"Date: {date}", text, count=1, flags=re.M)
    cover.write_text(text)
    add_headers(cover, mailed, digest, 0)


def tree_state(work: Path) -> Optional[str]:
    """What the tree's scripts read, for the cache: the commit checked out (its files
    and history) when no file differs from it; None when one does."""
    if run(["git", "-C", str(work), "diff-index", "--name-only", "HEAD"]).stdout.strip():
        return None
    conf = Path.home() / ".checkpatch.conf"
    return "\0".join([run(["git", "-C", str(work), "rev-parse", "HEAD"]).stdout.strip(),
                      memo.version("perl", "-e", "print $^V"), conf.read_text(errors="replace") if conf.exists() else ""])


# what a kept result of each kind holds: To: and Cc:, and kernel.checkpatch.Finding records
FORMS = {"get_maintainer": "to, cc; code and registry rows asked apart",
         "checkpatch": "findings 1"}


def _kept(kind: str, state: Optional[str], patches: Sequence[Path]) -> Dict[Path, str]:
    """The cache's name for each patch's result: what it holds, the tree's state and the
    patch's bytes."""
    if state is None:
        return {}
    return {p: memo.key(kind, FORMS[kind], state, p.read_bytes()) for p in patches}


def mail_all(work: Path, patches: Sequence[Path], jobs: int,
             state: Optional[str]) -> Dict[Path, Mailed]:
    """maintainers() of each patch; a patch seen before on the same tree state (see
    tree_state), from the cache."""
    names = _kept("get_maintainer", state, patches)
    found: Dict[Path, Mailed] = {}
    for p, name in names.items():
        kept = memo.get("get_maintainer", name)
        if kept is not None:
            to, cc = json.loads(kept)
            found[p] = Mailed(tuple(to), tuple(cc))
    todo = [p for p in patches if p not in found]
    with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        for p, mailed in zip(todo, pool.map(lambda p: maintainers(work, p), todo)):
            found[p] = mailed
            if p in names:
                memo.put("get_maintainer", names[p], json.dumps([mailed.to, mailed.cc]).encode())
    return {p: found[p] for p in patches}


def style_all(work: Path, patches: Sequence[Path], jobs: int,
              state: Optional[str]) -> Dict[Path, List[Finding]]:
    """checkpatch.pl over the patches, in jobs batches (one perl start each); a patch seen
    before on the same tree state, from the cache."""
    names = _kept("checkpatch", state, patches)
    found: Dict[Path, List[Finding]] = {}
    for p, name in names.items():
        kept = memo.get("checkpatch", name)
        if kept is not None:
            found[p] = [Finding.from_json(f) for f in json.loads(kept)]
    todo = [p for p in patches if p not in found]
    batches = [b for b in (list(todo[k::max(1, jobs)]) for k in range(max(1, jobs))) if b]
    with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        for part in pool.map(lambda b: checkpatch.check(work, b), batches):
            for p, result in part.items():
                found[p] = result
                if p in names:
                    memo.put("checkpatch", names[p],
                             json.dumps([f.to_json() for f in result]).encode())
    return {p: found[p] for p in patches}
