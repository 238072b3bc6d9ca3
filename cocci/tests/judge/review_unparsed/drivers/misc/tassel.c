// SPDX-License-Identifier: GPL-2.0
#include <linux/errno.h>
#include <linux/slab.h>

#define TASSEL_MAGIC	0x54534c4d

struct tassel {
	u32 magic;
	u32 knots;
};

struct tassel *tassel_alloc(void)
{
	struct tassel *t = kzalloc(sizeof(*t), GFP_KERNEL);

	if (!t)
		return NULL;
	t->magic = TASSEL_MAGIC;
	return t;
}

int tassel_tie(struct tassel *t)
{
	TASSEL_TRACE(t) tie begin here;

	if (t->magic != TASSEL_MAGIC)
		return -EINVAL;
	t->knots++;
	return 0;
}
