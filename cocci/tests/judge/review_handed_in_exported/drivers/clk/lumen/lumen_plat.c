// SPDX-License-Identifier: GPL-2.0
#include <linux/kernel.h>
#include <linux/init.h>
#include "lumen.h"

static struct lumen_clk lumen_clks[] = {
	{ .name = "lumen-core", .rate = 200000000 },
	{ .name = "lumen-bus",  .rate = 100000000 },
};

static struct lumen_clk lumen_fixed = {
	.name = "lumen-ref",
	.rate = 24000000,
};

static int lumen_add(struct lumen_clk *clk)
{
	return lumen_register(clk);
}

static int __init lumen_plat_init(void)
{
	int i, ret;

	for (i = 0; i < ARRAY_SIZE(lumen_clks); i++) {
		ret = lumen_add(&lumen_clks[i]);
		if (ret)
			return ret;
	}
	return lumen_register(&lumen_fixed);
}
arch_initcall(lumen_plat_init);
