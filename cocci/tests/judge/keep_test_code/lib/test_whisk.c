// SPDX-License-Identifier: GPL-2.0
#include <linux/module.h>
#include <linux/printk.h>
#include <linux/slab.h>

#define WHISK_MAGIC	0x5748534b

struct whisk {
	u32 magic;
	u32 speed;
};

static struct whisk *whisk_make(u32 speed)
{
	struct whisk *w = kzalloc(sizeof(*w), GFP_KERNEL);

	if (!w)
		return NULL;
	w->magic = WHISK_MAGIC;
	w->speed = speed;
	return w;
}

static int __init test_whisk_init(void)
{
	struct whisk *w = whisk_make(3);
	int ret = -EINVAL;

	if (!w)
		return -ENOMEM;
	if (w->magic != WHISK_MAGIC) {
		pr_err("test failed: whisk has no magic\n");
		goto err;
	}
	pr_info("test passed\n");
	ret = 0;
err:
	kfree(w);
	return ret;
}
module_init(test_whisk_init);
MODULE_LICENSE("GPL");
