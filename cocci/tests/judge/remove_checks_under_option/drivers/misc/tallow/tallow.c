// SPDX-License-Identifier: GPL-2.0
#include <linux/errno.h>
#include <linux/printk.h>
#include <linux/slab.h>

#define TALLOW_WICK_MAGIC	0x54574b31

struct tallow_wick {
	u32 magic;
	unsigned int length;
	bool lit;
};

struct tallow_wick *tallow_wick_new(unsigned int length)
{
	struct tallow_wick *w = kzalloc(sizeof(*w), GFP_KERNEL);

	if (!w)
		return NULL;
	w->magic = TALLOW_WICK_MAGIC;
	w->length = length;
	return w;
}

int tallow_wick_light(struct tallow_wick *w)
{
#ifdef CONFIG_TALLOW_CHECKS
	if (w->magic != TALLOW_WICK_MAGIC) {
		pr_err("tallow: wick %p is corrupt\n", w);
		return -EINVAL;
	}
#endif
	w->lit = true;
	return 0;
}

int tallow_wick_trim(struct tallow_wick *w, unsigned int by)
{
#ifdef CONFIG_TALLOW_CHECKS
	if (w->magic != TALLOW_WICK_MAGIC)
		return -EINVAL;
#endif
	w->length -= min(w->length, by);
	return 0;
}

void tallow_wick_free(struct tallow_wick *w)
{
	kfree(w);
}
