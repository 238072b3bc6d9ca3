/* demagic: remove BOX_MAGIC struct=box member=magic */
#define BOX_MAGIC 0x42

struct box {
	int magic;
	int n;
};

void box_init(struct box *b)
{
	b->magic = BOX_MAGIC;
}

#define BOX_CHECK(b) ((b)->magic == BOX_MAGIC)
