# SPDX-License-Identifier: GPL-2.0
"""verify: prove a demagic series applies, builds on its architecture and leaves nothing."""
