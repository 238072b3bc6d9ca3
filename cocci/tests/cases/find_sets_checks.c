/* demagic: find */
#define FOO_MAGIC 0x4f4f
#define PLAIN_VALUE 7

struct foo {
	int magic;
	int value;
};

static struct foo initial = { .value = 1, .magic = FOO_MAGIC };

void foo_init(struct foo *f)
{
	f->magic = FOO_MAGIC;
	f->value = PLAIN_VALUE;		/* not a MAGIC name: not reported */
}

int foo_use(struct foo *f)
{
	if (!f || f->magic != FOO_MAGIC)
		return -22;
	return f->value;
}

void foo_print(struct foo *f)
{
	if (f->magic != FOO_MAGIC) {
		printk("foo: bad magic\n");
	}
}

void foo_assert(struct foo *f)
{
	BUG_ON(f->magic != FOO_MAGIC);
	WARN_ON(FOO_MAGIC != f->magic);
}

int foo_other(int x)
{
	return x == FOO_MAGIC;		/* not a field: not reported */
}
