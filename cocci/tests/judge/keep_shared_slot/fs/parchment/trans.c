// SPDX-License-Identifier: GPL-2.0
#include <linux/sched.h>

struct parchment_trans {
	unsigned long flags;
	void *saved;
};

void parchment_trans_enter(struct parchment_trans *tr)
{
	tr->saved = current->journal_info;
	current->journal_info = tr;
}

void parchment_trans_leave(struct parchment_trans *tr)
{
	current->journal_info = tr->saved;
}
