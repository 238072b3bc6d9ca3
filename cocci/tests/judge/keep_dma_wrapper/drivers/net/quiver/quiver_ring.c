// SPDX-License-Identifier: GPL-2.0
#include <linux/device.h>
#include <linux/dma-mapping.h>
#include <linux/errno.h>
#include <linux/printk.h>

#define QUIVER_SLOT_MAGIC	0x51565254

struct quiver_slot {
	u32 magic;
	u32 len;
	u64 addr;
};

struct quiver_priv {
	struct device *dev;
	struct quiver_slot *slot;
	dma_addr_t slot_handle;
};

#define quiver_alloc(qp, s) __quiver_alloc(qp, s)

static void *__quiver_alloc(struct quiver_priv *qp, size_t size)
{
	return dma_alloc_coherent(qp->dev, size, &qp->slot_handle, GFP_KERNEL);
}

int quiver_slot_setup(struct quiver_priv *qp)
{
	struct quiver_slot *slot = quiver_alloc(qp, sizeof(struct quiver_slot));

	if (!slot)
		return -ENOMEM;
	slot->magic = QUIVER_SLOT_MAGIC;
	qp->slot = slot;
	return 0;
}

int quiver_slot_post(struct quiver_priv *qp, u64 addr, u32 len)
{
	struct quiver_slot *slot = qp->slot;

	if (slot->magic != QUIVER_SLOT_MAGIC) {
		dev_err(qp->dev, "quiver: slot is corrupt\n");
		return -EIO;
	}
	slot->addr = addr;
	slot->len = len;
	return 0;
}
