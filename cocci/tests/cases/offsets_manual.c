/* demagic: remove REC_MAGIC struct=rec member=rec_magic header=offsets_manual.h */
#include "offsets_manual.h"

void rec_init(struct rec *r)
{
	r->rec_magic = REC_MAGIC;
}
