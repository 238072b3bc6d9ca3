// SPDX-License-Identifier: GPL-2.0
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/types.h>

#define GIZMO_MAGIC	0x47495a4d

struct gizmo {
	u32 magic;
	int level;
};

struct gizmo *gizmo_create(int level)
{
	struct gizmo *g = kzalloc(sizeof(*g), GFP_KERNEL);

	if (!g)
		return NULL;
	g->magic = GIZMO_MAGIC;
	g->level = level;
	return g;
}

int gizmo_level(struct gizmo *g)
{
	return g->level;
}

void gizmo_snapshot(struct gizmo *g, void *buf)
{
	memcpy(buf, g, sizeof(*g));
}

void gizmo_destroy(struct gizmo *g)
{
	kfree(g);
}
