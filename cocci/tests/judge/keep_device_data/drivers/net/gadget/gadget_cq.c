// SPDX-License-Identifier: GPL-2.0
#include <linux/kernel.h>
#include <linux/list.h>
#include <linux/printk.h>
#include <linux/slab.h>

#define GADGET_MAGIC	0x47414447

struct gadget_cqe {
	__le64 cookie;
	__le32 status;
	__le32 len;
};

struct gadget_ring {
	u32 magic;
	u32 done;
	struct list_head node;
};

struct gadget_dev {
	struct gadget_cqe *cq;
	unsigned int cq_len;
	struct list_head rings;
};

struct gadget_ring *gadget_ring_alloc(struct gadget_dev *gd)
{
	struct gadget_ring *ring = kzalloc(sizeof(*ring), GFP_KERNEL);

	if (!ring)
		return NULL;
	ring->magic = GADGET_MAGIC;
	list_add(&ring->node, &gd->rings);
	return ring;
}

void gadget_poll_cq(struct gadget_dev *gd)
{
	struct gadget_cqe *cqe;
	struct gadget_ring *ring;
	unsigned int i;

	for (i = 0; i < gd->cq_len; i++) {
		cqe = &gd->cq[i];
		ring = (struct gadget_ring *)(uintptr_t)le64_to_cpu(cqe->cookie);
		if (ring->magic != GADGET_MAGIC) {
			pr_err("gadget: completion %u has a bad cookie\n", i);
			continue;
		}
		ring->done++;
	}
}
