// SPDX-License-Identifier: GPL-2.0
#include <linux/bug.h>
#include <linux/errno.h>
#include <net/mac80211.h>

#define WIDGET_STA_MAGIC	0x57535441

struct widget_sta {
	u32 magic;
	u16 tid_mask;
};

struct widget_priv {
	struct ieee80211_hw *hw;
	struct widget_sta sta;
};

static void widget_init_sta(struct widget_sta *sta)
{
	sta->tid_mask = 0;
	sta->magic = WIDGET_STA_MAGIC;
}

static int widget_sta_add(struct ieee80211_hw *hw, struct ieee80211_vif *vif,
			  struct ieee80211_sta *sta)
{
	struct widget_priv *wp = hw->priv;

	widget_init_sta(&wp->sta);
	return 0;
}

static int widget_ampdu_action(struct ieee80211_hw *hw, struct ieee80211_vif *vif,
			       struct ieee80211_ampdu_params *params)
{
	struct widget_priv *wp = hw->priv;
	struct widget_sta *sta = &wp->sta;

	if (WARN_ON(sta->magic != WIDGET_STA_MAGIC))
		return -EIDRM;
	sta->tid_mask |= 1 << params->tid;
	return 0;
}

static const struct ieee80211_ops widget_ops = {
	.sta_add = widget_sta_add,
	.ampdu_action = widget_ampdu_action,
};
