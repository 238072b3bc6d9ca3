// SPDX-License-Identifier: GPL-2.0
/*
 * slipctl: two slip interfaces on two pty masters, wired to each other by
 * relaying the bytes between the two pty slaves (raw N_TTY: its reads are
 * what wake a pty writer, so slip's transmit path sees write_wakeup).  It
 * keeps every fd open and answers one line per command read on stdin
 * (busybox has no slattach):
 *   names   -> "ok <if-a> <if-b>"
 *   again   second TIOCSETD N_SLIP on both: 0 or EEXIST, same interface
 *   ioctls  the slip ldisc ioctls answer and read back what was set
 *   cslip   switch both to CSLIP and read the mode back
 *   hangup  TIOCVHANGUP on the tty of interface b
 *   close   close both sides of the pty of interface a
 * Every answer is "ok ..." or "fail <what>: <errno text>".
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/if_slip.h>
#include <net/if.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <termios.h>
#include <unistd.h>

struct end {
	int fd;		/* pty master, N_SLIP */
	int slave;	/* raw, relayed to the other end's slave */
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

/* A pty whose master carries N_SLIP and whose slave is raw, for the relay. */
static int open_pty(struct end *m)
{
	struct termios t;
	char *path;

	m->fd = posix_openpt(O_RDWR | O_NOCTTY);
	if (m->fd < 0)
		return fail("posix_openpt");
	if (grantpt(m->fd) < 0 || unlockpt(m->fd) < 0)
		return fail("grantpt/unlockpt");
	path = ptsname(m->fd);
	if (!path)
		return fail("ptsname");
	m->slave = open(path, O_RDWR | O_NOCTTY | O_NONBLOCK);
	if (m->slave < 0)
		return fail("open pts");
	if (tcgetattr(m->slave, &t) < 0)
		return fail("tcgetattr");
	cfmakeraw(&t);
	if (tcsetattr(m->slave, TCSANOW, &t) < 0)
		return fail("tcsetattr");
	return attach(m);
}

/* Move what one slave has read to the other; 0 once the first one is gone. */
static int relay(int from, int to)
{
	char buf[4096];
	ssize_t n = read(from, buf, sizeof(buf)), done = 0;

	if (n < 0)
		return errno == EAGAIN || errno == EINTR ? 1 : 0;
	if (n == 0)
		return 0;
	while (done < n) {
		ssize_t w = write(to, buf + done, (size_t)(n - done));

		if (w < 0 && errno == EAGAIN) {
			usleep(1000);
			continue;
		}
		if (w <= 0)
			return 0;
		done += w;
	}
	return 1;
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
		if (ioctl(s->fd, TIOCVHANGUP) < 0)
			return fail("TIOCVHANGUP");
		return 0;
	}
	if (!strcmp(cmd, "close")) {
		if (close(m->fd) < 0 || close(m->slave) < 0)
			return fail("close");
		m->fd = m->slave = -1;
		return 0;
	}
	errno = EINVAL;
	return fail(cmd);
}

int main(void)
{
	struct end a = { .fd = -1 }, b = { .fd = -1 };
	struct pollfd p[3];
	int relaying = 1;
	char line[64];

	if (open_pty(&a) < 0 || open_pty(&b) < 0)
		return 1;
	setvbuf(stdin, NULL, _IONBF, 0);
	for (;;) {
		p[0] = (struct pollfd){ .fd = 0, .events = POLLIN };
		p[1] = (struct pollfd){ .fd = relaying ? a.slave : -1, .events = POLLIN };
		p[2] = (struct pollfd){ .fd = relaying ? b.slave : -1, .events = POLLIN };
		if (poll(p, 3, -1) < 0 && errno != EINTR)
			return fail("poll"), 1;
		if (p[1].revents)
			relaying = relay(a.slave, b.slave);
		if (p[2].revents && relaying)
			relaying = relay(b.slave, a.slave);
		if (!(p[0].revents & (POLLIN | POLLHUP)))
			continue;
		if (!fgets(line, sizeof(line), stdin))
			break;
		line[strcspn(line, "\n")] = 0;
		if (!strcmp(line, "quit"))
			break;
		if (run(line, &a, &b) == 0 && strcmp(line, "names"))
			answer("ok %s%s", line, "");
	}
	return 0;
}
