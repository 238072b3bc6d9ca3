/* demagic: remove EPP_MAGIC struct=epp_state member=magic */
/* ------------------------------------------------------------------ */

#define EPP_DEBUG
#define EPP_MAGIC 19730510

/* ------------------------------------------------------------------ */

static const char paranoia_str[] = KERN_ERR 
	"epp: bad magic number for epp_state struct in routine %s\n";

static const char drvname[] = "epp";

struct epp_state {
	int magic;

	struct net_device *dev;
};

static inline bool epp_paranoia_check(struct epp_state *info,
				      const char *routine)
{
#ifdef EPP_PARANOIA_CHECK
	static const char *badmagic =
		"Warning: bad magic number for epp struct in %s\n";
	static const char *badinfo =
		"Warning: null epp_state in %s\n";

	if (!info) {
		printk(badinfo, routine);
		return true;
	}
	if (info->magic != EPP_MAGIC) {
		printk(badmagic, routine);
		return true;
	}
#else
	if (!info)
		return true;
#endif
	return false;
}

static void __exit epp_cleanup(struct net_device **devs)
{
	int i;

	for (i = 0; i < 4; i++) {
		struct net_device *dev = devs[i];

		if (dev) {
			struct epp_state *bc = netdev_priv(dev);
			if (bc->magic == EPP_MAGIC) {
				unregister_netdev(dev);
				free_netdev(dev);
			} else
				printk(paranoia_str, "cleanup_module");
		}
	}
}

static void epp_open(struct net_device *dev)
{
	struct epp_state *bc = netdev_priv(dev);

	if (bc->magic != EPP_MAGIC)
		return;
	bc->dev = dev;
}
