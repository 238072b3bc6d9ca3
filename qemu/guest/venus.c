// SPDX-License-Identifier: GPL-2.0
/*
 * venus: a minimal Coda cache manager.  A child answers the kernel's upcalls
 * on /dev/cfs0 (root, getattr, access, open by fd with an empty container
 * file, close); the parent mounts coda, opens the root directory, reads it
 * (coda_readdir) and closes it (coda_release): both go through coda_ftoc().
 */
#define _GNU_SOURCE
#include "ktap.h"

#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#define _LINUX_TIME_H	/* <linux/coda.h> wants it; glibc's <sys/time.h> covers it */
#include <linux/coda.h>

#define MNT "/mnt/coda"
#define CONTAINER "/tmp/coda.container"

static void reply(int dev, const void *msg, size_t len)
{
	if (write(dev, msg, len) != (ssize_t)len)
		die("write reply");
}

static void root_attr(struct coda_vattr *va)
{
	memset(va, 0, sizeof(*va));
	va->va_type = C_VDIR;
	va->va_mode = 0755;
	va->va_nlink = 2;
	va->va_fileid = 1;
	va->va_blocksize = 4096;
}

/* One upcall in, its answer out. */
static void answer(int dev, const union inputArgs *in)
{
	struct coda_out_hdr oh = { .opcode = in->ih.opcode, .unique = in->ih.unique };

	switch (in->ih.opcode) {
	case CODA_ROOT: {
		struct coda_root_out out = { .oh = oh, .VFid = { { 1, 2, 3, 4 } } };

		reply(dev, &out, sizeof(out));
		return;
	}
	case CODA_GETATTR: {
		struct coda_getattr_out out = { .oh = oh };

		root_attr(&out.attr);
		reply(dev, &out, sizeof(out));
		return;
	}
	case CODA_OPEN_BY_FD: {
		struct coda_open_by_fd_out out = { .oh = oh };

		out.fd = open(CONTAINER, O_RDWR);
		if (out.fd < 0)
			die("open container");
		reply(dev, &out, sizeof(out));
		if (close(out.fd) < 0)
			die("close container");
		return;
	}
	case CODA_ACCESS:
	case CODA_CLOSE:
		reply(dev, &oh, sizeof(oh));
		return;
	default:
		oh.result = ENOSYS;
		reply(dev, &oh, sizeof(oh));
	}
}

static void __attribute__((noreturn)) serve(int dev)
{
	union {
		union inputArgs in;
		char raw[8192];
	} buf;

	for (;;) {
		ssize_t n = read(dev, &buf, sizeof(buf));

		if (n < 0 && errno == EINTR)
			continue;
		if (n < (ssize_t)sizeof(struct coda_in_hdr))
			_exit(0);
		answer(dev, &buf.in);
	}
}

/* 1 if the directory reads back as exactly "." and "..". */
static int read_root(int fd)
{
	char buf[1024];
	long n, off, entries = 0;

	while ((n = syscall(SYS_getdents64, fd, buf, sizeof(buf))) > 0)
		for (off = 0; off < n; entries++)
			off += ((struct dirent64 *)(buf + off))->d_reclen;
	if (n < 0)
		ktap_diag("getdents64: %s", strerror(errno));
	return n == 0 && entries == 2;
}

int main(void)
{
	struct coda_mount_data data = { .version = CODA_MOUNT_VERSION };
	int dev, dir, fd, status;
	pid_t venus;

	ktap_plan(5);
	fd = open(CONTAINER, O_RDWR | O_CREAT | O_TRUNC, 0644);
	if (fd < 0 || close(fd) < 0)
		die(CONTAINER);
	if (mkdir("/mnt", 0755) < 0 && errno != EEXIST)
		die("mkdir /mnt");
	if (mkdir(MNT, 0755) < 0 && errno != EEXIST)
		die("mkdir " MNT);
	dev = open("/dev/cfs0", O_RDWR);
	if (dev < 0)
		die("open /dev/cfs0");
	venus = fork();
	if (venus < 0)
		die("fork");
	if (venus == 0)
		serve(dev);
	data.fd = dev;
	ktap_result(mount("coda", MNT, "coda", 0, &data) == 0, "mount coda on " MNT);
	dir = open(MNT, O_RDONLY | O_DIRECTORY);
	ktap_result(dir >= 0, "open the coda root directory");
	if (dir < 0)
		die("open " MNT);
	ktap_result(read_root(dir), "readdir of the root gives . and ..");
	ktap_result(close(dir) == 0, "close the coda root directory");
	ktap_result(umount(MNT) == 0, "umount coda");
	if (kill(venus, SIGKILL) < 0 || waitpid(venus, &status, 0) < 0)
		die("stop venus");
	if (close(dev) < 0)
		die("close /dev/cfs0");
	return ktap_exit();
}
