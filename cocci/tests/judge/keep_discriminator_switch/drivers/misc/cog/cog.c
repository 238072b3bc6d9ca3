// SPDX-License-Identifier: GPL-2.0
#include <linux/bug.h>
#include <linux/slab.h>
#include "cog.h"

struct cog_wheel *cog_wheel_new(u16 teeth)
{
	struct cog_wheel *w = kzalloc(sizeof(*w), GFP_KERNEL);

	if (!w)
		return NULL;
	w->magic = COG_WHEEL_MAGIC;
	w->teeth = teeth;
	INIT_LIST_HEAD(&w->node);
	return w;
}

struct cog_axle *cog_axle_new(u16 length)
{
	struct cog_axle *a = kzalloc(sizeof(*a), GFP_KERNEL);

	if (!a)
		return NULL;
	a->magic = COG_AXLE_MAGIC;
	a->length = length;
	INIT_LIST_HEAD(&a->node);
	return a;
}

/* h is either a wheel or an axle: the leading magic says which. */
unsigned int cog_span(void *p)
{
	struct cog_wheel *h = p;

	switch (h->magic) {
	case COG_WHEEL_MAGIC:
		return h->teeth * 2;
	case COG_AXLE_MAGIC:
		return ((struct cog_axle *)p)->length;
	default:
		BUG();
	}
}
