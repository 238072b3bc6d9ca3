/* demagic: flag FLUTE_UP_MAGIC struct=flute member=is_up flag=is_up */
#define FLUTE_UP_MAGIC	777

struct flute {
	u32	is_up;
	int	notes;
};

int flute_open(struct flute *f)
{
	if (f->is_up == FLUTE_UP_MAGIC)
		return 0;
	f->notes = 0;
	f->is_up = FLUTE_UP_MAGIC;
	return 0;
}

void flute_close(struct flute *f)
{
	if (f->is_up != FLUTE_UP_MAGIC)
		return;
	f->is_up = 0;
}
