// SPDX-License-Identifier: GPL-2.0
#include <linux/slab.h>
#include "wicker.h"

struct wicker_basket *wicker_basket_new(unsigned int strands)
{
	struct wicker_basket *b = kzalloc(sizeof(*b), GFP_KERNEL);

	if (!b)
		return NULL;
	b->hdr_magic = WICKER_MAGIC;
	b->strands = strands;
	return b;
}

struct wicker_basket *wicker_basket_clone(const struct wicker_basket *from)
{
	struct wicker_basket *b = kzalloc(sizeof(*b), GFP_KERNEL);

	if (!b)
		return NULL;
	b->hdr_magic = WICKER_MAGIC;
	b->strands = from->strands;
	b->woven = from->woven;
	return b;
}

void wicker_basket_weave(struct wicker_basket *b)
{
	if (b->woven < b->strands)
		b->woven++;
}
