// SPDX-License-Identifier: GPL-2.0
#include <linux/errno.h>
#include <linux/export.h>
#include <linux/slab.h>

#define FROB_MAGIC	0x46524f42

struct frob {
	u32 magic;
	int level;
};

bool frob_valid(struct frob *f)
{
	return f->magic == FROB_MAGIC;
}
EXPORT_SYMBOL_GPL(frob_valid);

struct frob *frob_new(void)
{
	struct frob *f = kzalloc(sizeof(*f), GFP_KERNEL);

	if (!f)
		return NULL;
	f->magic = FROB_MAGIC;
	return f;
}

int frob_raise(struct frob *f)
{
	if (!frob_valid(f))
		return -EINVAL;
	f->level++;
	return 0;
}

int frob_lower(struct frob *f)
{
	if (!frob_valid(f))
		return -EINVAL;
	f->level--;
	return 0;
}
