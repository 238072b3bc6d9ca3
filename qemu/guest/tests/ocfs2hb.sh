# SPDX-License-Identifier: GPL-2.0
#
# ocfs2hb: loading ocfs2_nodemanager registers o2net's heartbeat callbacks
# (o2hb_register_callback) and unloading it unregisters them; in between the
# cluster shows in configfs and a cluster with one local node can be made.
. /tests/lib.sh
t_plan 4
t_ok "ocfs2_nodemanager loads (o2hb_register_callback)" modprobe ocfs2_nodemanager
cluster() {
	mkdir -p /sys/kernel/config && { mountpoint -q /sys/kernel/config ||
		mount -t configfs configfs /sys/kernel/config; } &&
	mkdir /sys/kernel/config/cluster/demo && ls /sys/kernel/config/cluster/demo/node
}
t_ok "a cluster can be made in configfs" cluster
t_ok "and removed" rmdir /sys/kernel/config/cluster/demo
release() { umount /sys/kernel/config; rmmod ocfs2_nodemanager; }
t_ok "ocfs2_nodemanager unloads (o2hb_unregister_callback)" release
t_done
