# SPDX-License-Identifier: GPL-2.0
"""The records every stage shares: candidates and their evidence, targets, patches and series, reports."""
