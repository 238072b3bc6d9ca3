/* SPDX-License-Identifier: GPL-2.0 */
#define REC_MAGIC_OFFSET	0x0
#define REC_LEN_OFFSET		0x4
#define REC_MAGIC		0x5f4b

struct rec {
	int		rec_magic;
	struct blob	rec_len;
};
