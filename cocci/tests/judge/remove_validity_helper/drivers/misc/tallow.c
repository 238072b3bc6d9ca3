// SPDX-License-Identifier: GPL-2.0
#include <linux/bug.h>
#include <linux/errno.h>
#include <linux/printk.h>
#include <linux/slab.h>

#define TALLOW_MAGIC	0x54414c57

struct tallow {
	u32 magic;
	unsigned int melted;
	unsigned int poured;
};

static bool tallow_valid(const struct tallow *t)
{
	return t && t->magic == TALLOW_MAGIC;
}

struct tallow *tallow_new(void)
{
	struct tallow *t = kzalloc(sizeof(*t), GFP_KERNEL);

	if (!t)
		return NULL;
	t->magic = TALLOW_MAGIC;
	return t;
}

int tallow_melt(struct tallow *t, unsigned int grams)
{
	if (!tallow_valid(t)) {
		pr_warn("tallow: bad pot %p\n", t);
		return -EINVAL;
	}
	t->melted += grams;
	return 0;
}

void tallow_pour(struct tallow *t, unsigned int grams)
{
	if (WARN_ON_ONCE(!tallow_valid(t)))
		return;
	grams = min(grams, t->melted);
	t->melted -= grams;
	t->poured += grams;
}
