// SPDX-License-Identifier: GPL-2.0
#include <linux/netdevice.h>
#include <linux/skbuff.h>

#define SPIGOT_CB_MAGIC	0x53504754

/* Laid over skb->cb between spigot_mark() and spigot_rcv(). */
struct spigot_skb_cb {
	u32 magic;
	u16 port;
	u16 flags;
};

#define SPIGOT_CB(skb)	((struct spigot_skb_cb *)(skb)->cb)

void spigot_mark(struct sk_buff *skb, u16 port)
{
	struct spigot_skb_cb *cb = SPIGOT_CB(skb);

	cb->magic = SPIGOT_CB_MAGIC;
	cb->port = port;
	cb->flags = 0;
}

int spigot_rcv(struct sk_buff *skb)
{
	struct spigot_skb_cb *cb = SPIGOT_CB(skb);

	if (cb->magic != SPIGOT_CB_MAGIC) {
		kfree_skb(skb);
		return NET_RX_DROP;
	}
	skb->priority = cb->port;
	return netif_receive_skb(skb);
}
