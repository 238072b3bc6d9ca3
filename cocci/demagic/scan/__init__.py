# SPDX-License-Identifier: GPL-2.0
"""Finding candidates: the prefilter, find_magic.cocci, the struct of each field, and the evidence the judge reads."""
