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
set -o pipefail

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
		echo "not ok $n - $t # no such test in the initramfs"
		continue
	fi
	if timeout "${limit:-60}" sh "/tests/$t.sh" 2>&1 | sed 's/^/    /'; then
		echo "ok $n - $t"
	else
		echo "not ok $n - $t"
	fi
done
echo "# demagic: all tests ran"
sync
reboot -f
