/* demagic: remove ENTRY_MAGIC_FREE ENTRY_MAGIC_USED struct=entry member=magic */
#include <linux/list.h>

#define DEBUG

typedef struct entry {
	struct list_head   list;
	void		   *data;
#ifdef DEBUG
	unsigned long	   magic;
#endif
} entry_t;

#ifdef DEBUG
#define ENTRY_MAGIC_FREE	0xf7e1c9a3
#define ENTRY_MAGIC_USED	0xf7e1cc33

#define SET_MAGIC(q,m)	((q)->magic = (m))
#define BAD_MAGIC(q,m)	((q)->magic != (m))
#else
#define SET_MAGIC(q,m)	do { } while (0)
#define BAD_MAGIC(q,m)	(0)
#endif

#include "entry.h"

void entry_init(entry_t *q)
{
	SET_MAGIC(q, ENTRY_MAGIC_FREE);
	q->data = NULL;
}

void *entry_take(entry_t *q)
{
	BUG_ON(BAD_MAGIC(q, ENTRY_MAGIC_FREE));

	SET_MAGIC(q, ENTRY_MAGIC_USED);
	return q->data;
}
