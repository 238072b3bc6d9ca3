// SPDX-License-Identifier: GPL-2.0
/*
 * yamcfg: the YAM private configuration ioctl (SIOCDEVPRIVATE with
 * SIOCYAMGCFG / SIOCYAMSCFG) reads and sets parameters, and opening a port
 * with no YAM modem behind it fails with an error and leaves it down.
 */
#include <net/if.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

#include "ktap.h"

/* From include/linux/yam.h, which is not exported to user space. */
#define SIOCYAMSCFG	1
#define SIOCYAMGCFG	2
#define YAM_IOBASE	(1 << 0)
#define YAM_IRQ		(1 << 1)
#define YAM_TXDELAY	(1 << 5)
#define YAM_PERSIST	(1 << 7)

struct yamcfg {
	unsigned int mask, iobase, irq, bitrate, baudrate, txdelay, txtail;
	unsigned int persist, slottime, mode, holddly;
};

struct yamdrv_ioctl_cfg {
	int cmd;
	struct yamcfg cfg;
};

static int yam_ioctl(int fd, const char *ifname, struct yamdrv_ioctl_cfg *yi)
{
	struct ifreq ifr = { 0 };

	strncpy(ifr.ifr_name, ifname, IFNAMSIZ - 1);
	ifr.ifr_data = (void *)yi;
	return ioctl(fd, SIOCDEVPRIVATE, &ifr);
}

static int get_cfg(int fd, const char *ifname, struct yamcfg *cfg)
{
	struct yamdrv_ioctl_cfg yi = { .cmd = SIOCYAMGCFG };

	if (yam_ioctl(fd, ifname, &yi) < 0) {
		ktap_diag("SIOCYAMGCFG %s: %s", ifname, strerror(errno));
		return 0;
	}
	*cfg = yi.cfg;
	return 1;
}

/* Set where the port is and two channel parameters; all read back. */
static int set_get(int fd, const char *ifname, unsigned int iobase, unsigned int irq)
{
	struct yamdrv_ioctl_cfg yi = { .cmd = SIOCYAMSCFG };
	struct yamcfg back;

	yi.cfg.mask = YAM_IOBASE | YAM_IRQ | YAM_TXDELAY | YAM_PERSIST;
	yi.cfg.iobase = iobase;
	yi.cfg.irq = irq;
	yi.cfg.txdelay = 123;
	yi.cfg.persist = 77;
	if (yam_ioctl(fd, ifname, &yi) < 0) {
		ktap_diag("SIOCYAMSCFG %s: %s", ifname, strerror(errno));
		return 0;
	}
	if (!get_cfg(fd, ifname, &back))
		return 0;
	if (back.iobase != iobase || back.irq != irq || back.txdelay != 123 ||
	    back.persist != 77) {
		ktap_diag("%s read back iobase 0x%x irq %u txdelay %u persist %u", ifname,
			  back.iobase, back.irq, back.txdelay, back.persist);
		return 0;
	}
	return 1;
}

/* Opening must fail (no modem, or the port is taken) and leave it down. */
static int open_fails(int fd, const char *ifname)
{
	struct ifreq ifr = { 0 };
	int err;

	strncpy(ifr.ifr_name, ifname, IFNAMSIZ - 1);
	if (ioctl(fd, SIOCGIFFLAGS, &ifr) < 0)
		die("SIOCGIFFLAGS");
	ifr.ifr_flags |= IFF_UP;
	if (ioctl(fd, SIOCSIFFLAGS, &ifr) == 0) {
		ktap_diag("%s came up with no modem", ifname);
		return 0;
	}
	err = errno;
	if (ioctl(fd, SIOCGIFFLAGS, &ifr) < 0)
		die("SIOCGIFFLAGS");
	ktap_diag("%s: open failed: %s", ifname, strerror(err));
	return !(ifr.ifr_flags & IFF_UP);
}

int main(int argc, char **argv)
{
	struct yamcfg cfg;
	int fd, ok;

	if (argc != 3)
		return 2;
	fd = socket(AF_INET, SOCK_DGRAM, 0);
	if (fd < 0)
		die("socket");
	ktap_plan(5);
	ok = get_cfg(fd, argv[1], &cfg);
	if (ok)
		ktap_diag("%s: iobase 0x%x irq %u bitrate %u", argv[1], cfg.iobase, cfg.irq,
			  cfg.bitrate);
	ktap_result(ok, "SIOCYAMGCFG reads the configuration of %s", argv[1]);
	/* yam0 on the console's UART (taken), yam3 where nothing answers. */
	ktap_result(set_get(fd, argv[1], 0x3f8, 4), "SIOCYAMSCFG sets and reads back %s", argv[1]);
	ktap_result(set_get(fd, argv[2], 0x2e8, 5), "SIOCYAMSCFG sets and reads back %s", argv[2]);
	ktap_result(open_fails(fd, argv[1]), "opening %s on a port in use fails cleanly", argv[1]);
	ktap_result(open_fails(fd, argv[2]), "opening %s with no modem fails cleanly", argv[2]);
	if (close(fd) < 0)
		die("close");
	return ktap_exit();
}
