// SPDX-License-Identifier: GPL-2.0
#include <linux/bug.h>
#include <linux/errno.h>
#include <linux/slab.h>

#define SPINDLE_MAGIC		0x53504e44
#define SPINDLE_OPS_MAGIC	0x53504f50

struct spindle {
	u32 magic;
	const struct spindle_ops *ops;
	unsigned int rpm;
};

struct spindle_ops {
	u32 magic;
	int (*turn)(struct spindle *s, unsigned int rpm);
};

static int spindle_turn_fast(struct spindle *s, unsigned int rpm)
{
	s->rpm = rpm * 2;
	return 0;
}

static const struct spindle_ops spindle_fast_ops = {
	.magic = SPINDLE_OPS_MAGIC,
	.turn = spindle_turn_fast,
};

struct spindle *spindle_new(void)
{
	struct spindle *s = kzalloc(sizeof(*s), GFP_KERNEL);

	if (!s)
		return NULL;
	s->ops = &spindle_fast_ops;
	return s;
}

int spindle_turn(struct spindle *s, unsigned int rpm)
{
	if (WARN_ON(s->ops->magic != SPINDLE_OPS_MAGIC))
		return -EINVAL;
	return s->ops->turn(s, rpm);
}
