// SPDX-License-Identifier: GPL-2.0
#include <linux/slab.h>

#define WIDGET_MAGIC 0x57494447

struct widget {
	int magic;
	int count;
};

struct widget *widget_alloc(void)
{
	struct widget *w = kzalloc(sizeof(*w), GFP_KERNEL);

	if (!w)
		return NULL;
	w->magic = WIDGET_MAGIC;
	return w;
}

int widget_poke(struct widget *w)
{
	if (!w || w->magic != WIDGET_MAGIC)
		return -EINVAL;
	w->count++;
	return 0;
}
