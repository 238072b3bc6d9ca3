/* demagic: remove FOO_MAGIC struct=foo member=magic */
#define FOO_MAGIC 0x1234
#define FOO_SIZE 16

struct foo {
	int magic;		/* magic number */

	int size;
	char *name;
};

struct bar {
	int magic;
	int size;
};

void foo_init(struct foo *f, struct bar *b)
{
	f->magic = FOO_MAGIC;
	f->size = FOO_SIZE;
	b->magic = 7;
}
