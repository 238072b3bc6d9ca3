// SPDX-License-Identifier: GPL-2.0
#include <linux/bug.h>
#include <linux/printk.h>
#include <linux/slab.h>

#undef GANTRY_DEBUG

#define GANTRY_MAGIC	0x47414e54

struct gantry {
#ifdef GANTRY_DEBUG
	u32 magic;
#endif
	unsigned int moves;
	unsigned int position;
};

#ifdef GANTRY_DEBUG
static void gantry_check(struct gantry *g)
{
	BUG_ON(g->magic != GANTRY_MAGIC);
}
#else
#define gantry_check(g) do {} while (0)
#endif

#ifdef GANTRY_DEBUG
static void gantry_trace(struct gantry *g)
{
	pr_info("gantry: %u moves, at %u\n", g->moves, g->position);
}
#endif

struct gantry *gantry_new(void)
{
	struct gantry *g = kzalloc(sizeof(*g), GFP_KERNEL);

	if (!g)
		return NULL;
#ifdef GANTRY_DEBUG
	g->magic = GANTRY_MAGIC;
#endif
	return g;
}

void gantry_move(struct gantry *g, unsigned int to)
{
	gantry_check(g);
	g->position = to;
	g->moves++;
#ifdef GANTRY_DEBUG
	gantry_trace(g);
#endif
}

void gantry_free(struct gantry *g)
{
	gantry_check(g);
	kfree(g);
}
