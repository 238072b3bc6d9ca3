# SPDX-License-Identifier: GPL-2.0
#
# autofs: the module loads; an autofs mount with a pipe to a daemon comes up
# (autofs_fill_super, which sets up the superblock's info) and goes; the
# module unloads.
. /tests/lib.sh
t_plan 4
t_ok "autofs loads" modprobe autofs4
mkdir -p /tmp/auto
mkfifo /tmp/auto.pipe
exec 7<>/tmp/auto.pipe
t_ok "an autofs mount comes up" mount -t autofs -o "fd=7,pgrp=$$,minproto=5,maxproto=5" automount /tmp/auto
t_ok "and goes" umount /tmp/auto
exec 7>&-
t_ok "autofs unloads" rmmod autofs4
t_done
