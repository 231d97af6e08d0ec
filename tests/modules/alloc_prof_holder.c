// SPDX-License-Identifier: GPL-2.0
/*
 * Holds pages for the guest tests of memory allocation profiling
 * (tests/guest/50-alloc-profiling.sh).
 *
 * alloc_prof_holder_keep() takes pages that another module allocated, so
 * that this module frees them, and that module can be unloaded while they
 * are still allocated.  /sys/kernel/debug/alloc_prof_holder reads as the
 * number of allocations held; writing "free" to it frees them all.
 * Unloading the module frees whatever is left.
 *
 * The pages themselves make the list (page->lru of the first page, the
 * order in page->private): holding a page allocates nothing.
 */
#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/gfp.h>
#include <linux/kernel.h>
#include <linux/list.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/spinlock.h>
#include <linux/string.h>
#include <linux/uaccess.h>

#include "alloc_prof_holder.h"

static LIST_HEAD(held);
static unsigned long nr_held;
static DEFINE_SPINLOCK(held_lock);
static struct dentry *file;

/**
 * alloc_prof_holder_keep() - hold an allocation until told to free it
 * @page: the first page of a block from alloc_pages(), not compound
 * @order: the order it was allocated with
 *
 * The holder owns the block from now on and frees it with __free_pages().
 *
 * Context: Any context.
 */
void alloc_prof_holder_keep(struct page *page, unsigned int order)
{
	unsigned long flags;

	set_page_private(page, order);
	spin_lock_irqsave(&held_lock, flags);
	list_add_tail(&page->lru, &held);
	nr_held++;
	spin_unlock_irqrestore(&held_lock, flags);
}
EXPORT_SYMBOL_GPL(alloc_prof_holder_keep);

/* Free every block held; the pages are freed outside the lock. */
static void free_held(void)
{
	struct page *page;
	unsigned int order;
	unsigned long flags;
	LIST_HEAD(list);

	spin_lock_irqsave(&held_lock, flags);
	list_splice_init(&held, &list);
	nr_held = 0;
	spin_unlock_irqrestore(&held_lock, flags);

	while (!list_empty(&list)) {
		page = list_first_entry(&list, struct page, lru);
		list_del(&page->lru);
		order = page_private(page);
		set_page_private(page, 0);
		__free_pages(page, order);
	}
}

static ssize_t holder_read(struct file *f, char __user *ubuf, size_t count,
			   loff_t *ppos)
{
	unsigned long flags, n;
	char buf[32];
	int len;

	spin_lock_irqsave(&held_lock, flags);
	n = nr_held;
	spin_unlock_irqrestore(&held_lock, flags);
	len = scnprintf(buf, sizeof(buf), "%lu\n", n);
	return simple_read_from_buffer(ubuf, count, ppos, buf, len);
}

static ssize_t holder_write(struct file *f, const char __user *ubuf,
			    size_t count, loff_t *ppos)
{
	char buf[16];

	if (count >= sizeof(buf))
		return -EINVAL;
	if (copy_from_user(buf, ubuf, count))
		return -EFAULT;
	buf[count] = '\0';
	if (!sysfs_streq(buf, "free"))
		return -EINVAL;
	free_held();
	return count;
}

static const struct file_operations holder_fops = {
	.owner	= THIS_MODULE,
	.read	= holder_read,
	.write	= holder_write,
	.llseek	= default_llseek,
};

static int __init alloc_prof_holder_init(void)
{
	file = debugfs_create_file("alloc_prof_holder", 0600, NULL, NULL,
				   &holder_fops);
	return 0;
}

static void __exit alloc_prof_holder_exit(void)
{
	debugfs_remove(file);
	free_held();
}

module_init(alloc_prof_holder_init);
module_exit(alloc_prof_holder_exit);
MODULE_DESCRIPTION("Holds pages other modules allocated, for allocation profiling tests");
MODULE_LICENSE("GPL");
