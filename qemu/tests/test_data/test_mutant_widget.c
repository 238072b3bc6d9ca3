#include "widget.h"
#define WIDGET_MAGIC 0x5742

struct widget {
	int magic;
	int count;
};

void widget_init(struct widget *w)
{
	w->count = 0;
	w->magic = WIDGET_MAGIC;
}

void widget_poke(struct widget *w)
{
	if (!w || w->magic != WIDGET_MAGIC)
		return;
	w->count++;
}
