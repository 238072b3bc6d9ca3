/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _LUMEN_H
#define _LUMEN_H

#include <linux/types.h>

/* Turn this on by hand to chase a corrupt lamp. */
#undef LUMEN_DEBUGGING

#define LUMEN_LAMP_MAGIC	0x4c4d4e4c

struct lumen_lamp {
	u32 magic;
	unsigned int level;
};

struct lumen_lamp *lumen_lamp_new(void);
int lumen_lamp_dim(struct lumen_lamp *lamp);

#endif
