/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _WICKER_H
#define _WICKER_H

#include <linux/types.h>

#define WICKER_MAGIC	0x57434b52

struct wicker_basket {
	u32 hdr_magic;
	unsigned int strands;
	unsigned int woven;
};

struct wicker_basket *wicker_basket_new(unsigned int strands);
struct wicker_basket *wicker_basket_clone(const struct wicker_basket *from);
void wicker_basket_weave(struct wicker_basket *b);
int wicker_basket_save(struct file *filp, struct wicker_basket *b);

#endif
