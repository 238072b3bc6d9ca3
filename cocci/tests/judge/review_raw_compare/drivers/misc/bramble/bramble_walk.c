// SPDX-License-Identifier: GPL-2.0
#include <linux/types.h>
#include "bramble.h"

unsigned int bramble_count_nodes(struct bramble_queue *q)
{
	unsigned int i, nodes = 0;

	for (i = 0; i < q->count; i++) {
		void *item = q->items[i];

		if (*(u32 *)item != BRAMBLE_MAGIC)
			continue;
		nodes++;
	}
	return nodes;
}
