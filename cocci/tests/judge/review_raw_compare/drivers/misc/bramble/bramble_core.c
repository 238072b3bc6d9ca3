// SPDX-License-Identifier: GPL-2.0
#include <linux/errno.h>
#include <linux/slab.h>
#include "bramble.h"

static int bramble_queue_push(struct bramble_queue *q, void *item)
{
	if (q->count >= ARRAY_SIZE(q->items))
		return -ENOSPC;
	q->items[q->count++] = item;
	return 0;
}

int bramble_node_add(struct bramble_queue *q, unsigned int thorns)
{
	struct bramble_node *n = kzalloc(sizeof(*n), GFP_KERNEL);
	int ret;

	if (!n)
		return -ENOMEM;
	n->magic = BRAMBLE_MAGIC;
	n->thorns = thorns;
	ret = bramble_queue_push(q, n);
	if (ret)
		kfree(n);
	return ret;
}
