// SPDX-License-Identifier: GPL-2.0
#include <linux/etherdevice.h>
#include <linux/netdevice.h>

#define BELLOWS_UP_MAGIC	0x42555550

struct bellows_adapter {
	struct net_device *netdev;
	void __iomem *regs;
	u32 is_up;
};

static void bellows_hw_start(struct bellows_adapter *a)
{
	writel(1, a->regs);
}

static void bellows_hw_stop(struct bellows_adapter *a)
{
	writel(0, a->regs);
}

static int bellows_open(struct net_device *dev)
{
	struct bellows_adapter *a = netdev_priv(dev);

	if (a->is_up == BELLOWS_UP_MAGIC)
		return 0;
	bellows_hw_start(a);
	a->is_up = BELLOWS_UP_MAGIC;
	netif_start_queue(dev);
	return 0;
}

static int bellows_close(struct net_device *dev)
{
	struct bellows_adapter *a = netdev_priv(dev);

	netif_stop_queue(dev);
	bellows_hw_stop(a);
	a->is_up = 0;
	return 0;
}

static const struct net_device_ops bellows_netdev_ops = {
	.ndo_open	= bellows_open,
	.ndo_stop	= bellows_close,
};
