// SPDX-License-Identifier: GPL-2.0
#include <linux/fs.h>
#include <linux/uaccess.h>
#include <uapi/linux/kiln.h>

static u32 kiln_temperature;

static long kiln_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	void __user *argp = (void __user *)arg;
	struct kiln_params p;

	switch (cmd) {
	case KILN_GET_PARAMS:
		p.magic = KILN_MAGIC;
		p.temperature = kiln_temperature;
		return copy_to_user(argp, &p, sizeof(p)) ? -EFAULT : 0;
	case KILN_SET_PARAMS:
		if (copy_from_user(&p, argp, sizeof(p)))
			return -EFAULT;
		if (p.magic != KILN_MAGIC)
			return -EINVAL;
		kiln_temperature = p.temperature;
		return 0;
	}
	return -ENOTTY;
}
