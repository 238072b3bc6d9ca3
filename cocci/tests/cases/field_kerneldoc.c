/* demagic: remove LUMEN_MAGIC struct=lumen_clk member=magic */
#define LUMEN_MAGIC 0x4c4d4e31

/**
 * struct lumen_clk - a lumen clock
 *
 * @magic:	magic number to validate type
 * @rate:	the rate, in Hz, which spans
 *		two lines
 * @parent:	the parent clock
 *
 * Flags:
 * LUMEN_FIXED - the rate never changes
 */
struct lumen_clk {
	unsigned int magic;
	unsigned long rate;
	struct lumen_clk *parent;
};

/**
 * struct lumen_gate - a gate, whose @magic is another struct's and stays
 *
 * @magic:	left alone
 */
struct lumen_gate {
	int magic;
};

void lumen_init(struct lumen_clk *clk, struct lumen_gate *gate)
{
	clk->magic = LUMEN_MAGIC;
	gate->magic = 3;
}
