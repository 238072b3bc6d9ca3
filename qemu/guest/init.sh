#!/bin/busybox sh
# SPDX-License-Identifier: GPL-2.0
#
# /init of the boot-test initramfs: mount the pseudo file systems, run the
# tests named by demagic.tests= on the kernel command line, each under its
# own timeout, as one KTAP document on the console, then end the VM.

/bin/busybox mkdir -p /proc /sys /dev /tmp /bin /sbin /usr/bin /usr/sbin
/bin/busybox --install -s
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev
mkdir -p /dev/pts
mount -t devpts devpts /dev/pts
ip link set lo up

# Kill what a test left running (a timeout leaves its children behind).
reap() {
	for d in /proc/[0-9]*; do
		pid=${d#/proc/}
		[ "$pid" -eq 1 ] && continue
		readlink "$d/exe" >/dev/null 2>&1 && kill -9 "$pid" 2>/dev/null
	done
}

arg() { sed -n "s/.*demagic\.$1=\([^ ]*\).*/\1/p" /proc/cmdline; }
tests=$(arg tests | tr , ' ')
limit=$(arg timeout)
count=0
for t in $tests; do count=$((count + 1)); done

echo "KTAP version 1"
echo "1..$count"
n=0
for t in $tests; do
	n=$((n + 1))
	if [ ! -f "/tests/$t.sh" ]; then
		echo "not ok $n - $t # ERROR no such test in the initramfs"
		continue
	fi
	own=$(arg limits | tr , '\n' | sed -n "s/^$t://p")
	read -r t0 _ </proc/uptime
	# the test's output comes after it ends: meanwhile a line every 30 s tells
	# the host, which stops a guest silent for 90 s, that it is still alive
	(while sleep 30; do echo "# $t: still running"; done) &
	beat=$!
	timeout "${own:-${limit:-60}}" sh "/tests/$t.sh" >"/tmp/ktap-$t.log" 2>&1
	rc=$?
	kill "$beat"
	wait "$beat" 2>/dev/null
	read -r t1 _ </proc/uptime
	reap
	sed 's/^/    /' "/tmp/ktap-$t.log"
	echo "# $t: $t0 s to $t1 s since boot"
	if [ "$rc" -eq 0 ]; then
		echo "ok $n - $t"
	elif [ "$rc" -eq 143 ]; then
		echo "not ok $n - $t # TIMEOUT after ${own:-${limit:-60}} s"
	else
		echo "not ok $n - $t"
	fi
done
echo "# demagic: all tests ran"
sync
reboot -f
