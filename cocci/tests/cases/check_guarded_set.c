/* demagic: remove PEG_MAGIC struct=peg member=magic */
#define PEG_MAGIC 0x5045

struct peg {
	int magic;
	int height;
};

void peg_init(struct peg *p, struct peg *spare)
{
	if (spare)
		spare->magic = PEG_MAGIC;
	if (p) {
		p->magic = PEG_MAGIC;
	}
	p->height = 0;
}

int peg_check(struct peg *p)
{
	if (p->magic != PEG_MAGIC)
		return -EINVAL;
	return p->height;
}
