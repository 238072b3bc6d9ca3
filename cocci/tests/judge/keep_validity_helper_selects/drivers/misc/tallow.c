// SPDX-License-Identifier: GPL-2.0
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

static void tallow_pour_fast(struct tallow *t)
{
	t->poured += t->melted;
	t->melted = 0;
}

static void tallow_pour_slow(struct tallow *t)
{
	if (t && t->melted) {
		t->melted--;
		t->poured++;
	}
}

void tallow_pour(struct tallow *t)
{
	if (tallow_valid(t))
		tallow_pour_fast(t);
	else
		tallow_pour_slow(t);
}
