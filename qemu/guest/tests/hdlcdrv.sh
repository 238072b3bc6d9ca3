# SPDX-License-Identifier: GPL-2.0
#
# hdlcdrv: the hdlcloop test modem registers with hdlcdrv and loops its
# transmit bit stream back into its receiver; AX.25 frames sent on
# hdlcloop0 come back intact through hdlcdrv's arbitrate, transmit and
# receive paths.  Unloading unregisters it.
. /tests/lib.sh
t_plan 4
t_ok "hdlcdrv loads" modprobe hdlcdrv
t_ok "hdlcloop registers hdlcloop0" sh -c "insmod /lib/modules/extra/hdlcloop.ko && [ -d /sys/class/net/hdlcloop0 ]"
t_ok "40 AX.25 frames loop back intact" ax25loop hdlcloop0 40
t_ok "unloading hdlcloop removes hdlcloop0" sh -c "rmmod hdlcloop && [ ! -d /sys/class/net/hdlcloop0 ]"
t_done
