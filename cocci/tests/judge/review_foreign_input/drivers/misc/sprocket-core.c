// SPDX-License-Identifier: GPL-2.0
#include <linux/bug.h>
#include <linux/device.h>
#include <linux/module.h>
#include <linux/platform_device.h>

#define SPROCKET_MAGIC	0x53505243

struct sprocket {
	u32 magic;
	unsigned int rpm;
};

static int sprocket_probe(struct platform_device *pdev)
{
	struct sprocket *s = devm_kzalloc(&pdev->dev, sizeof(*s), GFP_KERNEL);

	if (!s)
		return -ENOMEM;
	s->magic = SPROCKET_MAGIC;
	platform_set_drvdata(pdev, s);
	return 0;
}

int sprocket_set_speed(struct device *dev, unsigned int rpm)
{
	struct sprocket *s = dev_get_drvdata(dev);

	if (WARN_ON_ONCE(s->magic != SPROCKET_MAGIC))
		return -EINVAL;
	s->rpm = rpm;
	return 0;
}
EXPORT_SYMBOL_GPL(sprocket_set_speed);
