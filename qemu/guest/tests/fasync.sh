# SPDX-License-Identifier: GPL-2.0
#
# fasync: SIGIO through F_SETOWN + O_ASYNC on a pipe, a socket and a pty.
. /tests/lib.sh
t_plan 1
t_ok "SIGIO on pipe, socket and pty; owner changes; close in between" fasync
t_done
