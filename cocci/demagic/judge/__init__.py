# SPDX-License-Identifier: GPL-2.0
"""Verdicts from evidence alone, and the judged scan of a tree, cached by what it was made from."""
