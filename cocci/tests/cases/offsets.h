/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __KVARS_H
#define __KVARS_H

#define KV_MAGIC_OFFSET		0x0
#define KV_RO_NODE_OFFSET	0x4
#define KV_RW_NODE_OFFSET	0x6

#define KV_MAGIC		0x5f4b565f

#ifndef __ASSEMBLY__

typedef struct kern_vars_s {
	int		kv_magic;
	s16		kv_ro_node;
	s16		kv_rw_node;
	unsigned long	kv_ro_baseaddr;
} kern_vars_t;

#endif /* !__ASSEMBLY__ */

#endif /* __KVARS_H */
