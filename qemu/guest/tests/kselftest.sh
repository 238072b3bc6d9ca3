# SPDX-License-Identifier: GPL-2.0
#
# kselftest: the kernel's own selftests of what the series touches
# (/tests/kselftest.list: "DIR SCRIPT NAME" per line, DIR a path on the host).
# They run on the host's userland, shared read-only over 9p (tag hostroot)
# with tmpfs where they write, chrooted, as virtme-ng runs them.  Each
# "TEST: ... [ OK ]" line of a script becomes a subtest; the host compares
# them with the kernel before the series.  A script that cannot start (no host
# userland, no such file) is "not ok # ERROR", one cut off is "not ok # TIMEOUT":
# no verdict, which fails the run before or after the series alike.
. /tests/lib.sh
LIMIT=240
set -- $(cut -d' ' -f3 /tests/kselftest.list)
t_plan $#

# cache=loose: nothing the guest reads over 9p changes while it runs (the
# host's root, read-only, and the selftests of the pristine tree), so it keeps
# what it has read, and each command a script starts no longer fetches its
# binary and libraries again: net/l2tp.sh took 24 to 26 s without, 10 to 12 s
# with, under TCG.
share() {
	mkdir -p /host &&
	mount -t 9p -o trans=virtio,version=9p2000.L,ro,cache=loose hostroot /host || return 1
	# a selftest directory under one of these (a tree in /tmp) is kept in view
	i=0
	while read -r dir _; do
		i=$((i + 1))
		[ -d "/host$dir" ] || continue    # named below, as the script it lacks
		mkdir -p "/kept/$i" && mount --bind "/host$dir" "/kept/$i" || return 1
	done </tests/kselftest.list
	for d in tmp run var/tmp var/run; do
		if [ -d "/host/$d" ] && [ ! -L "/host/$d" ]; then
			mount -t tmpfs tmpfs "/host/$d" || return 1
		fi
	done
	i=0
	while read -r dir _; do
		i=$((i + 1))
		if [ -d "/kept/$i" ] && [ ! -d "/host$dir" ]; then
			mkdir -p "/host$dir" && mount --bind "/kept/$i" "/host$dir" || return 1
		fi
	done </tests/kselftest.list
	mount --bind /proc /host/proc && mount --bind /sys /host/sys &&
	mount --bind /dev /host/dev && mount --bind /dev/pts /host/dev/pts
}
if ! share >/tmp/share.out 2>&1; then
	sed 's/^/# /' /tmp/share.out
	n=0
	for name; do n=$((n + 1)); echo "not ok $n - $name # ERROR no host userland over 9p"; done
	exit 1
fi

# "TEST: name   [ OK ]" (net selftests), KTAP "ok N - name": one subtest each
subtests() {
	awk '
	/^TEST: .*\[ *OK *\]/   { sub(/^TEST: */, ""); sub(/ *\[ *OK *\].*/, ""); r[++n] = "ok " n " - " $0; next }
	/^TEST: .*\[ *FAIL *\]/ { sub(/^TEST: */, ""); sub(/ *\[ *FAIL *\].*/, ""); r[++n] = "not ok " n " - " $0; next }
	/^TEST: .*\[ *SKIP *\]/ { sub(/^TEST: */, ""); sub(/ *\[ *SKIP *\].*/, ""); r[++n] = "ok " n " - " $0 " # SKIP"; next }
	/^(not )?ok [0-9]+ / { line = $0; sub(/^(not )?ok [0-9]+ (- )?/, "", line)
		r[++n] = ($1 == "not" ? "not ok " : "ok ") n " - " line; next }
	END { print "KTAP version 1"; print "1.." n; for (i = 1; i <= n; i++) print r[i] }
	' "$1"
}

n=0
while read -r dir script name _; do
	n=$((n + 1))
	if [ ! -f "/host$dir/$script" ]; then
		echo "not ok $n - $name # ERROR $dir/$script: not in the host's userland over 9p"
		T_FAIL=1
		continue
	fi
	timeout "$LIMIT" chroot /host /bin/sh -c "cd '$dir' && exec ./'$script'" \
		>/tmp/ks.out 2>&1 </dev/null
	rc=$?
	grep -v '^TEST: ' /tmp/ks.out | tail -n 20 | sed 's/^/# /'
	subtests /tmp/ks.out | sed 's/^/    /'
	case $rc in
	0) echo "ok $n - $name" ;;
	4) echo "ok $n - $name # SKIP the selftest skipped" ;;
	124|143) echo "not ok $n - $name # TIMEOUT after $LIMIT s"; T_FAIL=1 ;;
	*) echo "not ok $n - $name # exit status $rc"; T_FAIL=1 ;;
	esac
done </tests/kselftest.list
t_done
