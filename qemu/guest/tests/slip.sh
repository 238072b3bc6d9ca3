# SPDX-License-Identifier: GPL-2.0
#
# slip: N_SLIP on both ends of a pty pair, each interface in its own network
# namespace; ping, TCP and UDP both ways with every byte compared, CSLIP too;
# the ldisc ioctls answer; closing the master removes both interfaces.
. /tests/lib.sh
BYTES=204800
t_plan 14

t_ok "slip module loads" modprobe slip
mkfifo /tmp/slip.in /tmp/slip.out
slipctl </tmp/slip.in >/tmp/slip.out &
exec 3>/tmp/slip.in 4</tmp/slip.out

ask() {
	echo "$1" >&3
	read -r reply <&4 || reply="fail slipctl gone"
	echo "$reply"
	case $reply in ok*) return 0 ;; *) return 1 ;; esac
}

set -- $(ask names)
A=$2 B=$3
t_ok "N_SLIP on both pty ends gives two interfaces ($A, $B)" [ "$1" = ok -a -n "$B" ]
t_ok "a second TIOCSETD N_SLIP keeps each end attached" ask again
t_ok "SIOCGIFENCAP/SIOCSIFENCAP, keepalive and outfill ioctls answer" ask ioctls

unshare -n sleep 600 &
NA=$!
unshare -n sleep 600 &
NB=$!
inA() { nsenter -t "$NA" -n "$@"; }
inB() { nsenter -t "$NB" -n "$@"; }
setup() {
	ip link set "$A" netns "$NA" && ip link set "$B" netns "$NB" &&
	inA ip addr add 10.9.0.1/24 dev "$A" && inA ip link set "$A" up &&
	inB ip addr add 10.9.0.2/24 dev "$B" && inB ip link set "$B" up
}
t_ok "each interface in its own network namespace" setup
t_ok "ping from $A's namespace to $B's" inA ping -c 3 -W 5 10.9.0.2
t_ok "ping from $B's namespace to $A's" inB ping -c 3 -W 5 10.9.0.1

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
t_ok "ping over CSLIP" inA ping -c 2 -W 5 10.9.0.2

t_ok "closing the master (hangup of the slave) answers" ask hangup
t_ok "both interfaces are gone" wait_for 5 sh -c "! nsenter -t $NA -n ip link show $A && ! nsenter -t $NB -n ip link show $B"
t_ok "closing the slave afterwards answers" ask close
ask quit >/dev/null
kill "$NA" "$NB"
t_done
