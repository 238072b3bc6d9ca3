// SPDX-License-Identifier: GPL-2.0
#include <linux/errno.h>
#include <linux/module.h>
#include <linux/printk.h>
#include "lumen.h"

int lumen_register(struct lumen_clk *clk)
{
	if (!clk->rate)
		return -EINVAL;
	clk->magic = LUMEN_CLK_MAGIC;
	pr_debug("lumen: %s at %lu Hz\n", clk->name, clk->rate);
	return 0;
}
EXPORT_SYMBOL_GPL(lumen_register);
