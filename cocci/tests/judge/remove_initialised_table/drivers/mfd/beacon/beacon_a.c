// SPDX-License-Identifier: GPL-2.0
#include <linux/device.h>
#include <linux/sysfs.h>
#include "beacon.h"

static const struct beacon_map beacon_a_map = {
	.base = 0x100,
	.lamp_magic = BEACON_A_LAMP_MAGIC,
	.lamp_reg = 0x24,
};

int beacon_lamp_show(struct device *dev, const struct beacon_map *map, char *buf)
{
	return sysfs_emit(buf, "%x\n", map->base + map->lamp_reg);
}

const struct beacon_map *beacon_a(void)
{
	return &beacon_a_map;
}
