// SPDX-License-Identifier: GPL-2.0
#include <linux/errno.h>
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

int cog_wheel_teeth(struct cog_wheel *w)
{
	if (w->magic != COG_WHEEL_MAGIC)
		return -EINVAL;
	return w->teeth;
}

int cog_axle_length(struct cog_axle *a)
{
	if (a->magic != COG_AXLE_MAGIC)
		return -EINVAL;
	return a->length;
}
