# SPDX-License-Identifier: GPL-2.0
"""The tests never read or fill the cache of real runs (build/cache): they have one of
their own, empty at the start, removed at the end."""

import atexit

from demagic.core import memo

_CACHE = memo.isolated()
_CACHE.__enter__()
atexit.register(_CACHE.__exit__, None, None, None)
