// SPDX-License-Identifier: GPL-2.0
#include <linux/fs.h>
#include <linux/miscdevice.h>
#include <linux/slab.h>

#define QUILL_CTX_MAGIC	0x51435458

struct quill_ctx {
	u32 magic;
	unsigned int nib;
};

static int quill_open(struct inode *inode, struct file *file)
{
	struct quill_ctx *ctx = kzalloc(sizeof(*ctx), GFP_KERNEL);

	if (!ctx)
		return -ENOMEM;
	ctx->magic = QUILL_CTX_MAGIC;
	file->private_data = ctx;
	return 0;
}

static long quill_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	struct quill_ctx *ctx = file->private_data;

	if (ctx->magic != QUILL_CTX_MAGIC)
		return -EBADF;
	ctx->nib = cmd;
	return 0;
}

static const struct file_operations quill_fops = {
	.owner		= THIS_MODULE,
	.open		= quill_open,
	.unlocked_ioctl	= quill_ioctl,
};
