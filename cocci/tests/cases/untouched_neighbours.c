/* demagic: remove SESS_MAGIC struct=sess member=magic */
#define SESS_MAGIC	0x4601
#define SESS_MAGIC2	0x4602
#define EXT_SUPER_MAGIC	0x137d

struct sess {
	int magic;
	int fd;
};

struct other {
	int magic;
};

static const char used_msg[] = "sess: bad state %d\n";

void sess_use(struct sess *s, struct other *o, struct super_block *sb,
	      struct ethtool_wolinfo *wol)
{
	s->magic = SESS_MAGIC;
	if (o->magic != SESS_MAGIC2)
		return;
	if (sb->s_magic != EXT_SUPER_MAGIC)
		return;
	if (wol->wolopts & WAKE_MAGIC)
		printk(used_msg, 1);
	if (s->fd < 0)
		printk(used_msg, s->fd);
}
