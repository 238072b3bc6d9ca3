// SPDX-License-Identifier: GPL-2.0
/*
 * apm: /dev/apm_bios opens, and its read, poll and ioctl paths answer:
 * a non-blocking read with no event pending says EAGAIN, poll says nothing
 * is pending, an unknown ioctl says ENOTTY, and /proc/apm reads.
 */
#include <fcntl.h>
#include <poll.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "ktap.h"

static int read_proc(void)
{
	char buf[256];
	ssize_t n;
	int fd = open("/proc/apm", O_RDONLY);

	if (fd < 0) {
		ktap_diag("/proc/apm: %s", strerror(errno));
		return 0;
	}
	n = read(fd, buf, sizeof(buf) - 1);
	if (n <= 0 || close(fd) < 0)
		return 0;
	buf[n] = 0;
	ktap_diag("/proc/apm: %s", strtok(buf, "\n"));
	return 1;
}

int main(void)
{
	struct pollfd p;
	char ev[16];
	int fd, r;

	ktap_plan(5);
	fd = open("/dev/apm_bios", O_RDWR | O_NONBLOCK);
	ktap_result(fd >= 0, "/dev/apm_bios opens");
	if (fd < 0)
		die("open /dev/apm_bios");
	r = (int)read(fd, ev, sizeof(ev));
	ktap_result(r < 0 && errno == EAGAIN, "read with no event pending says EAGAIN");
	if (r >= 0 || errno != EAGAIN)
		ktap_diag("read returned %d: %s", r, strerror(errno));
	p.fd = fd;
	p.events = POLLIN;
	p.revents = 0;
	r = poll(&p, 1, 100);
	ktap_result(r == 0, "poll says no event pending");
	r = ioctl(fd, _IO('A', 0x7f));
	ktap_result(r < 0 && errno == ENOTTY, "an unknown ioctl says ENOTTY");
	if (r >= 0 || errno != ENOTTY)
		ktap_diag("ioctl returned %d: %s", r, strerror(errno));
	if (close(fd) < 0)
		die("close");
	ktap_result(read_proc(), "/proc/apm reads");
	return ktap_exit();
}
