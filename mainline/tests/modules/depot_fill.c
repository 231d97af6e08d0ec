// SPDX-License-Identifier: GPL-2.0
/*
 * Fill the stack depot to its bound and empty it again, for the guest
 * test 30-depot-full.sh of the 7.3 line, which boots a kernel of its own
 * with stack_depot_max_size=1M for it (never the kernel other tests use).
 *
 * At load: save refcounted traces of 16 frames that nothing else saves
 * until a save fails (the depot is full) or max_records were saved, then
 * put them all, wait for a grace period and save as many again: the depot
 * made room through eviction. Prints one line the test parses:
 *   depot_fill: saved N until full, put N, saved M again after eviction
 * and fails to load (-ENOSPC) if the depot never filled.
 */
#include <linux/module.h>
#include <linux/random.h>
#include <linux/rcupdate.h>
#include <linux/stackdepot.h>
#include <linux/vmalloc.h>

static unsigned int max_records = 100000;
module_param(max_records, uint, 0444);

#define FRAMES 16

static unsigned int fill(depot_stack_handle_t *handles, unsigned long salt)
{
	unsigned long entries[FRAMES];
	unsigned int n, i;

	for (n = 0; n < max_records; n++) {
		for (i = 0; i < FRAMES; i++)
			entries[i] = salt + (unsigned long)n * FRAMES + i;
		handles[n] = stack_depot_save_flags(entries, FRAMES, GFP_KERNEL,
						    STACK_DEPOT_FLAG_CAN_ALLOC |
						    STACK_DEPOT_FLAG_GET);
		if (!handles[n])
			break;
		if (n % 1024 == 0)
			cond_resched();
	}
	return n;
}

static void put_all(depot_stack_handle_t *handles, unsigned int n)
{
	while (n--)
		stack_depot_put(handles[n]);
}

static int __init depot_fill_init(void)
{
	depot_stack_handle_t *handles;
	unsigned int full, again;

	if (stack_depot_init())
		return -ENODEV;
	handles = vcalloc(max_records, sizeof(*handles));
	if (!handles)
		return -ENOMEM;

	full = fill(handles, get_random_long());
	put_all(handles, full);
	synchronize_rcu();
	again = fill(handles, get_random_long());
	put_all(handles, again);
	vfree(handles);

	pr_info("depot_fill: saved %u until full, put %u, saved %u again after eviction\n",
		full, full, again);
	return full < max_records ? 0 : -ENOSPC;
}
module_init(depot_fill_init);

static void __exit depot_fill_exit(void)
{
}
module_exit(depot_fill_exit);

MODULE_DESCRIPTION("Fill the stack depot to its bound and empty it again");
MODULE_LICENSE("GPL");
