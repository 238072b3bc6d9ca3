// SPDX-License-Identifier: GPL-2.0
#include <linux/slab.h>

#define BOBBIN_MAGIC	0x42424e4d

struct bobbin {
	u32 magic;
	bool registered;
	bool force;
	unsigned int turns;
};

struct bobbin *bobbin_new(void)
{
	struct bobbin *b = kzalloc(sizeof(*b), GFP_KERNEL);

	if (!b)
		return NULL;
	b->magic = BOBBIN_MAGIC;
	b->registered = true;
	return b;
}

void bobbin_wind(struct bobbin *b)
{
	if ((b->magic == BOBBIN_MAGIC && b->registered) || b->force)
		b->turns++;
}
