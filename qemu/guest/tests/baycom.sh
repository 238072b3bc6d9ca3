# SPDX-License-Identifier: GPL-2.0
#
# baycom: baycom_par comes up on the emulated parallel port (parport_pc
# io=0x378 irq=7); baycom_ser_fdx and baycom_ser_hdx load and register
# (they are never brought up: QEMU's UART would storm IRQ 3).
. /tests/lib.sh
t_plan 8
t_ok "parport_pc finds the port at 0x378, irq 7" sh -c "modprobe parport_pc io=0x378 irq=7 && dmesg | grep -q 'parport0: PC-style at 0x378'"
t_ok "baycom_par registers bcp0" sh -c "modprobe baycom_par mode=picpar iobase=0x378 && [ -d /sys/class/net/bcp0 ]"
t_ok "bcp0 comes up on parport0" ip link set bcp0 up
t_ok "bcp0 goes down" ip link set bcp0 down
t_ok "unloading baycom_par removes bcp0" sh -c "rmmod baycom_par && [ ! -d /sys/class/net/bcp0 ]"
t_ok "baycom_ser_fdx registers bcsf0" sh -c "modprobe baycom_ser_fdx && [ -d /sys/class/net/bcsf0 ]"
t_ok "baycom_ser_hdx registers bcsh0" sh -c "modprobe baycom_ser_hdx && [ -d /sys/class/net/bcsh0 ]"
t_ok "both unload and unregister" sh -c "rmmod baycom_ser_fdx baycom_ser_hdx && [ ! -d /sys/class/net/bcsf0 -a ! -d /sys/class/net/bcsh0 ]"
t_done
