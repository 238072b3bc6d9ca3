/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
#ifndef _UAPI_LINUX_KILN_H
#define _UAPI_LINUX_KILN_H

#include <linux/ioctl.h>
#include <linux/types.h>

#define KILN_MAGIC	0x4b494c4e

struct kiln_params {
	__u32 magic;
	__u32 temperature;
};

#define KILN_GET_PARAMS	_IOR('k', 1, struct kiln_params)
#define KILN_SET_PARAMS	_IOW('k', 2, struct kiln_params)

#endif /* _UAPI_LINUX_KILN_H */
