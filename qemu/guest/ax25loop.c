// SPDX-License-Identifier: GPL-2.0
/*
 * ax25loop IFNAME COUNT: bring an AX.25 interface up, send COUNT UI frames
 * of growing size through a packet socket, and check that each comes back
 * byte for byte (the interface's modem loops its bit stream back); it stops
 * at the first frame that does not.
 */
#include <arpa/inet.h>
#include <linux/if_ether.h>
#include <linux/if_packet.h>
#include <net/if.h>
#include <poll.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

#include "ktap.h"

#define MAXFRAME 320

static void set_up(const char *ifname, int up)
{
	struct ifreq ifr = { 0 };
	int fd = socket(AF_INET, SOCK_DGRAM, 0);

	if (fd < 0)
		die("socket AF_INET");

	strncpy(ifr.ifr_name, ifname, IFNAMSIZ - 1);
	if (ioctl(fd, SIOCGIFFLAGS, &ifr) < 0)
		die("SIOCGIFFLAGS");
	if (up)
		ifr.ifr_flags |= IFF_UP;
	else
		ifr.ifr_flags &= ~IFF_UP;
	if (ioctl(fd, SIOCSIFFLAGS, &ifr) < 0)
		die("SIOCSIFFLAGS");
	if (close(fd) < 0)
		die("close");
}

/* A KISS data byte, then an AX.25 UI frame from TEST-0 to QST-0. */
static size_t make_frame(unsigned char *f, int n)
{
	static const char dst[] = "QST   ", src[] = "TEST  ";
	size_t len = 0, payload = 16 + (size_t)n * 11 % 240;

	f[len++] = 0;
	for (int i = 0; i < 6; i++)
		f[len++] = (unsigned char)(dst[i] << 1);
	f[len++] = 0x60;
	for (int i = 0; i < 6; i++)
		f[len++] = (unsigned char)(src[i] << 1);
	f[len++] = 0x61;
	f[len++] = 0x03;	/* UI */
	f[len++] = 0xf0;	/* no layer 3 */
	for (size_t i = 0; i < payload; i++)
		f[len++] = (unsigned char)(n * 31 + i);
	return len;
}

/* 1 if the frame comes back within 5 s; frames the host sent are skipped. */
static int await_frame(int fd, const unsigned char *want, size_t len)
{
	unsigned char buf[MAXFRAME + 64];

	for (;;) {
		struct pollfd p = { .fd = fd, .events = POLLIN };
		struct sockaddr_ll from;
		socklen_t flen = sizeof(from);
		ssize_t r;
		int n = poll(&p, 1, 5000);

		if (n < 0)
			die("poll");
		if (n == 0)
			return 0;
		r = recvfrom(fd, buf, sizeof(buf), 0, (struct sockaddr *)&from, &flen);
		if (r < 0)
			die("recvfrom");
		if (from.sll_pkttype == PACKET_OUTGOING)
			continue;
		if ((size_t)r == len && !memcmp(buf, want, len))
			return 1;
		ktap_diag("frame of %zd bytes differs from the %zu sent", r, len);
		return 0;
	}
}

int main(int argc, char **argv)
{
	struct sockaddr_ll sa = { .sll_family = AF_PACKET, .sll_protocol = htons(ETH_P_AX25) };
	unsigned char frame[MAXFRAME];
	int fd, count, back = 0;

	if (argc != 3)
		return 2;
	count = atoi(argv[2]);
	ktap_plan(2);
	fd = socket(AF_PACKET, SOCK_RAW, htons(ETH_P_AX25));
	if (fd < 0)
		die("socket AF_PACKET");
	sa.sll_ifindex = (int)if_nametoindex(argv[1]);
	if (!sa.sll_ifindex)
		die(argv[1]);
	set_up(argv[1], 1);	/* first: binding to a down interface leaves ENETDOWN pending */
	if (bind(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0)
		die("bind");
	for (int i = 0; i < count && back == i; i++) {
		size_t len = make_frame(frame, i);

		if (sendto(fd, frame, len, 0, (struct sockaddr *)&sa, sizeof(sa)) != (ssize_t)len)
			die("sendto");
		back += await_frame(fd, frame, len);
	}
	ktap_result(back == count, "%d of %d AX.25 frames came back intact on %s",
		    back, count, argv[1]);
	set_up(argv[1], 0);
	ktap_result(1, "%s goes down", argv[1]);
	if (close(fd) < 0)
		die("close");
	return ktap_exit();
}
