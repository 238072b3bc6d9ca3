/* demagic: remove TRESTLE_MAGIC struct=trestle member=magic header=switch_retired.h switch=TRESTLE_DEBUG noops=trestle_check */
#include <linux/bug.h>
#include <linux/slab.h>
#include "switch_retired.h"

#ifdef TRESTLE_DEBUG
void __trestle_check(const struct trestle *t)
{
	pr_err("trestle %p: magic %x\n", t, t->magic);
	BUG();
}
#endif

struct trestle *trestle_new(unsigned int span)
{
	struct trestle *t = kzalloc(sizeof(*t), GFP_KERNEL);

	if (!t)
		return NULL;
	t->span = span;
#ifdef TRESTLE_DEBUG
	t->magic = TRESTLE_MAGIC;
#endif
	return t;
}

int trestle_load(struct trestle *t, unsigned int load)
{
	trestle_check(t);

	if (load > t->span)
		return -EINVAL;
	t->load = load;
	return 0;
}

void trestle_free(struct trestle *t)
{
	if (t) {
		trestle_check(t);
		kfree(t);
	}
}
