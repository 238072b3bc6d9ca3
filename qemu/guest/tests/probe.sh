# SPDX-License-Identifier: GPL-2.0
#
# probe: each module the series touches (/tests/probe.list, written with the
# kernel) loads and unloads, and the kernel logs no warning, BUG or lockdep
# report while it does.  A module that does not load (it wants its hardware
# at init) is skipped; the host compares the two kernels, so a module that
# loads before the series and not after still fails the run.
. /tests/lib.sh
mods=$(cut -d' ' -f1 /tests/probe.list | awk '!seen[$0]++')
set -- $mods
t_plan $#
bad='WARNING:|BUG:|Oops|KASAN|possible circular locking|possible recursive locking|suspicious RCU'
for m in $mods; do
	before=$(dmesg | wc -l)
	if ! modprobe "$m" >/tmp/probe.out 2>&1; then
		T_N=$((T_N + 1))
		sed 's/^/# /' /tmp/probe.out
		echo "ok $T_N - $m loads and unloads # SKIP does not load here"
		continue
	fi
	cycle() {
		rmmod "$m" || return 1
		if dmesg | tail -n +"$((before + 1))" | grep -E "$bad"; then
			return 1
		fi
	}
	t_ok "$m loads and unloads" cycle
done
t_done
