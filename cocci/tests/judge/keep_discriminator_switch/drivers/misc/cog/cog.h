/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _COG_H
#define _COG_H

#include <linux/types.h>
#include <linux/list.h>

#define COG_WHEEL_MAGIC		0x4357
#define COG_AXLE_MAGIC		0x4341

/* Both kinds hang off the same list; magic comes first in each. */
struct cog_wheel {
	u16 magic;
	u16 teeth;
	struct list_head node;
};

struct cog_axle {
	u16 magic;
	u16 length;
	struct list_head node;
};

struct cog_wheel *cog_wheel_new(u16 teeth);
struct cog_axle *cog_axle_new(u16 length);
unsigned int cog_span(void *p);

#endif /* _COG_H */
