# SPDX-License-Identifier: GPL-2.0
"""demagic boot suite: build before/after kernels, boot them in QEMU, run guest tests."""
