/* SPDX-License-Identifier: GPL-2.0 */
#include <linux/linkage.h>
#include <asm/pelt.h>

SYM_FUNC_START(pelt_fast_bump)
	incl	PELT_COUNT_OFFSET(%rdi)
	movl	PELT_LIMIT_OFFSET(%rdi), %eax
	RET
SYM_FUNC_END(pelt_fast_bump)
