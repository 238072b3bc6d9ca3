// SPDX-License-Identifier: GPL-2.0
/*
 * hdlcloop: a loopback modem for hdlcdrv.  It registers hdlcloop0 with
 * hdlcdrv and, from a timer, does what a modem interrupt does: arbitrate,
 * fill the transmit bit buffer, hand each 16-bit word to the receiver, and
 * run the HDLC receiver.  AX.25 frames sent on the interface come back
 * intact, through hdlcdrv_arbitrate(), hdlcdrv_transmitter() and
 * hdlcdrv_receiver().
 */
#include <linux/hdlcdrv.h>
#include <linux/module.h>
#include <linux/netdevice.h>
#include <linux/timer.h>

#define LOOP_BITRATE	9600
#define LOOP_WORDS	2048	/* words moved per tick at most */

struct hdlcloop {
	struct hdlcdrv_state hdrv;	/* first: hdlcdrv's private area */
	struct timer_list timer;
	struct net_device *dev;
};

static struct net_device *loop_dev;

static void hdlcloop_tick(struct timer_list *t)
{
	struct hdlcloop *lp = from_timer(lp, t, timer);
	struct hdlcdrv_state *s = &lp->hdrv;
	int i;

	for (i = 0; i < LOOP_WORDS; i++) {
		if (!hdlcdrv_ptt(s)) {
			hdlcdrv_arbitrate(lp->dev, s);
			if (!hdlcdrv_ptt(s))
				break;
		}
		hdlcdrv_transmitter(lp->dev, s);
		hdlcdrv_putbits(s, hdlcdrv_getbits(s));
		hdlcdrv_receiver(lp->dev, s);
	}
	mod_timer(&lp->timer, jiffies + 1);
}

static int hdlcloop_open(struct net_device *dev)
{
	struct hdlcloop *lp = netdev_priv(dev);

	lp->dev = dev;
	lp->hdrv.par.bitrate = LOOP_BITRATE;
	lp->hdrv.ch_params.fulldup = 1;
	lp->hdrv.ch_params.tx_delay = 1;
	timer_setup(&lp->timer, hdlcloop_tick, 0);
	mod_timer(&lp->timer, jiffies + 1);
	return 0;
}

static int hdlcloop_close(struct net_device *dev)
{
	struct hdlcloop *lp = netdev_priv(dev);

	del_timer_sync(&lp->timer);
	return 0;
}

static const struct hdlcdrv_ops hdlcloop_ops = {
	.drvname = "hdlcloop",
	.drvinfo = "hdlcdrv loopback test modem",
	.open = hdlcloop_open,
	.close = hdlcloop_close,
};

static int __init hdlcloop_init(void)
{
	struct net_device *dev;

	dev = hdlcdrv_register(&hdlcloop_ops, sizeof(struct hdlcloop), "hdlcloop0", 0, 0, 0);
	if (IS_ERR(dev))
		return PTR_ERR(dev);
	loop_dev = dev;
	return 0;
}

static void __exit hdlcloop_exit(void)
{
	hdlcdrv_unregister(loop_dev);
}

module_init(hdlcloop_init);
module_exit(hdlcloop_exit);
MODULE_DESCRIPTION("hdlcdrv loopback test modem");
MODULE_LICENSE("GPL");
