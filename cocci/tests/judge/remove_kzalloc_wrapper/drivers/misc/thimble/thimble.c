// SPDX-License-Identifier: GPL-2.0
#include <linux/device.h>
#include <linux/errno.h>
#include <linux/slab.h>

#define THIMBLE_CAP_MAGIC	0x54484d42

struct thimble_cap {
	u32 magic;
	unsigned int size;
	unsigned int wear;
};

struct thimble_priv {
	struct device *dev;
	struct thimble_cap *cap;
};

#define thimble_alloc(tp, s) __thimble_alloc(tp, s)

static void *__thimble_alloc(struct thimble_priv *tp, size_t size)
{
	dev_dbg(tp->dev, "thimble: %zu bytes\n", size);
	return kzalloc(size, GFP_KERNEL);
}

int thimble_cap_setup(struct thimble_priv *tp, unsigned int size)
{
	struct thimble_cap *cap = thimble_alloc(tp, sizeof(struct thimble_cap));

	if (!cap)
		return -ENOMEM;
	cap->magic = THIMBLE_CAP_MAGIC;
	cap->size = size;
	tp->cap = cap;
	return 0;
}

void thimble_cap_press(struct thimble_priv *tp)
{
	tp->cap->wear++;
}

void thimble_cap_teardown(struct thimble_priv *tp)
{
	kfree(tp->cap);
	tp->cap = NULL;
}
