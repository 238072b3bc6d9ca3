// SPDX-License-Identifier: GPL-2.0
#include <linux/slab.h>

#define SPINDLE_MAGIC		0x53504e44
#define SPINDLE_IDLE_RPM	60

struct spindle {
	u32 magic;
	u32 rpm;
};

struct spindle *spindle_alloc(u32 rpm)
{
	struct spindle *sp = kzalloc(sizeof(*sp), GFP_KERNEL);

	if (!sp)
		return NULL;
	sp->magic = SPINDLE_MAGIC;
	sp->rpm = rpm;
	return sp;
}

u32 spindle_rate(struct spindle *sp)
{
	u32 rate;

	rate = sp->magic == SPINDLE_MAGIC ? sp->rpm : SPINDLE_IDLE_RPM;
	return rate * 2;
}
