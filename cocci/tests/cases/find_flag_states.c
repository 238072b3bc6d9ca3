/* demagic: find */
#define BAR_UP_MAGIC 777

struct bar {
	int is_up;
};

void bar_open(struct bar *b)
{
	b->is_up = BAR_UP_MAGIC;
}

void bar_close(struct bar *b)
{
	b->is_up = 0;
}

int bar_xmit(struct bar *b)
{
	if (!b->is_up)
		return -1;
	if (b->is_up == BAR_UP_MAGIC)
		return 1;
	return 0;
}
