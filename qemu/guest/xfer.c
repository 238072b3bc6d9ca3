// SPDX-License-Identifier: GPL-2.0
/*
 * xfer: move a known byte stream over TCP or UDP and compare every byte.
 *   xfer tcp-serve PORT BYTES        read BYTES (checked), then send BYTES back
 *   xfer tcp-send ADDR PORT BYTES    send BYTES, then read BYTES back (checked)
 *   xfer udp-echo PORT               echo datagrams until an empty one
 *   xfer udp-send ADDR PORT BYTES    send BYTES in numbered datagrams, each echo checked
 * Exit status 0 only if every byte came through in order.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#define CHUNK 256

static void __attribute__((noreturn)) die(const char *what)
{
	fprintf(stderr, "xfer: %s: %s\n", what, strerror(errno));
	exit(2);
}

static unsigned char pattern(unsigned long i, int seed)
{
	return (unsigned char)(i * 7 + (unsigned long)seed * 13 + (i >> 8));
}

static struct sockaddr_in address(const char *addr, const char *port)
{
	struct sockaddr_in sa = { .sin_family = AF_INET };

	sa.sin_port = htons((unsigned short)atoi(port));
	sa.sin_addr.s_addr = htonl(INADDR_ANY);
	if (addr && inet_pton(AF_INET, addr, &sa.sin_addr) != 1) {
		errno = EINVAL;
		die(addr);
	}
	return sa;
}

static void set_timeout(int fd, int seconds)
{
	struct timeval tv = { .tv_sec = seconds };

	if (setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv)) < 0 ||
	    setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv)) < 0)
		die("setsockopt timeout");
}

static void send_stream(int fd, unsigned long bytes, int seed)
{
	unsigned char buf[4096];
	unsigned long done = 0;

	while (done < bytes) {
		size_t n = bytes - done < sizeof(buf) ? bytes - done : sizeof(buf);
		ssize_t w;

		for (size_t i = 0; i < n; i++)
			buf[i] = pattern(done + i, seed);
		w = write(fd, buf, n);
		if (w <= 0)
			die("write");
		done += (unsigned long)w;
	}
}

static void check_stream(int fd, unsigned long bytes, int seed)
{
	unsigned char buf[4096];
	unsigned long done = 0;

	while (done < bytes) {
		ssize_t r = read(fd, buf, sizeof(buf));

		if (r < 0)
			die("read");
		if (r == 0) {
			fprintf(stderr, "xfer: stream ended after %lu of %lu bytes\n", done, bytes);
			exit(1);
		}
		for (ssize_t i = 0; i < r; i++, done++)
			if (buf[i] != pattern(done, seed)) {
				fprintf(stderr, "xfer: byte %lu differs\n", done);
				exit(1);
			}
	}
}

static int tcp_serve(const char *port, unsigned long bytes)
{
	struct sockaddr_in sa = address(NULL, port);
	int one = 1, ls, fd;

	ls = socket(AF_INET, SOCK_STREAM, 0);
	if (ls < 0)
		die("socket");
	if (setsockopt(ls, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one)) < 0)
		die("SO_REUSEADDR");
	if (bind(ls, (struct sockaddr *)&sa, sizeof(sa)) < 0 || listen(ls, 1) < 0)
		die("bind/listen");
	fd = accept(ls, NULL, NULL);
	if (fd < 0)
		die("accept");
	set_timeout(fd, 20);
	check_stream(fd, bytes, 1);
	send_stream(fd, bytes, 2);
	if (close(fd) < 0 || close(ls) < 0)
		die("close");
	return 0;
}

static int tcp_send(const char *addr, const char *port, unsigned long bytes)
{
	struct sockaddr_in sa = address(addr, port);
	int fd = -1;

	for (int tries = 0; tries < 50; tries++) {
		fd = socket(AF_INET, SOCK_STREAM, 0);
		if (fd < 0)
			die("socket");
		if (connect(fd, (struct sockaddr *)&sa, sizeof(sa)) == 0)
			break;
		if (errno != ECONNREFUSED || tries == 49)
			die("connect");
		close(fd);
		usleep(100000);
	}
	set_timeout(fd, 20);
	send_stream(fd, bytes, 1);
	if (shutdown(fd, SHUT_WR) < 0)
		die("shutdown");
	check_stream(fd, bytes, 2);
	if (close(fd) < 0)
		die("close");
	return 0;
}

static int udp_echo(const char *port)
{
	struct sockaddr_in sa = address(NULL, port), peer;
	unsigned char buf[CHUNK + 4];
	int fd = socket(AF_INET, SOCK_DGRAM, 0);

	if (fd < 0)
		die("socket");
	if (bind(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0)
		die("bind");
	set_timeout(fd, 30);
	for (;;) {
		socklen_t len = sizeof(peer);
		ssize_t r = recvfrom(fd, buf, sizeof(buf), 0, (struct sockaddr *)&peer, &len);

		if (r < 0)
			die("recvfrom");
		if (sendto(fd, buf, (size_t)r, 0, (struct sockaddr *)&peer, len) != r)
			die("sendto");
		if (r == 0)
			return 0;
	}
}

/* Send one datagram until its echo comes back; 1 if the echo matches. */
static int udp_exchange(int fd, const unsigned char *msg, size_t len)
{
	unsigned char back[CHUNK + 4];

	for (int tries = 0; tries < 20; tries++) {
		struct pollfd p = { .fd = fd, .events = POLLIN };
		ssize_t r;

		if (send(fd, msg, len, 0) != (ssize_t)len && errno != ECONNREFUSED)
			die("send");
		if (poll(&p, 1, 500) < 0)
			die("poll");
		if (!(p.revents & POLLIN))
			continue;
		r = recv(fd, back, sizeof(back), 0);
		if (r < 0 && errno == ECONNREFUSED)
			continue;
		if (r < 0)
			die("recv");
		if ((size_t)r == len && !memcmp(back, msg, len))
			return 1;
		if (r >= 4 && memcmp(back, msg, 4))
			continue;	/* a late echo of an earlier datagram */
		return 0;
	}
	fprintf(stderr, "xfer: no echo after 20 tries\n");
	exit(1);
}

