#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# A transparent compiler wrapper: for a compile to an object file, keep the
# compiler's diagnostics beside the object (FILE.o.diag), so that an object
# that make finds up to date still has its warnings at hand; with CCACHE_DIR
# set and ccache installed, compile through ccache (it replays warnings too).
out=
prev=
for arg in "$@"; do
	[ "$prev" = "-o" ] && out=$arg
	prev=$arg
done
case $out in
/tmp/*|"${TMPDIR:-/tmp}"/*)
	# kbuild's probes of the compiler: nothing verify reads, nothing to leave behind
	exec "$@"
	;;
*.o)
	if [ -n "$CCACHE_DIR" ] && command -v ccache >/dev/null 2>&1; then
		set -- ccache "$@"
	fi
	"$@" 2>"$out.diag"
	rc=$?
	cat "$out.diag" >&2
	exit $rc
	;;
esac
exec "$@"
