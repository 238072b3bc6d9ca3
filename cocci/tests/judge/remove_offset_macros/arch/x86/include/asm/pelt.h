/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _ASM_X86_PELT_H
#define _ASM_X86_PELT_H

#define PELT_MAGIC	0x50454c54

/* Offsets into struct pelt, for the assembly in pelt_asm.S */
#define PELT_COUNT_OFFSET	4
#define PELT_LIMIT_OFFSET	8

#ifndef __ASSEMBLY__
struct pelt {
	unsigned int magic;
	unsigned int count;
	unsigned int limit;
};

struct pelt *pelt_new(unsigned int limit);
void pelt_bump(struct pelt *p);
#endif

#endif