static int udp_send(const char *addr, const char *port, unsigned long bytes)
{
	struct sockaddr_in sa = address(addr, port);
	unsigned char msg[CHUNK + 4];
	unsigned long done = 0;
	unsigned int seq = 0;
	int fd = socket(AF_INET, SOCK_DGRAM, 0);

	if (fd < 0)
		die("socket");
	if (connect(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0)
		die("connect");
	while (done < bytes) {
		size_t n = bytes - done < CHUNK ? bytes - done : CHUNK;

		memcpy(msg, &seq, 4);
		for (size_t i = 0; i < n; i++)
			msg[4 + i] = pattern(done + i, 3);
		if (!udp_exchange(fd, msg, n + 4)) {
			fprintf(stderr, "xfer: datagram %u came back different\n", seq);
			return 1;
		}
		done += n;
		seq++;
	}
	for (int i = 0; i < 3; i++)
		if (send(fd, msg, 0, 0) < 0 && errno != ECONNREFUSED)
			die("send end");
	return close(fd) < 0 ? 2 : 0;
}

int main(int argc, char **argv)
{
	if (argc == 4 && !strcmp(argv[1], "tcp-serve"))
		return tcp_serve(argv[2], strtoul(argv[3], NULL, 0));
	if (argc == 5 && !strcmp(argv[1], "tcp-send"))
		return tcp_send(argv[2], argv[3], strtoul(argv[4], NULL, 0));
	if (argc == 3 && !strcmp(argv[1], "udp-echo"))
		return udp_echo(argv[2]);
	if (argc == 5 && !strcmp(argv[1], "udp-send"))
		return udp_send(argv[2], argv[3], strtoul(argv[4], NULL, 0));
	fprintf(stderr, "usage: xfer tcp-serve|tcp-send|udp-echo|udp-send ...\n");
	return 2;
}
