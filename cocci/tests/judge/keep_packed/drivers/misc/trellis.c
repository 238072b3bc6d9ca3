// SPDX-License-Identifier: GPL-2.0
#include <linux/errno.h>
#include <linux/slab.h>

#define TRELLIS_MAGIC	0x5452454c

struct trellis_msg {
	u32 magic;
	u16 type;
	u16 len;
} __packed;

struct trellis_msg *trellis_msg_new(u16 type)
{
	struct trellis_msg *m = kzalloc(sizeof(*m), GFP_KERNEL);

	if (!m)
		return NULL;
	m->magic = TRELLIS_MAGIC;
	m->type = type;
	return m;
}

int trellis_msg_type(struct trellis_msg *m)
{
	if (m->magic != TRELLIS_MAGIC)
		return -EPROTO;
	return m->type;
}
