# SPDX-License-Identifier: GPL-2.0
#
# keys: user keys and keyrings made, read, updated, searched, moved, linked,
# restricted, revoked, invalidated and freed by the key garbage collector
# (keyring, which prints its own KTAP).
. /tests/lib.sh
t_plan 1
t_ok "keys and keyrings through add_key() and keyctl(); dropped keys freed" keyring
t_done
