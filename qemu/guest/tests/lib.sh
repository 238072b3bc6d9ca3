# SPDX-License-Identifier: GPL-2.0
#
# KTAP for the guest test scripts: t_plan N, then t_ok NAME COMMAND... once
# per check; the command's output becomes "# " lines before its result.  The script's exit
# status is 0 only if every check passed (t_done).

T_N=0
T_FAIL=0

t_plan() {
	echo "KTAP version 1"
	echo "1..$1"
}

t_ok() {
	name=$1
	shift
	T_N=$((T_N + 1))
	if "$@" >/tmp/t_out 2>&1; then
		sed 's/^/# /' /tmp/t_out
		echo "ok $T_N - $name"
	else
		sed 's/^/# /' /tmp/t_out
		echo "not ok $T_N - $name"
		T_FAIL=1
	fi
}

# wait_for SECONDS COMMAND...: retry COMMAND every 0.1 s until it succeeds.
wait_for() {
	tries=$(($1 * 10))
	shift
	while ! "$@" >/dev/null 2>&1; do
		tries=$((tries - 1))
		[ "$tries" -gt 0 ] || return 1
		sleep 0.1
	done
}

# two_netns: two network namespaces, each held by a sleeper (NA, NB); run a
# command in one with inA/inB; netns_ready waits until both exist.
two_netns() {
	unshare -n sleep 600 &
	NA=$!
	unshare -n sleep 600 &
	NB=$!
}
other_ns() { [ "$(readlink /proc/$1/ns/net)" != "$(readlink /proc/$$/ns/net)" ]; }
netns_ready() { wait_for 5 other_ns "$NA" && wait_for 5 other_ns "$NB"; }
inA() { nsenter -t "$NA" -n "$@"; }
inB() { nsenter -t "$NB" -n "$@"; }

absent() { [ ! -e "$1" ]; }
present() { [ -e "$1" ]; }
in_dmesg() { dmesg | grep -q "$1"; }

t_done() {
	[ "$T_FAIL" -eq 0 ]
}
