// SPDX-License-Identifier: GPL-2.0
#include <linux/bug.h>
#include <linux/slab.h>

#define TRINKET_ALIVE_MAGIC	0x544b4c56
#define TRINKET_DEAD_MAGIC	0x544b4444

struct trinket_node {
	u32 magic;
	u32 blocks;
};

struct trinket_node *trinket_node_alloc(void)
{
	struct trinket_node *tn = kzalloc(sizeof(*tn), GFP_NOFS);

	if (!tn)
		return NULL;
	tn->magic = TRINKET_ALIVE_MAGIC;
	return tn;
}

void trinket_node_grow(struct trinket_node *tn, u32 blocks)
{
	BUG_ON(tn->magic != TRINKET_ALIVE_MAGIC);
	tn->blocks += blocks;
}

void trinket_node_free(struct trinket_node *tn)
{
	tn->magic = TRINKET_DEAD_MAGIC;
	kfree(tn);
}
