/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _TRESTLE_H
#define _TRESTLE_H

#undef TRESTLE_DEBUG

struct trestle {
	unsigned int span;
#ifdef TRESTLE_DEBUG
	unsigned int magic;
#define TRESTLE_MAGIC	0x54525354
#endif
	unsigned int load;
};

/*
 * Debugging trestle validation
 */
#ifdef TRESTLE_DEBUG
extern void __trestle_check(const struct trestle *t);

static inline void trestle_check(const struct trestle *t)
{
	if (t->magic != TRESTLE_MAGIC)
		__trestle_check(t);
}
#else
#define trestle_check(t) do {} while (0)
#endif

#endif /* _TRESTLE_H */
