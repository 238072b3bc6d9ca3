# SPDX-License-Identifier: GPL-2.0
"""The errors a user can act on: each is printed as one line (see proc.guarded)."""

from __future__ import annotations


class DemagicError(Exception):
    """A problem the user can act on: printed as one line, exit status 1."""


class UsageError(DemagicError):
    """Bad input (a wrong KDIR, an unknown target, a bad variable): exit status 2."""
