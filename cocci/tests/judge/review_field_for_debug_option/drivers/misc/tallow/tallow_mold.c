// SPDX-License-Identifier: GPL-2.0
#include <linux/bug.h>
#include <linux/slab.h>

#define TALLOW_MOLD_MAGIC	0x544d4c44

struct tallow_mold {
#ifdef CONFIG_TALLOW_DEBUG
	u32 magic;
#endif
	unsigned int cavities;
	unsigned int filled;
};

struct tallow_mold *tallow_mold_new(unsigned int cavities)
{
	struct tallow_mold *m = kzalloc(sizeof(*m), GFP_KERNEL);

	if (!m)
		return NULL;
#ifdef CONFIG_TALLOW_DEBUG
	m->magic = TALLOW_MOLD_MAGIC;
#endif
	m->cavities = cavities;
	return m;
}

void tallow_mold_pour(struct tallow_mold *m)
{
#ifdef CONFIG_TALLOW_DEBUG
	BUG_ON(m->magic != TALLOW_MOLD_MAGIC);
#endif
	if (m->filled < m->cavities)
		m->filled++;
}

void tallow_mold_free(struct tallow_mold *m)
{
#ifdef CONFIG_TALLOW_DEBUG
	BUG_ON(m->magic != TALLOW_MOLD_MAGIC);
#endif
	kfree(m);
}
