# SPDX-License-Identifier: GPL-2.0
"""verify bench: time a cold run (no build directories, an empty compiler cache) and a warm
re-run.

The figures are printed, never asserted: the targets (cold <= 15 min, warm
<= 3 min on a 2-core machine) are for people to read against.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from typing import Tuple

from demagic.core.timing import timed
from demagic.core.proc import Progress
from demagic.core import paths
from demagic.kernel.tree import pristine
from verify.targets import ARCHES
from verify.run import Options, verify

COLD_TARGET = 15 * 60
WARM_TARGET = 3 * 60


def timed_run(opts: Options) -> Tuple[float, str]:
    wall, _, matrix = timed(lambda: verify(opts, Progress()))
    return wall, "FAIL" if matrix.failed() else "pass"


def main(opts: Options) -> int:
    tree = pristine(opts.kdir, tree_name=opts.tree)
    for arch in ARCHES:
        shutil.rmtree(paths.BUILD / "verify" / tree.name / f"{arch.name}-{opts.state}",
                      ignore_errors=True)
    with tempfile.TemporaryDirectory(dir=paths.BUILD) as empty:
        os.environ["DEMAGIC_CCACHE"] = empty    # cold: nothing cached; warm: the same cache
        try:
            cold, cold_result = timed_run(opts)
            warm, warm_result = timed_run(opts)
        finally:
            del os.environ["DEMAGIC_CCACHE"]
    mode = "fast" if opts.fast else "full"
    print(f"verify bench ({mode}, -j{opts.jobs}, {opts.series.path if opts.series else '-'}):")
    print(f"  cold run (no build dirs): {cold:7.1f} s  (target {COLD_TARGET} s)  {cold_result}")
    print(f"  warm re-run:              {warm:7.1f} s  (target {WARM_TARGET} s)  {warm_result}")
    return 0
