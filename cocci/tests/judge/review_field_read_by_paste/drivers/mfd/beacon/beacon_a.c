// SPDX-License-Identifier: GPL-2.0
#include <linux/device.h>
#include <linux/sysfs.h>
#include "beacon.h"

static const struct beacon_map beacon_a_map = {
	.base = 0x100,
	.lamp_magic = BEACON_A_LAMP_MAGIC,
	.lamp_reg = 0x24,
};

static int beacon_check(u32 reg, u32 expected, char *buf)
{
	return sysfs_emit(buf, "%d\n", reg == expected);
}

/* The value the lamp register must hold, by the name of the lamp. */
#define BEACON_SHOW(_name)						\
static int beacon_##_name##_state(const struct beacon_map *map, char *buf) \
{									\
	return beacon_check(map->_name##_reg, map->_name##_magic, buf);	\
}
BEACON_SHOW(lamp)

int beacon_lamp_show(struct device *dev, const struct beacon_map *map, char *buf)
{
	return beacon_lamp_state(map, buf);
}

const struct beacon_map *beacon_a(void)
{
	return &beacon_a_map;
}
