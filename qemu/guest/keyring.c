// SPDX-License-Identifier: GPL-2.0
/*
 * keyring: user keys and keyrings through add_key() and keyctl(): created,
 * read, updated in place, searched, moved, linked and unlinked, a keyring
 * restricted, keys revoked and invalidated, and many keys dropped for the key
 * garbage collector to free.  Each step goes through security/keys: key_alloc(),
 * __key_instantiate_and_link(), __key_create_or_update(), key_update(),
 * key_payload_reserve(), keyring_search_rcu(), key_move(), key_link(),
 * key_unlink(), keyring_restrict(), key_revoke(), key_invalidate(), key_put()
 * and key_gc_unused_keys().
 */
#define _GNU_SOURCE
#include <linux/keyctl.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "ktap.h"

#define DROPPED 200

typedef int key_id;

static key_id add_key(const char *type, const char *desc, const void *payload, size_t len,
		      key_id ring)
{
	return (key_id)syscall(__NR_add_key, type, desc, payload, len, ring);
}

static long keyctl(int cmd, unsigned long a, unsigned long b, unsigned long c,
		   unsigned long d)
{
	return syscall(__NR_keyctl, cmd, a, b, c, d);
}

/* The payload of key as a string ("" and errno set when it cannot be read). */
static const char *payload(key_id key)
{
	static char buf[64];
	long n = keyctl(KEYCTL_READ, key, (unsigned long)buf, sizeof(buf) - 1, 0);

	if (n < 0 || n >= (long)sizeof(buf))
		return "";
	buf[n] = '\0';
	return buf;
}

static key_id search(key_id ring, const char *desc)
{
	return (key_id)keyctl(KEYCTL_SEARCH, ring, (unsigned long)"user", (unsigned long)desc, 0);
}

/* The keys uid 0 owns, from /proc/key-users ("0: usage nkeys/ninstantiated ..."). */
static int owned_keys(void)
{
	char line[256];
	int uid, usage, nkeys = -1;
	FILE *f = fopen("/proc/key-users", "r");

	if (!f)
		die("open /proc/key-users");
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "%d: %d %d/", &uid, &usage, &nkeys) == 3 && uid == 0)
			break;
	fclose(f);
	return nkeys;
}

static int same(const char *got, const char *want)
{
	if (strcmp(got, want) == 0)
		return 1;
	ktap_diag("payload \"%s\", expected \"%s\" (%s)", got, want, strerror(errno));
	return 0;
}

int main(void)
{
	key_id ring, ring2, key, again, gone;
	int before, now = -1;

	ktap_plan(11);
	ring = add_key("keyring", "demagic:ring", NULL, 0, KEY_SPEC_PROCESS_KEYRING);
	ring2 = add_key("keyring", "demagic:ring2", NULL, 0, KEY_SPEC_PROCESS_KEYRING);
	if (ring < 0 || ring2 < 0)
		die("add_key keyring");
	key = add_key("user", "demagic:key", "one", 3, ring);
	ktap_result(key > 0 && same(payload(key), "one"), "a user key is made and read back");

	ktap_result(keyctl(KEYCTL_UPDATE, key, (unsigned long)"three", 5, 0) == 0 &&
		    same(payload(key), "three"), "KEYCTL_UPDATE changes its payload");

	again = add_key("user", "demagic:key", "four", 4, ring);
	ktap_result(again == key && same(payload(key), "four"),
		    "add_key() of the same description updates the key in place");

	ktap_result(search(ring, "demagic:key") == key, "KEYCTL_SEARCH finds it in its keyring");

	ktap_result(keyctl(KEYCTL_MOVE, key, ring, ring2, 0) == 0 &&
		    search(ring2, "demagic:key") == key && search(ring, "demagic:key") < 0,
		    "KEYCTL_MOVE moves it to another keyring");

	ktap_result(keyctl(KEYCTL_LINK, key, ring, 0, 0) == 0 &&
		    keyctl(KEYCTL_UNLINK, key, ring2, 0, 0) == 0 &&
		    search(ring, "demagic:key") == key && search(ring2, "demagic:key") < 0,
		    "KEYCTL_LINK and KEYCTL_UNLINK");

	ktap_result(keyctl(KEYCTL_RESTRICT_KEYRING, ring2, 0, 0, 0) == 0 &&
		    add_key("user", "demagic:refused", "x", 1, ring2) < 0,
		    "a restricted keyring refuses a new key");

	ktap_result(keyctl(KEYCTL_REVOKE, key, 0, 0, 0) == 0 &&
		    keyctl(KEYCTL_READ, key, 0, 0, 0) < 0 && errno == EKEYREVOKED,
		    "KEYCTL_REVOKE: the key can no longer be read");

	gone = add_key("user", "demagic:gone", "x", 1, ring);
	ktap_result(gone > 0 && keyctl(KEYCTL_INVALIDATE, gone, 0, 0, 0) == 0 &&
		    search(ring, "demagic:gone") < 0, "KEYCTL_INVALIDATE: the key is gone");

	before = owned_keys();
	for (int i = 0; i < DROPPED; i++) {
		char desc[32];
		key_id k;

		snprintf(desc, sizeof(desc), "demagic:drop%d", i);
		k = add_key("user", desc, desc, strlen(desc), ring);
		if (k < 0)
			die("add_key");
		if (keyctl(KEYCTL_UNLINK, k, ring, 0, 0) < 0)
			die("KEYCTL_UNLINK");
	}
	ktap_result(before > 0, "/proc/key-users counts the keys (%d)", before);

	/* Unlinked keys have no reference left: the garbage collector frees them. */
	for (int tries = 0; tries < 100; tries++) {
		struct timespec ts = { .tv_sec = 0, .tv_nsec = 100000000L };

		now = owned_keys();
		if (now <= before)
			break;
		nanosleep(&ts, NULL);
	}
	ktap_result(now >= 0 && now <= before, "%d dropped keys are freed (%d keys, %d before)",
		    DROPPED, now, before);
	return ktap_exit();
}
