// SPDX-License-Identifier: GPL-2.0
#include <linux/fs.h>
#include <linux/slab.h>

struct blotter_state {
	unsigned int pos;
};

static int blotter_open(struct inode *inode, struct file *file)
{
	struct blotter_state *st = kzalloc(sizeof(*st), GFP_KERNEL);

	if (!st)
		return -ENOMEM;
	file->private_data = st;
	return 0;
}

static int blotter_release(struct inode *inode, struct file *file)
{
	kfree(file->private_data);
	file->private_data = NULL;
	return 0;
}
