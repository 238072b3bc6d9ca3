# SPDX-License-Identifier: GPL-2.0
#
# coda: the module loads, the file system registers, /dev/cfs0 opens,
# polls and closes; with venus answering upcalls, coda mounts and its root
# directory opens, reads and closes (coda_ftoc); the module unloads.
. /tests/lib.sh
t_plan 5
t_ok "coda loads" modprobe coda
t_ok "coda is a registered file system" grep -qw coda /proc/filesystems
t_ok "/dev/cfs0 opens, polls and closes" cfs /dev/cfs0
t_ok "mount, open, readdir, close, umount with a minimal venus" venus
t_ok "coda unloads" rmmod coda
t_done
