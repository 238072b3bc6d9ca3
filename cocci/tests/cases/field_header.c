/* demagic: remove MODEM_MAGIC struct=modem_state member=magic header=field_header.h */
#include "field_header.h"

struct board {
	struct modem_state hdrv;
	int irq;
};

void modem_receiver(struct modem_state *s)
{
	if (!s || s->magic != MODEM_MAGIC) 
		return;
	s->opened = 1;
}

static int board_ioctl(struct board *bc)
{
	BUG_ON(bc->hdrv.magic != MODEM_MAGIC);

	return bc->irq;
}

static irqreturn_t board_interrupt(int irq, struct board *bc)
{
	if (!bc || bc->hdrv.magic != MODEM_MAGIC)
		return IRQ_NONE;
	return IRQ_HANDLED;
}

void modem_register(struct modem_state *s)
{
	s->magic = MODEM_MAGIC;
	s->opened = 0;
}
