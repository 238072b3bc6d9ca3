// SPDX-License-Identifier: GPL-2.0
#include <linux/sched.h>
#include <linux/slab.h>

#define QUILL_TXN_MAGIC	0x5154584e

struct quill_txn {
	u32 magic;
	int depth;
	unsigned int blocks;
};

/* Nested begins reuse the transaction this task already holds. */
int quill_txn_begin(unsigned int blocks)
{
	struct quill_txn *cur, *t;

	cur = current->journal_info;
	if (cur && cur->magic == QUILL_TXN_MAGIC) {
		cur->depth++;
		return 0;
	}
	t = kzalloc(sizeof(*t), GFP_NOFS);
	if (!t)
		return -ENOMEM;
	t->magic = QUILL_TXN_MAGIC;
	t->depth = 1;
	t->blocks = blocks;
	current->journal_info = t;
	return 0;
}

void quill_txn_end(void)
{
	struct quill_txn *t = current->journal_info;

	if (--t->depth)
		return;
	current->journal_info = NULL;
	kfree(t);
}
