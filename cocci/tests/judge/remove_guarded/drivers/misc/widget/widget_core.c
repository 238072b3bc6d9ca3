// SPDX-License-Identifier: GPL-2.0
#include <linux/errno.h>
#include <linux/printk.h>
#include <linux/slab.h>

#define WIDGET_MAGIC	0x57444754

struct widget {
	u32 magic;
	u32 state;
};

static void widget_dump(struct widget *w)
{
	print_hex_dump_bytes("widget: ", DUMP_PREFIX_OFFSET, w, sizeof(*w));
}

struct widget *widget_new(void)
{
	struct widget *w = kzalloc(sizeof(*w), GFP_KERNEL);

	if (!w)
		return NULL;
	w->magic = WIDGET_MAGIC;
	return w;
}

int widget_step(struct widget *w)
{
#ifdef WIDGET_PARANOIA
	if (w->magic != WIDGET_MAGIC) {
		widget_dump(w);
		return -EIO;
	}
#endif
	w->state++;
	return 0;
}
