/* demagic: find */
#define BAZ_MAGIC 0xbaz0
#define SET_BAZ(p, m)	((p)->magic = (m))
#define BAD_BAZ(p, m)	((p)->magic != (m))

struct baz {
	unsigned int magic;
};

void baz_init(struct baz *z)
{
	SET_BAZ(z, BAZ_MAGIC);
}

int baz_check(struct baz *z)
{
	if (BAD_BAZ(z, BAZ_MAGIC))
		return -1;
	return 0;
}
