# SPDX-License-Identifier: GPL-2.0
#
# l2tp: an L2TPv2 tunnel and session made by PPPoL2TP sockets on the loopback
# answer their ioctls (pppol2tp_ioctl); then an L2TPv3 Ethernet pseudowire
# between two network namespaces joined by a veth pair: a tunnel and a
# session in each, ping and TCP through it, every byte compared.
. /tests/lib.sh
BYTES=204800
t_plan 9

t_ok "l2tp_ppp loads (with l2tp_core and ppp_generic)" modprobe l2tp_ppp
t_ok "PPPoL2TP tunnel 7 and session 9 answer PPPIOCGL2TPSTATS and the MRU ioctls" l2tpctl ppp
t_ok "l2tp_eth and l2tp_netlink load" sh -c "modprobe l2tp_eth && modprobe l2tp_netlink"

two_netns
underlay() {
	netns_ready &&
	modprobe veth && ip link add name l2u type veth &&
	ip link set l2u netns "$NA" && ip link set veth0 netns "$NB" &&
	inA ip addr add 10.7.0.1/24 dev l2u && inA ip link set l2u up &&
	inB ip addr add 10.7.0.2/24 dev veth0 && inB ip link set veth0 up &&
	inA ip link set lo up && inB ip link set lo up
}
t_ok "two namespaces joined by a veth pair" underlay
tunnels() {
	inA l2tpctl tunnel 10.7.0.1 10.7.0.2 1 2 && inB l2tpctl tunnel 10.7.0.2 10.7.0.1 2 1
}
t_ok "an L2TPv3 tunnel over UDP in each namespace" tunnels
sessions() {
	inA l2tpctl session 1 11 22 l2tpa && inB l2tpctl session 2 22 11 l2tpb &&
	inA ip addr add 192.168.77.1/24 dev l2tpa && inA ip link set l2tpa up &&
	inB ip addr add 192.168.77.2/24 dev l2tpb && inB ip link set l2tpb up
}
t_ok "an Ethernet pseudowire session in each, addressed and up" sessions
pings() { "$@" | tee /dev/stderr | grep -q ' 0% packet loss'; }
t_ok "ping through the pseudowire, no loss" pings inA ping -A -c 5 -W 5 192.168.77.2
tcp() {
	inB xfer tcp-serve 5101 $BYTES &
	srv=$!
	inA xfer tcp-send 192.168.77.2 5101 $BYTES && wait $srv
}
t_ok "TCP: $BYTES bytes each way through the pseudowire, compared" tcp
gone() {
	kill "$NA" "$NB" && wait "$NA" "$NB" 2>/dev/null
	wait_for 10 sh -c "! grep -q l2tp /proc/net/dev" || return 1
	# the namespaces' tunnels go on a workqueue: each module unloads once they
	# have, users first (l2tp_ppp uses l2tp_netlink too)
	for m in l2tp_eth l2tp_ppp l2tp_netlink l2tp_core; do
		wait_for 10 rmmod "$m" || { rmmod "$m"; grep l2tp /proc/modules; return 1; }
	done
}
t_ok "the namespaces go; the l2tp modules unload" gone
t_done
