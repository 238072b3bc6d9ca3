# SPDX-License-Identifier: GPL-2.0
#
# coda: the module loads, the file system registers, /dev/cfs0 opens,
# polls and closes, and the module unloads.
. /tests/lib.sh
t_plan 4
t_ok "coda loads" modprobe coda
t_ok "coda is a registered file system" grep -qw coda /proc/filesystems
t_ok "/dev/cfs0 opens, polls and closes" cfs /dev/cfs0
t_ok "coda unloads" rmmod coda
t_done
