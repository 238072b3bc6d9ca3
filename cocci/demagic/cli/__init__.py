# SPDX-License-Identifier: GPL-2.0
"""The command lines of python3 -m demagic, one module per command."""
