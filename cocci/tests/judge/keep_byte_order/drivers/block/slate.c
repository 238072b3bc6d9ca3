// SPDX-License-Identifier: GPL-2.0
#include <linux/errno.h>
#include <linux/slab.h>

#define SLATE_MAGIC	0x534c4154

/* The first page of the backing store. */
struct slate_disk_header {
	__le32 magic;
	__le32 nr_pages;
};

struct slate_dev {
	u32 magic;
	u32 nr_pages;
	void *header_page;
};

struct slate_dev *slate_create(void *header_page, u32 nr_pages)
{
	struct slate_dev *sd = kzalloc(sizeof(*sd), GFP_KERNEL);

	if (!sd)
		return NULL;
	sd->magic = SLATE_MAGIC;
	sd->nr_pages = nr_pages;
	sd->header_page = header_page;
	return sd;
}

int slate_write_header(struct slate_dev *sd)
{
	struct slate_disk_header *dh = sd->header_page;

	if (sd->magic != SLATE_MAGIC)
		return -EINVAL;
	dh->magic = cpu_to_le32(SLATE_MAGIC);
	dh->nr_pages = cpu_to_le32(sd->nr_pages);
	return 0;
}
