/* demagic: remove DEV_MAGIC struct=_dev_info member=magic */
typedef struct _dev_info {
	void *priv;	/* private pointer */
	int			magic;
	int			line;
} DEV_INFO;

#define DEV_MAGIC 0x5402

/*
 * The size of the buffer
 */
#define BUF_SIZE 4096

static int probe(DEV_INFO *info)
{
	info->magic = DEV_MAGIC;
	info->line = 0;
	return 0;
}
