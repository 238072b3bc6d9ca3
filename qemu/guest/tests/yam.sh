# SPDX-License-Identifier: GPL-2.0
#
# yam: the module registers yam0..yam3, the SIOCDEVPRIVATE configuration
# ioctl gets and sets, opening a port with no modem fails cleanly (yam0:
# its UART belongs to the console; yam3: nothing answers at 0x2e8).
. /tests/lib.sh
t_plan 3
t_ok "yam registers yam0..yam3" sh -c "modprobe yam && for i in 0 1 2 3; do [ -d /sys/class/net/yam\$i ] || exit 1; done"
t_ok "configuration ioctl and failing open" yamcfg yam0 yam3
t_ok "unloading yam removes its interfaces" sh -c "rmmod yam && [ ! -d /sys/class/net/yam0 ]"
t_done
