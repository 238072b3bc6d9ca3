# SPDX-License-Identifier: GPL-2.0
"""rewrite/targets.py: constants that share a field make one target."""

from __future__ import annotations

import unittest

from demagic.model.candidate import Candidate, Verdict
from demagic.model.target import group_name
from demagic.rewrite import targets


class GroupTest(unittest.TestCase):
    def cand(self, macro: str, field: str, verdict: Verdict = Verdict.REMOVE) -> Candidate:
        return Candidate(macro, "1", None, "queue_entry", field, "q.c", verdict=verdict)

    def test_shared_field_is_one_patch(self) -> None:
        groups = targets.group([self.cand("QUEUE_MAGIC_FREE", "magic"),
                               self.cand("QUEUE_MAGIC_USED", "magic"),
                               self.cand("OTHER_MAGIC", "other")])
        self.assertEqual([g[0] for g in groups],
                         [("QUEUE_MAGIC_FREE", "QUEUE_MAGIC_USED"), ("OTHER_MAGIC",)])

    def test_group_name(self) -> None:
        self.assertEqual(group_name(["QUEUE_MAGIC_FREE", "QUEUE_MAGIC_USED"]),
                         "QUEUE_MAGIC_{FREE,USED}")
        self.assertEqual(group_name(["YAM_MAGIC"]), "YAM_MAGIC")


if __name__ == "__main__":
    unittest.main()
