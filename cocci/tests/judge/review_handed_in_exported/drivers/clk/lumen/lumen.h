/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _LUMEN_CLK_H
#define _LUMEN_CLK_H

#include <linux/types.h>

#define LUMEN_CLK_MAGIC	0x4c434c4b

struct lumen_clk {
	u32 magic;
	const char *name;
	unsigned long rate;
};

int lumen_register(struct lumen_clk *clk);

#endif
