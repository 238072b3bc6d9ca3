// SPDX-License-Identifier: GPL-2.0
#include <linux/fs.h>
#include <linux/kernel.h>
#include "wicker.h"

/* The header of a saved basket, as it is written to the file. */
struct wicker_file_hdr {
	u32 magic;
	u32 strands;
	u32 woven;
} __packed;

int wicker_basket_save(struct file *filp, struct wicker_basket *b)
{
	struct wicker_file_hdr hdr = {};
	loff_t pos = 0;

	hdr.magic = WICKER_MAGIC;
	hdr.strands = b->strands;
	hdr.woven = b->woven;
	return kernel_write(filp, &hdr, sizeof(hdr), &pos);
}
