/* demagic: remove TRAP_MAGIC struct=trap member=magic */
#define TRAP_MAGIC 0xfeedbeef

struct trap {
	unsigned int magic;
	int width;
};

static int trap_read(unsigned long addr)
{
	struct trap *t = lookup(addr);

	WARN_ON(!t || (t->magic != TRAP_MAGIC));
	return t->width;
}

static int trap_valid(struct trap *t)
{
	return t && (t->magic == TRAP_MAGIC);
}
