// SPDX-License-Identifier: GPL-2.0
#include <linux/slab.h>
#include <linux/tty.h>

#define LANTERN_MAGIC 0x4c414e54

struct lantern_port {
	int magic;
	struct tty_port port;
	spinlock_t lock;
	unsigned int lit;
};

static struct lantern_port *lantern_ports[4];

struct lantern_port *lantern_get(int index)
{
	return lantern_ports[index];
}

int lantern_create(struct lantern_port *lp, struct tty_driver *drv, int index)
{
	tty_port_init(&lp->port);
	if (IS_ERR(tty_port_register_device(&lp->port, drv, index, NULL)))
		return -ENODEV;
	lantern_ports[index] = lp;
	lp->magic = LANTERN_MAGIC;
	spin_lock_init(&lp->lock);
	return 0;
}

int lantern_open(struct tty_struct *tty, struct file *filp)
{
	struct lantern_port *lp = lantern_get(tty->index);

	if (lp == NULL || lp->magic != LANTERN_MAGIC)
		return -ENODEV;
	spin_lock(&lp->lock);
	lp->lit++;
	spin_unlock(&lp->lock);
	return 0;
}
