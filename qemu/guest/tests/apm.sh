# SPDX-License-Identifier: GPL-2.0
#
# apm (i386): the APM driver found SeaBIOS's APM BIOS; /dev/apm_bios opens
# and its read, poll and ioctl paths answer.
. /tests/lib.sh
t_plan 2
t_ok "/dev/apm_bios exists" wait_for 5 present /dev/apm_bios
t_ok "read, poll and ioctl answer" apm
t_done
