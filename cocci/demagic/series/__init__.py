# SPDX-License-Identifier: GPL-2.0
"""The series: one commit per target, messages written from the evidence, the cover letter, mail."""
