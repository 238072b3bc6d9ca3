/* demagic: remove RUNG_MAGIC struct=rung member=magic header=switch_noop_in_if.c switch=RUNG_DEBUG noops=rung_check */
#include <linux/bug.h>
#include <linux/slab.h>

#undef RUNG_DEBUG

struct rung {
#ifdef RUNG_DEBUG
	unsigned int magic;
#define RUNG_MAGIC	0x52554e47
#endif
	unsigned int height;
};

#ifdef RUNG_DEBUG
#define rung_check(r) BUG_ON((r)->magic != RUNG_MAGIC)
#else
#define rung_check(r) do {} while (0)
#endif

void rung_free(struct rung *r)
{
	if (r->height)
		rung_check(r);
	kfree(r);
}
