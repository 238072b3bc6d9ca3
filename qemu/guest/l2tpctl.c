// SPDX-License-Identifier: GPL-2.0
/*
 * l2tpctl: drive the kernel's L2TP code from the guest, with no iproute2.
 *
 *   l2tpctl ppp
 *	An L2TPv2 tunnel and session over UDP on the loopback, made the way
 *	PPP daemons make them (PPPoL2TP sockets connected with the tunnel's
 *	UDP socket); the session socket answers PPPIOCGL2TPSTATS, PPPIOCGMRU
 *	and PPPIOCSMRU (pppol2tp_ioctl, through pppol2tp_sock_to_session).
 *   l2tpctl tunnel LOCAL_IP PEER_IP CONN_ID PEER_CONN_ID
 *	An L2TPv3 tunnel over UDP port 1701, made by the kernel (generic
 *	netlink, family "l2tp").
 *   l2tpctl session CONN_ID SESSION_ID PEER_SESSION_ID IFNAME
 *	An Ethernet pseudowire in that tunnel: the interface IFNAME.
 *
 * Exit status 0 when everything worked; what failed is printed.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <linux/genetlink.h>
#include <linux/if_pppol2tp.h>
#include <linux/if_pppox.h>
#include <linux/l2tp.h>
#include <linux/netlink.h>
#include <linux/ppp-ioctl.h>
#include <netinet/in.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

#define L2TP_PORT 1701

static int fail(const char *what)
{
	fprintf(stderr, "l2tpctl: %s: %s\n", what, strerror(errno));
	return 1;
}

/* PPPoL2TP: the session socket of an L2TPv2 tunnel on the loopback. */
static int ppp(void)
{
	struct sockaddr_in self = { .sin_family = AF_INET, .sin_port = htons(L2TP_PORT),
				    .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	union {		/* sockaddr_pppol2tp is packed: connect() gets the storage */
		struct sockaddr_pppol2tp p;
		struct sockaddr_storage ss;
	} u;
	struct pppol2tp_ioc_stats stats;
	int udp, tun, ses, mru = 0;

	udp = socket(AF_INET, SOCK_DGRAM, 0);
	if (udp < 0 || bind(udp, (struct sockaddr *)&self, sizeof(self)) ||
	    connect(udp, (struct sockaddr *)&self, sizeof(self)))
		return fail("UDP socket on 127.0.0.1:1701");
	memset(&u, 0, sizeof(u));
	u.p.sa_family = AF_PPPOX;
	u.p.sa_protocol = PX_PROTO_OL2TP;
	u.p.pppol2tp.fd = udp;
	u.p.pppol2tp.addr = self;
	u.p.pppol2tp.s_tunnel = 7;
	u.p.pppol2tp.d_tunnel = 7;
	tun = socket(AF_PPPOX, SOCK_DGRAM, PX_PROTO_OL2TP);
	if (tun < 0 || connect(tun, (struct sockaddr *)&u.ss, sizeof(u.p)))
		return fail("PPPoL2TP tunnel socket");
	u.p.pppol2tp.s_session = 9;
	u.p.pppol2tp.d_session = 9;
	ses = socket(AF_PPPOX, SOCK_DGRAM, PX_PROTO_OL2TP);
	if (ses < 0 || connect(ses, (struct sockaddr *)&u.ss, sizeof(u.p)))
		return fail("PPPoL2TP session socket");
	memset(&stats, 0, sizeof(stats));
	if (ioctl(ses, PPPIOCGL2TPSTATS, &stats))
		return fail("PPPIOCGL2TPSTATS on the session");
	if (stats.tunnel_id != 7 || stats.session_id != 9) {
		fprintf(stderr, "l2tpctl: stats for tunnel %u session %u, not 7 and 9\n",
			stats.tunnel_id, stats.session_id);
		return 1;
	}
	if (ioctl(ses, PPPIOCGMRU, &mru))
		return fail("PPPIOCGMRU on the session");
	mru = 1400;
	if (ioctl(ses, PPPIOCSMRU, &mru))
		return fail("PPPIOCSMRU on the session");
	/* pppol2tp accepts an MRU and ignores it (reads give 0); older kernels kept it. */
	mru = -1;
	if (ioctl(ses, PPPIOCGMRU, &mru))
		return fail("PPPIOCGMRU after PPPIOCSMRU");
	if (mru != 0 && mru != 1400) {
		fprintf(stderr, "l2tpctl: MRU reads back as %d, neither 1400 nor 0\n", mru);
		return 1;
	}
	close(ses);
	close(tun);
	close(udp);
	printf("tunnel 7 session 9: stats and MRU answer\n");
	return 0;
}

struct msg {
	struct nlmsghdr nl;
	struct genlmsghdr genl;
	char data[512];
};

static void put(struct msg *m, uint16_t type, const void *value, uint16_t len)
{
	struct nlattr *a = (struct nlattr *)((char *)m + NLMSG_ALIGN(m->nl.nlmsg_len));

	a->nla_type = type;
	a->nla_len = NLA_HDRLEN + len;
	memcpy((char *)a + NLA_HDRLEN, value, len);
	m->nl.nlmsg_len = NLMSG_ALIGN(m->nl.nlmsg_len) + NLA_ALIGN(a->nla_len);
}

static void begin(struct msg *m, uint16_t family, uint8_t cmd)
{
	memset(m, 0, sizeof(*m));
	m->nl.nlmsg_len = NLMSG_LENGTH(GENL_HDRLEN);
	m->nl.nlmsg_type = family;
	m->nl.nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK;
	m->genl.cmd = cmd;
	m->genl.version = 1;
}

/* Send m, read the answer into reply; 0 or the negative errno of the ack. */
static int talk(int fd, struct msg *m, char *reply, size_t size)
{
	struct nlmsghdr *h = (struct nlmsghdr *)reply;
	ssize_t n;

	if (send(fd, m, m->nl.nlmsg_len, 0) < 0)
		return -errno;
	n = recv(fd, reply, size, 0);
	if (n < (ssize_t)sizeof(*h))
		return n < 0 ? -errno : -EIO;
	if (h->nlmsg_type == NLMSG_ERROR)
		return ((struct nlmsgerr *)NLMSG_DATA(h))->error;
	return 0;
}

/* The id of the generic netlink family "l2tp". */
static int family(int fd)
{
	char reply[4096];
	struct msg m;
	struct nlattr *a;
	int len, err;

	begin(&m, GENL_ID_CTRL, CTRL_CMD_GETFAMILY);
	m.nl.nlmsg_flags = NLM_F_REQUEST;
	put(&m, CTRL_ATTR_FAMILY_NAME, L2TP_GENL_NAME, sizeof(L2TP_GENL_NAME));
	err = talk(fd, &m, reply, sizeof(reply));
	if (err)
		return err;
	len = ((struct nlmsghdr *)reply)->nlmsg_len - NLMSG_LENGTH(GENL_HDRLEN);
	a = (struct nlattr *)(reply + NLMSG_LENGTH(GENL_HDRLEN));
	for (; len >= NLA_HDRLEN; len -= NLA_ALIGN(a->nla_len),
	     a = (struct nlattr *)((char *)a + NLA_ALIGN(a->nla_len)))
		if (a->nla_type == CTRL_ATTR_FAMILY_ID)
			return *(uint16_t *)((char *)a + NLA_HDRLEN);
	return -ENOENT;
}

static int genl(int argc, char **argv, int tunnel)
{
	char reply[4096];
	struct msg m;
	int fd, id, err;

	fd = socket(AF_NETLINK, SOCK_RAW, NETLINK_GENERIC);
	if (fd < 0)
		return fail("generic netlink socket");
	id = family(fd);
	if (id < 0) {
		errno = -id;
		return fail("generic netlink family l2tp (is l2tp_netlink loaded?)");
	}
	if (tunnel) {
		uint32_t conn = strtoul(argv[2], NULL, 0), peer = strtoul(argv[3], NULL, 0);
		uint32_t saddr = inet_addr(argv[0]), daddr = inet_addr(argv[1]);
		uint16_t encap = L2TP_ENCAPTYPE_UDP, port = L2TP_PORT;
		uint8_t version = 3;

		begin(&m, id, L2TP_CMD_TUNNEL_CREATE);
		put(&m, L2TP_ATTR_CONN_ID, &conn, 4);
		put(&m, L2TP_ATTR_PEER_CONN_ID, &peer, 4);
		put(&m, L2TP_ATTR_PROTO_VERSION, &version, 1);
		put(&m, L2TP_ATTR_ENCAP_TYPE, &encap, 2);
		put(&m, L2TP_ATTR_IP_SADDR, &saddr, 4);
		put(&m, L2TP_ATTR_IP_DADDR, &daddr, 4);
		put(&m, L2TP_ATTR_UDP_SPORT, &port, 2);
		put(&m, L2TP_ATTR_UDP_DPORT, &port, 2);
	} else {
		uint32_t conn = strtoul(argv[0], NULL, 0), sid = strtoul(argv[1], NULL, 0);
		uint32_t peer = strtoul(argv[2], NULL, 0);
		uint16_t pw = L2TP_PWTYPE_ETH;

		begin(&m, id, L2TP_CMD_SESSION_CREATE);
		put(&m, L2TP_ATTR_CONN_ID, &conn, 4);
		put(&m, L2TP_ATTR_SESSION_ID, &sid, 4);
		put(&m, L2TP_ATTR_PEER_SESSION_ID, &peer, 4);
		put(&m, L2TP_ATTR_PW_TYPE, &pw, 2);
		put(&m, L2TP_ATTR_IFNAME, argv[3], strlen(argv[3]) + 1);
	}
	(void)argc;
	err = talk(fd, &m, reply, sizeof(reply));
	close(fd);
	if (err) {
		errno = -err;
		return fail(tunnel ? "L2TP_CMD_TUNNEL_CREATE" : "L2TP_CMD_SESSION_CREATE");
	}
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 2 && !strcmp(argv[1], "ppp"))
		return ppp();
	if (argc == 6 && !strcmp(argv[1], "tunnel"))
		return genl(argc - 2, argv + 2, 1);
	if (argc == 6 && !strcmp(argv[1], "session"))
		return genl(argc - 2, argv + 2, 0);
	fprintf(stderr, "usage: l2tpctl ppp | tunnel LOCAL PEER CONN PEER_CONN |"
		" session CONN SID PEER_SID IFNAME\n");
	return 2;
}
