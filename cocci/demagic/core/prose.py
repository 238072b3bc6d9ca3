# SPDX-License-Identifier: GPL-2.0
"""English for what demagic writes: lists joined with "and", paragraphs filled."""

from __future__ import annotations

import re
import textwrap
from typing import Iterable

WIDTH = 72   # a commit message's lines, as the kernel's git log wants them


def and_list(items: Iterable[str]) -> str:
    """'a', 'b', 'c' -> 'a, b and c' (empty items dropped, each once)."""
    unique = list(dict.fromkeys(i for i in items if i))
    if len(unique) <= 1:
        return "".join(unique)
    return ", ".join(unique[:-1]) + " and " + unique[-1]


def flow(paragraph: str, indent: str = "") -> str:
    """paragraph filled to WIDTH; with indent, a "- " item continues under its text and
    an indented one further in."""
    more = " " * len(indent) if indent.strip() else indent + "  "
    # git drops a message line that starts with '#': a word that does is glued to the
    # one before it
    glued = re.sub(r" (?=#)", GLUE, paragraph)
    text = textwrap.fill(glued, width=WIDTH, initial_indent=indent,
                         subsequent_indent=more if indent else "",
                         break_on_hyphens=False, break_long_words=False)
    return text.replace(GLUE, " ")


GLUE = "\x00"
