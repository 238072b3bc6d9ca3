# SPDX-License-Identifier: GPL-2.0
#
# baycom_epp (i386): the module registers bce0 and unloading unregisters it.
. /tests/lib.sh
t_plan 3
t_ok "parport_pc finds the port at 0x378" sh -c "modprobe parport_pc io=0x378 irq=7 && dmesg | grep -q 'parport0: PC-style at 0x378'"
t_ok "baycom_epp registers bce0" sh -c "modprobe baycom_epp && [ -d /sys/class/net/bce0 ]"
t_ok "unloading baycom_epp removes bce0" sh -c "rmmod baycom_epp && [ ! -d /sys/class/net/bce0 ]"
t_done
