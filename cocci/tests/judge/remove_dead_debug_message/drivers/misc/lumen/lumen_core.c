// SPDX-License-Identifier: GPL-2.0
#include <linux/errno.h>
#include <linux/printk.h>
#include <linux/slab.h>
#include "lumen.h"

#ifdef LUMEN_DEBUGGING
static void lumen_lamp_dump(struct lumen_lamp *lamp)
{
	printk(KERN_DEBUG "lumen: lamp %p magic %08x level %u\n",
	       lamp, lamp->magic, lamp->level);
}
#endif

struct lumen_lamp *lumen_lamp_new(void)
{
	struct lumen_lamp *lamp = kzalloc(sizeof(*lamp), GFP_KERNEL);

	if (!lamp)
		return NULL;
	lamp->magic = LUMEN_LAMP_MAGIC;
	return lamp;
}

int lumen_lamp_dim(struct lumen_lamp *lamp)
{
#ifdef LUMEN_DEBUGGING
	if (lamp->magic != LUMEN_LAMP_MAGIC) {
		lumen_lamp_dump(lamp);
		return -EINVAL;
	}
#endif
	if (lamp->level)
		lamp->level--;
	return 0;
}
