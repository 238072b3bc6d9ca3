/* demagic: remove CORK_MAGIC struct=cork member=magic */
#define CORK_MAGIC 0xc0c0

struct cork {
	int magic;
	int depth;
};

struct bottle {
	struct cork top;
	int volume;
};

int bottle_open(struct bottle *b, int how)
{
	struct cork *c = &b->top;
	int err = 0;

	if (WARN_ON(c->magic != CORK_MAGIC))
		return -EIDRM;
	switch (how) {
	case 1:
		b->volume--;
		break;
	default:
		err = -EINVAL;
	}
	return err;
}

void bottle_init(struct bottle *b)
{
	struct cork *c = &b->top;

	c->depth = 0;
	c->magic = CORK_MAGIC;
}
