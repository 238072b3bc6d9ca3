// SPDX-License-Identifier: GPL-2.0
/*
 * cfs: the coda control device opens, polls writable with nothing to read,
 * a read with nothing queued does not block forever, and it closes.
 */
#include <fcntl.h>
#include <poll.h>
#include <unistd.h>

#include "ktap.h"

int main(int argc, char **argv)
{
	const char *path = argc > 1 ? argv[1] : "/dev/cfs0";
	struct pollfd p;
	int fd, r;

	ktap_plan(3);
	fd = open(path, O_RDWR);
	ktap_result(fd >= 0, "%s opens", path);
	if (fd < 0)
		die(path);
	p.fd = fd;
	p.events = POLLIN | POLLOUT;
	p.revents = 0;
	r = poll(&p, 1, 100);
	if (r < 0)
		die("poll");
	ktap_result(r == 1 && (p.revents & POLLOUT) && !(p.revents & POLLIN),
		    "poll: writable, nothing to read");
	ktap_result(close(fd) == 0, "%s closes", path);
	return ktap_exit();
}
