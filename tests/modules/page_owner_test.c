// SPDX-License-Identifier: GPL-2.0
/*
 * Allocations from known call sites, for the guest tests of page_owner's
 * per-stack counts (tests/guest/30-page-owner-stacks.sh).
 *
 * Each kind of allocation comes from its own noinline function, whose name
 * appears in the allocating stack that page_owner_stacks prints.  Commands
 * written to /sys/kernel/debug/page_owner_test:
 *
 *   pages N ORDER   N blocks of 2^ORDER pages (po_test_pages)
 *   exact BYTES     alloc_pages_exact(BYTES) (po_test_exact)
 *   split ORDER     one block of 2^ORDER pages, split_page() (po_test_split)
 *   free N          free the N blocks or pages held last
 *
 * Pages from "exact" and "split" are held, and freed, one by one.  Reading
 * the file shows how many blocks and base pages are held.  Unloading the
 * module frees everything.
 */
#include <linux/debugfs.h>
#include <linux/gfp.h>
#include <linux/kernel.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/slab.h>
#include <linux/uaccess.h>

#define MAX_HELD	4096

struct held {
	struct page *page;
	unsigned int order;
};

static struct held *held;
static unsigned int nr_held;
static DEFINE_MUTEX(held_lock);
static struct dentry *file;

static int hold(struct page *page, unsigned int order)
{
	if (nr_held == MAX_HELD)
		return -ENOSPC;
	held[nr_held].page = page;
	held[nr_held].order = order;
	nr_held++;
	return 0;
}

static void free_held(unsigned int n)
{
	while (n-- && nr_held) {
		nr_held--;
		__free_pages(held[nr_held].page, held[nr_held].order);
	}
}

static noinline int po_test_pages(unsigned int n, unsigned int order)
{
	struct page *page;

	while (n--) {
		page = alloc_pages(GFP_KERNEL, order);
		if (!page)
			return -ENOMEM;
		if (hold(page, order)) {
			__free_pages(page, order);
			return -ENOSPC;
		}
	}
	return 0;
}

static noinline int po_test_exact(size_t size)
{
	unsigned long nr = PAGE_ALIGN(size) >> PAGE_SHIFT, i;
	void *addr;

	if (nr_held + nr > MAX_HELD)
		return -ENOSPC;
	addr = alloc_pages_exact(size, GFP_KERNEL);
	if (!addr)
		return -ENOMEM;
	for (i = 0; i < nr; i++)
		hold(virt_to_page(addr + i * PAGE_SIZE), 0);
	return 0;
}

static noinline int po_test_split(unsigned int order)
{
	struct page *page;
	unsigned long i;

	if (nr_held + (1UL << order) > MAX_HELD)
		return -ENOSPC;
	page = alloc_pages(GFP_KERNEL, order);
	if (!page)
		return -ENOMEM;
	split_page(page, order);
	for (i = 0; i < (1UL << order); i++)
		hold(page + i, 0);
	return 0;
}

static ssize_t ctl_write(struct file *f, const char __user *ubuf,
			 size_t count, loff_t *ppos)
{
	unsigned int a, b;
	char buf[64];
	int ret;

	if (count >= sizeof(buf))
		return -EINVAL;
	if (copy_from_user(buf, ubuf, count))
		return -EFAULT;
	buf[count] = '\0';

	mutex_lock(&held_lock);
	if (sscanf(buf, "pages %u %u", &a, &b) == 2 && b < MAX_ORDER)
		ret = po_test_pages(a, b);
	else if (sscanf(buf, "exact %u", &a) == 1 && a)
		ret = po_test_exact(a);
	else if (sscanf(buf, "split %u", &a) == 1 && a < MAX_ORDER)
		ret = po_test_split(a);
	else if (sscanf(buf, "free %u", &a) == 1)
		ret = 0, free_held(a);
	else
		ret = -EINVAL;
	mutex_unlock(&held_lock);
	return ret ? ret : count;
}

static ssize_t ctl_read(struct file *f, char __user *ubuf, size_t count,
			loff_t *ppos)
{
	unsigned long pages = 0;
	unsigned int i, n;
	char buf[64];
	int len;

	mutex_lock(&held_lock);
	n = nr_held;
	for (i = 0; i < n; i++)
		pages += 1UL << held[i].order;
	mutex_unlock(&held_lock);
	len = scnprintf(buf, sizeof(buf), "held %u pages %lu\n", n, pages);
	return simple_read_from_buffer(ubuf, count, ppos, buf, len);
}

static const struct file_operations ctl_fops = {
	.owner	= THIS_MODULE,
	.read	= ctl_read,
	.write	= ctl_write,
	.llseek	= default_llseek,
};

static int __init po_test_init(void)
{
	held = kcalloc(MAX_HELD, sizeof(*held), GFP_KERNEL);
	if (!held)
		return -ENOMEM;
	file = debugfs_create_file("page_owner_test", 0600, NULL, NULL,
				   &ctl_fops);
	return 0;
}

static void __exit po_test_exit(void)
{
	debugfs_remove(file);
	free_held(MAX_HELD);
	kfree(held);
}

module_init(po_test_init);
module_exit(po_test_exit);
MODULE_DESCRIPTION("Allocations from known stacks for page_owner tests");
MODULE_LICENSE("GPL");
