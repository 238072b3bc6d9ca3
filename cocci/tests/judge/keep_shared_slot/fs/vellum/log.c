// SPDX-License-Identifier: GPL-2.0
#include <linux/sched.h>

struct vellum_log_ticket {
	unsigned int reserved;
};

void vellum_log_reserve(struct vellum_log_ticket *tic, unsigned int bytes)
{
	tic->reserved = bytes;
	current->journal_info = tic;
}

void vellum_log_release(struct vellum_log_ticket *tic)
{
	tic->reserved = 0;
	current->journal_info = NULL;
}
