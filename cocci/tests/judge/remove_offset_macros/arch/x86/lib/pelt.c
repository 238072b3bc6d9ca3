// SPDX-License-Identifier: GPL-2.0
#include <linux/bug.h>
#include <linux/slab.h>
#include <asm/pelt.h>

extern void pelt_fast_bump(struct pelt *p);

struct pelt *pelt_new(unsigned int limit)
{
	struct pelt *p = kzalloc(sizeof(*p), GFP_KERNEL);

	if (!p)
		return NULL;
	p->magic = PELT_MAGIC;
	p->limit = limit;
	return p;
}

void pelt_bump(struct pelt *p)
{
	BUG_ON(p->magic != PELT_MAGIC);
	pelt_fast_bump(p);
}
