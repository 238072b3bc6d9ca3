// SPDX-License-Identifier: GPL-2.0
#include <linux/fs.h>
#include <linux/gfp.h>
#include <linux/mm.h>
#include <linux/slab.h>

#define COBBLE_PAGE_MAGIC	0x43424c50

struct cobble_page_hdr {
	u32 magic;
	u32 head;
	u32 tail;
};

struct cobble_file {
	struct page *page;
};

static int cobble_open(struct inode *inode, struct file *file)
{
	struct cobble_file *cf = kzalloc(sizeof(*cf), GFP_KERNEL);
	struct cobble_page_hdr *hdr;

	if (!cf)
		return -ENOMEM;
	cf->page = alloc_page(GFP_KERNEL | __GFP_ZERO);
	if (!cf->page) {
		kfree(cf);
		return -ENOMEM;
	}
	hdr = page_address(cf->page);
	hdr->magic = COBBLE_PAGE_MAGIC;
	file->private_data = cf;
	return 0;
}

static int cobble_mmap(struct file *file, struct vm_area_struct *vma)
{
	struct cobble_file *cf = file->private_data;

	if (vma->vm_end - vma->vm_start != PAGE_SIZE)
		return -EINVAL;
	return vm_insert_page(vma, vma->vm_start, cf->page);
}

static const struct file_operations cobble_fops = {
	.owner	= THIS_MODULE,
	.open	= cobble_open,
	.mmap	= cobble_mmap,
};
