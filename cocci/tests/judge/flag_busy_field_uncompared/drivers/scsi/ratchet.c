// SPDX-License-Identifier: GPL-2.0
#include <linux/spinlock.h>
#include <linux/types.h>

#define RATCHET_CMD_MAGIC	0x52434d44
#define RATCHET_NR_CMDS		32

struct ratchet_cmd {
	u32 magic;
	u32 tag;
};

struct ratchet_host {
	spinlock_t lock;
	struct ratchet_cmd cmds[RATCHET_NR_CMDS];
};

struct ratchet_cmd *ratchet_get_cmd(struct ratchet_host *h, u32 tag)
{
	struct ratchet_cmd *cp = &h->cmds[tag % RATCHET_NR_CMDS];

	if (cp->magic)
		return NULL;
	cp->magic = RATCHET_CMD_MAGIC;
	cp->tag = tag;
	return cp;
}

/* The abort slot is never handed out by ratchet_get_cmd(). */
void ratchet_reserve_abort(struct ratchet_host *h)
{
	h->cmds[0].magic = 1;
}

void ratchet_put_cmd(struct ratchet_host *h, struct ratchet_cmd *cp)
{
	spin_lock(&h->lock);
	cp->magic = 0;
	spin_unlock(&h->lock);
}
