// SPDX-License-Identifier: GPL-2.0
#include <linux/slab.h>
#include <linux/types.h>

#define COG_MAGIC	0x434f4721

struct cog {
	u32 magic;
	int teeth;
};

int cog_publish_word(u32 *word);

struct cog *cog_create(int teeth)
{
	struct cog *c = kzalloc(sizeof(*c), GFP_KERNEL);

	if (!c)
		return NULL;
	c->magic = COG_MAGIC;
	c->teeth = teeth;
	if (cog_publish_word(&c->magic)) {
		kfree(c);
		return NULL;
	}
	return c;
}

void cog_destroy(struct cog *c)
{
	kfree(c);
}
