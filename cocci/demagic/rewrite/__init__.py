# SPDX-License-Identifier: GPL-2.0
"""Rewriting a target in a work copy: the rules through spatch, and the post-passes SmPL cannot do."""
