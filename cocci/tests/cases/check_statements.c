/* demagic: remove PORT_MAGIC struct=port member=magic */
#define NR_PORTS	4
#define PORT_MAGIC	0xF10A7654

struct port {
	int magic;
	int rate;
};

static struct port ports[NR_PORTS] = {
	{ .magic = PORT_MAGIC, .rate = 1200, },
};

static int port_ioctl(struct port *yp, int cmd)
{
	if (cmd < 0)
		return -EFAULT;

	if (yp->magic != PORT_MAGIC)
		return -EINVAL;

	if (!capable(CAP_NET_ADMIN))
		return -EPERM;
	return 0;
}

static void port_check(struct port *yp)
{
	if (yp->magic != PORT_MAGIC) {
		pr_err("port: bad magic\n");
		return;
	}
	WARN_ON(yp->magic != PORT_MAGIC);
	WARN_ON_ONCE(yp->magic != PORT_MAGIC);
	yp->rate = 0;
}

static void port_unregister(struct port *yp)
{
	BUG_ON(yp->magic != PORT_MAGIC);

	free(yp);
}
