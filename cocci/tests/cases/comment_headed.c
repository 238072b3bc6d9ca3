/* demagic: remove REED_MAGIC struct=reed member=magic */
#include <linux/errno.h>

/* Random number used for internal consistency checks of reeds */
#define REED_MAGIC	0x52454544

struct reed {
	int	magic;		/* should be REED_MAGIC */
	int	length;
};

int reed_ioctl(struct reed *r, int cmd)
{
	/* Validate reed presence and magic integrity ONLY for commands
	 * that need a reed.
	 */
	switch (cmd) {
	case 1:
	case 2:
		if (!r)
			return -ENOTCONN;

		if (r->magic != REED_MAGIC)
			return -EBADF;
		break;
	default:
		break;
	}
	return r ? r->length : 0;
}

void reed_init(struct reed *r)
{
	r->magic = REED_MAGIC;
	r->length = 0;
}
