// SPDX-License-Identifier: GPL-2.0
#include <linux/printk.h>
#include <linux/slab.h>
#include <linux/spinlock.h>

#define SPROCKET_MAGIC 0x5350524b

struct sprocket {
	unsigned int magic;
	spinlock_t lock;
	unsigned long turns;
};

static void sprocket_turn(struct sprocket *s)
{
	spin_lock(&s->lock);
	s->turns++;
	spin_unlock(&s->lock);
}

struct sprocket *sprocket_create(void)
{
	struct sprocket *s = kzalloc(sizeof(*s), GFP_KERNEL);

	if (!s)
		return NULL;
	spin_lock_init(&s->lock);
	s->magic = SPROCKET_MAGIC;
	return s;
}

void sprocket_tick(struct sprocket *s)
{
	if (s->magic == SPROCKET_MAGIC)
		sprocket_turn(s);
	else
		pr_err("sprocket: bad magic %x\n", s->magic);
}
