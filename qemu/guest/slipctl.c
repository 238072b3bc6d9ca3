// SPDX-License-Identifier: GPL-2.0
/*
 * slipctl: attach N_SLIP to both ends of a pty pair and keep the fds open,
 * answering one line per command read on stdin (busybox has no slattach):
 *   names   -> "ok <master-if> <slave-if>"
 *   again   second TIOCSETD N_SLIP on both ends: 0 or EEXIST, same interface
 *   ioctls  the slip ldisc ioctls answer and read back what was set
 *   cslip   switch both ends to CSLIP and read the mode back
 *   hangup  close the master (the slave side is hung up)
 *   close   close the slave
 * Every answer is "ok ..." or "fail <what>: <errno text>".
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/if_slip.h>
#include <net/if.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <termios.h>
#include <unistd.h>

struct end {
	int fd;
	char name[IFNAMSIZ];
};

static void answer(const char *fmt, const char *a, const char *b)
{
	printf(fmt, a, b);
	printf("\n");
	fflush(stdout);
}

static int fail(const char *what)
{
	printf("fail %s: %s\n", what, strerror(errno));
	fflush(stdout);
	return -1;
}

static int attach(struct end *e)
{
	int disc = N_SLIP;

	if (ioctl(e->fd, TIOCSETD, &disc) < 0)
		return fail("TIOCSETD N_SLIP");
	memset(e->name, 0, sizeof(e->name));
	if (ioctl(e->fd, SIOCGIFNAME, e->name) < 0)
		return fail("SIOCGIFNAME");
	return 0;
}

static int open_pair(struct end *m, struct end *s)
{
	char *path;

	m->fd = posix_openpt(O_RDWR | O_NOCTTY);
	if (m->fd < 0)
		return fail("posix_openpt");
	if (grantpt(m->fd) < 0 || unlockpt(m->fd) < 0)
		return fail("grantpt/unlockpt");
	path = ptsname(m->fd);
	if (!path)
		return fail("ptsname");
	s->fd = open(path, O_RDWR | O_NOCTTY);
	if (s->fd < 0)
		return fail("open pts");
	if (attach(m) < 0 || attach(s) < 0)
		return -1;
	answer("ok %s %s", m->name, s->name);
	return 0;
}

static int again(struct end *e)
{
	char name[IFNAMSIZ] = "";
	int disc = N_SLIP;

	if (ioctl(e->fd, TIOCSETD, &disc) < 0 && errno != EEXIST)
		return fail("second TIOCSETD N_SLIP");
	if (ioctl(e->fd, SIOCGIFNAME, name) < 0)
		return fail("SIOCGIFNAME after second TIOCSETD");
	if (strcmp(name, e->name)) {
		errno = EINVAL;
		return fail("interface changed on second TIOCSETD");
	}
	return 0;
}

/* Set an int ioctl, read it back through its getter, expect the value. */
static int set_get(int fd, unsigned long set, unsigned long get, int value, const char *what)
{
	int back = -1;

	if (ioctl(fd, set, &value) < 0)
		return fail(what);
	if (ioctl(fd, get, &back) < 0)
		return fail(what);
	if (back != value) {
		errno = ERANGE;
		return fail(what);
	}
	return 0;
}

static int ioctls(struct end *e)
{
	int mode = -1;

	if (ioctl(e->fd, SIOCGIFENCAP, &mode) < 0)
		return fail("SIOCGIFENCAP");
	if (set_get(e->fd, SIOCSIFENCAP, SIOCGIFENCAP, mode, "SIOCSIFENCAP") < 0)
		return -1;
	if (set_get(e->fd, SIOCSKEEPALIVE, SIOCGKEEPALIVE, 30, "SIOCSKEEPALIVE 30") < 0 ||
	    set_get(e->fd, SIOCSKEEPALIVE, SIOCGKEEPALIVE, 0, "SIOCSKEEPALIVE 0") < 0)
		return -1;
	if (set_get(e->fd, SIOCSOUTFILL, SIOCGOUTFILL, 20, "SIOCSOUTFILL 20") < 0 ||
	    set_get(e->fd, SIOCSOUTFILL, SIOCGOUTFILL, 0, "SIOCSOUTFILL 0") < 0)
		return -1;
	return 0;
}

static int run(const char *cmd, struct end *m, struct end *s)
{
	if (!strcmp(cmd, "names")) {
		answer("ok %s %s", m->name, s->name);
		return 0;
	}
	if (!strcmp(cmd, "again"))
		return again(m) < 0 || again(s) < 0 ? -1 : 0;
	if (!strcmp(cmd, "ioctls"))
		return ioctls(m) < 0 || ioctls(s) < 0 ? -1 : 0;
	if (!strcmp(cmd, "cslip"))
		return set_get(m->fd, SIOCSIFENCAP, SIOCGIFENCAP, SL_MODE_CSLIP, "CSLIP master") < 0 ||
		       set_get(s->fd, SIOCSIFENCAP, SIOCGIFENCAP, SL_MODE_CSLIP, "CSLIP slave") < 0
		       ? -1 : 0;
	if (!strcmp(cmd, "hangup")) {
		if (close(m->fd) < 0)
			return fail("close master");
		m->fd = -1;
		return 0;
	}
	if (!strcmp(cmd, "close")) {
		if (close(s->fd) < 0)
			return fail("close slave");
		s->fd = -1;
		return 0;
	}
	errno = EINVAL;
	return fail(cmd);
}

int main(void)
{
	struct end m = { .fd = -1 }, s = { .fd = -1 };
	char line[64];

	if (open_pair(&m, &s) < 0)
		return 1;
	while (fgets(line, sizeof(line), stdin)) {
		line[strcspn(line, "\n")] = 0;
		if (!strcmp(line, "quit"))
			break;
		if (run(line, &m, &s) == 0 && strcmp(line, "names"))
			answer("ok %s%s", line, "");
	}
	return 0;
}
