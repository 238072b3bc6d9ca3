/* demagic: flag JOB_MAGIC struct=job member=magic flag=busy */
#define NS_PPR		(4)

/*==========================================================
**
**	Misc.
**
**==========================================================
*/

#define JOB_MAGIC	(0xf2691ad2)

/*==========================================================
**
**	Declaration of structs.
**
**==========================================================
*/

struct job {
	struct job	*next;		/* Chain		*/
	u_long		magic;		/* Free / busy  job flag	*/
};

static void job_start(struct job *cp)
{
	/* activate this job.  */
	cp->magic		= JOB_MAGIC;
}

void job_complete(struct job *cp)
{
	if (!cp || cp->magic != JOB_MAGIC || !cp->next)
		return;
}

static struct job *job_get(struct job *cp)
{
	if (cp->magic) {
		cp = NULL;
	}
#if 0
	while (cp->magic) {
		sleep(1);
	}
#endif
	if (cp->magic)
		return NULL;

	cp->magic = 1;
	return cp;
}

static void job_free(struct job *cp)
{
	cp -> magic = 0;
}
