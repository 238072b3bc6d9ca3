/* SPDX-License-Identifier: GPL-2.0 */
#include <linux/types.h>

#define FOO_MAGIC 0x4242
static const char paranoia_str[] = "foo: bad magic";

struct foo_state {
	int magic;
	int busy;
	char name[16];
};

struct other {
	int magic;
};

static int foo_open(struct foo_state *fs)
{
	int magic = 1;

	if (fs->magic != FOO_MAGIC)
		return -EINVAL;
	return 0;
}
