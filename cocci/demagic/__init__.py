# SPDX-License-Identifier: GPL-2.0
"""demagic: retire kernel magic numbers with Coccinelle."""
