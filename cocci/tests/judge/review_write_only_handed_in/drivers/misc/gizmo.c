// SPDX-License-Identifier: GPL-2.0
#include <linux/types.h>

#define GIZMO_MAGIC	0x47495a4d

struct gizmo {
	u32 magic;
	int level;
};

void gizmo_init(struct gizmo *g, int level)
{
	g->magic = GIZMO_MAGIC;
	g->level = level;
}

int gizmo_level(struct gizmo *g)
{
	return g->level;
}
