/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _MODEM_H
#define _MODEM_H

#include <linux/types.h>

#define MODEM_MAGIC      0x5ac6e778
#define MODEM_BUFFER  32 /* should be a power of 2 */

struct modem_state {
	int magic;
	int opened;

	const struct modem_ops *ops;
};

#endif /* _MODEM_H */
