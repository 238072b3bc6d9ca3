/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _BEACON_H
#define _BEACON_H

#include <linux/types.h>

#define BEACON_A_LAMP_MAGIC	0x4c414d50

struct beacon_map {
	u32 base;
	u32 lamp_magic;
	u32 lamp_reg;
};

int beacon_lamp_show(struct device *dev, const struct beacon_map *map, char *buf);

#endif
