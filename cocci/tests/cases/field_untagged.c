/* demagic: remove TAG_MAGIC struct=tag_t member=tag_magic */
#define TAG_MAGIC 0xabcd

typedef struct {
	unsigned int tag_magic;
	unsigned int count;
} tag_t;

void tag_use(tag_t *t)
{
	t->tag_magic = TAG_MAGIC;
	if (t->tag_magic != TAG_MAGIC)
		return;
	t->count++;
}
