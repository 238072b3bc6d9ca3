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

#ifdef TALLOW_DEBUGGING
static void tallow_mold_check(struct tallow_mold *m)
{
	BUG_ON(m->magic != TALLOW_MOLD_MAGIC);
}
#else
#define tallow_mold_check(m) do {} while (0)
#endif

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
	tallow_mold_check(m);
	if (m->filled < m->cavities)
		m->filled++;
}

void tallow_mold_free(struct tallow_mold *m)
{
	tallow_mold_check(m);
	kfree(m);
}
