# SPDX-License-Identifier: GPL-2.0
"""The kernel tree and what is read from it: provisioning, text and grep, Kconfig and kbuild, the tree's own scripts."""
