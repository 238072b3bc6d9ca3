/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _BRAMBLE_H
#define _BRAMBLE_H

#include <linux/types.h>

#define BRAMBLE_MAGIC	0x42524d42

/* magic leads: the queue tells nodes from other items by their first word */
struct bramble_node {
	u32 magic;
	unsigned int thorns;
};

struct bramble_queue {
	void *items[16];
	unsigned int count;
};

int bramble_node_add(struct bramble_queue *q, unsigned int thorns);
unsigned int bramble_count_nodes(struct bramble_queue *q);

#endif
