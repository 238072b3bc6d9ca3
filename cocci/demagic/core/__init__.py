# SPDX-License-Identifier: GPL-2.0
"""Below every stage: processes and errors, paths, locks, the result cache, the compiler cache, Debian packages."""
