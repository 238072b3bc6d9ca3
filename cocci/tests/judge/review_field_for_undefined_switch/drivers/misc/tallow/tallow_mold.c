// SPDX-License-Identifier: GPL-2.0
#include <linux/bug.h>
#include <linux/slab.h>

/* Define this by hand to tag each mold and check the tag on every use. */
#undef TALLOW_DEBUGGING

#define TALLOW_MOLD_MAGIC	0x544d4c44

struct tallow_mold {
#ifdef TALLOW_DEBUGGING
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
#ifdef TALLOW_DEBUGGING
	m->magic = TALLOW_MOLD_MAGIC;
#endif
	m->cavities = cavities;
	return m;
}

void tallow_mold_pour(struct tallow_mold *m)
{
#ifdef TALLOW_DEBUGGING
	BUG_ON(m->magic != TALLOW_MOLD_MAGIC);
#endif
	if (m->filled < m->cavities)
		m->filled++;
}

void tallow_mold_free(struct tallow_mold *m)
{
#ifdef TALLOW_DEBUGGING
	BUG_ON(m->magic != TALLOW_MOLD_MAGIC);
#endif
	kfree(m);
}
