# SPDX-License-Identifier: GPL-2.0
#
# synclink_cs: the module loads, registers its tty driver, and unloads.
. /tests/lib.sh
t_plan 3
t_ok "synclink_cs loads" modprobe synclink_cs
t_ok "the ttySLP tty driver is registered" grep -q ttySLP /proc/tty/drivers
t_ok "synclink_cs unloads" sh -c "rmmod synclink_cs && ! grep -q ttySLP /proc/tty/drivers"
t_done
