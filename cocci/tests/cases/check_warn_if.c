/* demagic: remove FIFO_MAGIC struct=fifo member=magic */
struct fifo {
	struct device *dev;
	u32 magic;
#define FIFO_MAGIC		0x46494630 /* "FIF0" */
	bool broken;
};

int fifo_submit(struct device *dev)
{
	struct fifo *f;

	if (!dev)
		return -ENODEV;
	f = dev_get_drvdata(dev);
	if (!f)
		return -ENODEV;
	if (WARN_ON_ONCE(f->magic != FIFO_MAGIC))
		return -ENODEV;
	if (WARN_ON(f->magic != FIFO_MAGIC)) {
		pr_err("fifo: bad magic\n");
		return -EINVAL;
	}
	return f->broken ? -EIO : 0;
}

int fifo_probe(struct device *dev, struct fifo *f)
{
	f->magic = FIFO_MAGIC;
	f->dev = dev;
	return 0;
}
