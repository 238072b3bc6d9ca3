/* demagic: remove LINK_MAGIC struct=link member=magic */
#define LINK_MAGIC 0x5302

struct link {
	int magic;
	void *tty;
	int up;
};

static void link_transmit(struct link *sl)
{
	if (!sl->tty || sl->magic != LINK_MAGIC || !sl->up) {
		unlock(sl);
		return;
	}
	send(sl);
}

static int link_open(struct link *sl)
{
	/* First make sure we're not already connected. */
	if (sl && sl->magic == LINK_MAGIC)
		return -EEXIST;
	if (sl == NULL || sl->magic != LINK_MAGIC)
		return -ENODEV;
	if (sl->magic != LINK_MAGIC || sl->up ||
	    sl->tty == NULL)
		return -EBUSY;
	return 0;
}

static void link_close(struct link *sl, void *tty)
{
	if (!sl || sl->magic != LINK_MAGIC || sl->tty != tty)
		return;
	sl->up = 0;
}
