# SPDX-License-Identifier: GPL-2.0
#
# slip: two slip interfaces on pty masters, wired through their slaves by
# slipctl, each in its own network namespace; ping, TCP and UDP both ways
# with every byte compared, CSLIP too; the ldisc ioctls answer; a hangup
# removes one interface and a close the other.
. /tests/lib.sh
BYTES=204800
t_plan 17

t_ok "slip module loads" modprobe slip
mkfifo /tmp/slipctl.cmd /tmp/slipctl.rsp
slipctl </tmp/slipctl.cmd >/tmp/slipctl.rsp &
exec 3>/tmp/slipctl.cmd 4</tmp/slipctl.rsp

ask() {
	echo "$1" >&3
	read -r reply <&4 || reply="fail slipctl gone"
	echo "$reply"
	case $reply in ok*) return 0 ;; *) return 1 ;; esac
}

set -- $(ask names)
A=$2 B=$3
t_ok "N_SLIP on two ptys gives two interfaces ($A, $B)" [ "$1" = ok -a -n "$B" ]
t_ok "a second TIOCSETD N_SLIP keeps each tty attached" ask again
t_ok "SIOCGIFENCAP/SIOCSIFENCAP, keepalive and outfill ioctls answer" ask ioctls

two_netns
setup() {
	netns_ready &&
	ip link set "$A" netns "$NA" && ip link set "$B" netns "$NB" &&
	inA ip addr add 10.9.0.1/24 dev "$A" && inA ip link set "$A" up &&
	inB ip addr add 10.9.0.2/24 dev "$B" && inB ip link set "$B" up
}
t_ok "each interface in its own network namespace" setup
pings() { "$@" | tee /dev/stderr | grep -q ' 0% packet loss'; }
t_ok "ping from $A's namespace to $B's, no loss" pings inA ping -A -c 3 -W 5 10.9.0.2
t_ok "ping from $B's namespace to $A's, no loss" pings inB ping -A -c 3 -W 5 10.9.0.1

tcp() {
	inB xfer tcp-serve "$1" $BYTES &
	srv=$!
	inA xfer tcp-send 10.9.0.2 "$1" $BYTES && wait $srv
}
udp() {
	inA xfer udp-echo 6001 &
	srv=$!
	inB xfer udp-send 10.9.0.1 6001 $BYTES && wait $srv
}
t_ok "TCP: $BYTES bytes each way, compared" tcp 5001
t_ok "UDP: $BYTES bytes each way, compared" udp
t_ok "both ends switch to CSLIP" ask cslip
t_ok "TCP over CSLIP: $BYTES bytes each way, compared" tcp 5002
t_ok "ping over CSLIP, no loss" pings inA ping -A -c 2 -W 5 10.9.0.2

t_ok "TIOCVHANGUP on $B's tty answers" ask hangup
t_ok "the hangup removed $B" wait_for 5 sh -c "! nsenter -t $NB -n ip link show $B"
t_ok "$A is still there" inA ip link show "$A"
t_ok "closing both sides of $A's pty answers" ask close
t_ok "the close removed $A" wait_for 5 sh -c "! nsenter -t $NA -n ip link show $A"
ask quit >/dev/null
kill "$NA" "$NB"
t_done
