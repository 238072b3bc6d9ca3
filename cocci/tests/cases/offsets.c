/* demagic: remove KV_MAGIC struct=kern_vars_s member=kv_magic header=offsets.h */
#include "offsets.h"

void set_source(kern_vars_t *kvp, s16 node)
{
	kvp->kv_magic = KV_MAGIC;
	kvp->kv_ro_node = node;
}
