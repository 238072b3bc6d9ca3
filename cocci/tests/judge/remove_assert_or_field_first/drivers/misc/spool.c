// SPDX-License-Identifier: GPL-2.0
#include <linux/bug.h>
#include <linux/slab.h>

#define SPOOL_FILE_MAGIC	0x53504c46

struct spool_file {
	u32 magic;
	size_t len;
};

struct spool_file *spool_file_open(void)
{
	struct spool_file *sf = kzalloc(sizeof(*sf), GFP_KERNEL);

	if (!sf)
		return NULL;
	sf->magic = SPOOL_FILE_MAGIC;
	return sf;
}

/* sf may be NULL: nothing was spooled yet. */
size_t spool_file_len(struct spool_file *sf)
{
	BUG_ON(!(NULL == sf || sf->magic == SPOOL_FILE_MAGIC));
	return sf ? sf->len : 0;
}
