// SPDX-License-Identifier: GPL-2.0
#include <linux/bug.h>
#include <linux/slab.h>

#define LANTERN_ALIVE_MAGIC	0x4c414c56
#define LANTERN_ONSTACK_MAGIC	0x4c414f53
#define LANTERN_DEAD_MAGIC	0x4c414444

struct lantern {
	u32 magic;
	u32 lumens;
};

struct lantern *lantern_new(u32 lumens)
{
	struct lantern *l = kzalloc(sizeof(*l), GFP_KERNEL);

	if (!l)
		return NULL;
	l->magic = LANTERN_ALIVE_MAGIC;
	l->lumens = lumens;
	return l;
}

void lantern_init_onstack(struct lantern *l, u32 lumens)
{
	l->magic = LANTERN_ONSTACK_MAGIC;
	l->lumens = lumens;
}

void lantern_put(struct lantern *l)
{
	/* A lantern on the stack goes away with its frame. */
	if (l->magic == LANTERN_ONSTACK_MAGIC)
		return;
	BUG_ON(l->magic != LANTERN_ALIVE_MAGIC);
	l->magic = LANTERN_DEAD_MAGIC;
	kfree(l);
}
