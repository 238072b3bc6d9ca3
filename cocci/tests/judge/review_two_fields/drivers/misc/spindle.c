// SPDX-License-Identifier: GPL-2.0
#include <linux/bug.h>
#include <linux/slab.h>

#define SPINDLE_MAGIC	0x53504e44

struct spindle {
	unsigned long magic_head;
	unsigned int turns;
	unsigned long magic_tail;
};

struct spindle *spindle_new(void)
{
	struct spindle *s = kzalloc(sizeof(*s), GFP_KERNEL);

	if (!s)
		return NULL;
	s->magic_head = SPINDLE_MAGIC;
	s->magic_tail = SPINDLE_MAGIC;
	return s;
}

void spindle_turn(struct spindle *s)
{
	BUG_ON(s->magic_head != SPINDLE_MAGIC);
	BUG_ON(s->magic_tail != SPINDLE_MAGIC);
	s->turns++;
}
