// SPDX-License-Identifier: GPL-2.0
/*
 * Drives the KASAN stack ring from the guest tests and make bench-kasan.
 *
 * Writes to /sys/kernel/debug/kasan_ring_test:
 *   churn N  N kmalloc()/kfree() pairs, each from a call stack of its own:
 *            2N stack traces no earlier write saved.  The stacks differ in
 *            a chain of RING_DEPTH frames, each in one of two functions, so
 *            there are 2^RING_DEPTH of them; the path number goes on from
 *            one write to the next and wraps after that many pairs.
 *   uaf      reads an object after freeing it, from the functions
 *            kasan_ring_uaf_alloc() and kasan_ring_uaf_free(), whose names
 *            the report's alloc and free stacks must show.
 *   uaf N    the same with "churn N" between the free and the read (make
 *            demo: the report's stacks survive the churn while it stays
 *            within the ring).
 * Reading the file gives the number of pairs churned so far.
 */
#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uaccess.h>

#define RING_DEPTH	17

static struct dentry *ring_file;
static unsigned long ring_paths;	/* pairs churned so far */

static noinline void ring_step_a(unsigned long path, unsigned int depth);
static noinline void ring_step_b(unsigned int depth, unsigned long path);

static noinline void ring_leaf(void)
{
	void *ptr = kmalloc(32, GFP_KERNEL);

	OPTIMIZER_HIDE_VAR(ptr);
	kfree(ptr);
	barrier();
}

/*
 * One frame per bit of the path: ring_step_a() for a 1, ring_step_b() for
 * a 0.  The two take their arguments in a different order so that the
 * compiler cannot fold them into one function, and a barrier after each
 * call keeps it from becoming a tail call that would leave no frame.
 */
static __always_inline void ring_next(unsigned long path, unsigned int depth)
{
	if (!depth)
		ring_leaf();
	else if (path & 1)
		ring_step_a(path >> 1, depth - 1);
	else
		ring_step_b(depth - 1, path >> 1);
	barrier();
}

static noinline void ring_step_a(unsigned long path, unsigned int depth)
{
	ring_next(path, depth);
}

static noinline void ring_step_b(unsigned int depth, unsigned long path)
{
	ring_next(path, depth);
}

static void ring_churn(unsigned long pairs)
{
	unsigned long i;

	for (i = 0; i < pairs; i++) {
		ring_next(ring_paths++ & (BIT(RING_DEPTH) - 1), RING_DEPTH);
		cond_resched();
	}
}

/*
 * The object comes from a kmalloc cache no churn pair uses (arm64's
 * kmalloc caches start at 128 bytes, so the churn's kmalloc(32) is in
 * kmalloc-128): a churn pair that reused its address with the same tag
 * would be the ring entry a report finds, and the report would print that
 * pair's stacks.
 */
static noinline void *kasan_ring_uaf_alloc(void)
{
	void *ptr = kmalloc(512, GFP_KERNEL);

	OPTIMIZER_HIDE_VAR(ptr);
	return ptr;
}

static noinline void kasan_ring_uaf_free(void *ptr)
{
	kfree(ptr);
	barrier();
}

static void ring_uaf(unsigned long churn)
{
	char *ptr = kasan_ring_uaf_alloc();

	if (!ptr)
		return;
	kasan_ring_uaf_free(ptr);
	ring_churn(churn);
	pr_info("kasan_ring_test: reading freed object %px\n", ptr);
	READ_ONCE(*(volatile char *)ptr);
}

static ssize_t ring_write(struct file *file, const char __user *ubuf,
			  size_t count, loff_t *ppos)
{
	char buf[32], *arg;
	unsigned long n;

	if (*ppos || count >= sizeof(buf))
		return -EINVAL;
	if (copy_from_user(buf, ubuf, count))
		return -EFAULT;
	buf[count] = '\0';
	arg = strim(buf);

	if (!strncmp(arg, "churn ", 6)) {
		if (kstrtoul(arg + 6, 10, &n) || !n)
			return -EINVAL;
		ring_churn(n);
	} else if (!strcmp(arg, "uaf")) {
		ring_uaf(0);
	} else if (!strncmp(arg, "uaf ", 4)) {
		if (kstrtoul(arg + 4, 10, &n))
			return -EINVAL;
		ring_uaf(n);
	} else {
		return -EINVAL;
	}
	*ppos += count;
	return count;
}

static ssize_t ring_read(struct file *file, char __user *ubuf, size_t count,
			 loff_t *ppos)
{
	char buf[32];
	int len = scnprintf(buf, sizeof(buf), "%lu\n", ring_paths);

	return simple_read_from_buffer(ubuf, count, ppos, buf, len);
}

static const struct file_operations ring_fops = {
	.owner = THIS_MODULE,
	.read = ring_read,
	.write = ring_write,
	.llseek = default_llseek,
};

static int __init ring_init(void)
{
	ring_file = debugfs_create_file("kasan_ring_test", 0600, NULL, NULL,
					&ring_fops);
	return 0;
}

static void __exit ring_exit(void)
{
	debugfs_remove(ring_file);
}

module_init(ring_init);
module_exit(ring_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Drives the KASAN stack ring with many distinct stacks");
