// SPDX-License-Identifier: GPL-2.0
/*
 * Allocations from one known call site, for the guest tests of memory
 * allocation profiling (tests/guest/50-alloc-profiling.sh).
 *
 * At load, alloc_prof_test_alloc() makes nr allocations of 2^order pages
 * with alloc_pages() and hands each to alloc_prof_holder, which frees them
 * when told to: the module can be unloaded while its allocations are live,
 * and /proc/allocations keeps listing them under "module:alloc_prof_test
 * func:alloc_prof_test_alloc" until they are freed.
 *
 * With strdups=N, alloc_prof_test_strdup() also duplicates a string N
 * times with kstrdup(), freed at unload: the library helper's allocations
 * must be charged to this module's line, not to mm/util.c.
 *
 * Writing N to /sys/module/alloc_prof_test/parameters/percpu allocates N
 * per-CPU areas of 4 KiB (at most 256 live), 0 frees them (so does the
 * unload): the per-CPU tag stores the guest test makes fail with fault
 * injection.
 *
 *   insmod alloc_prof_test.ko [nr=N] [order=K] [strdups=N]
 */
#include <linux/alloc_tag.h>
#include <linux/gfp.h>
#include <linux/kernel.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/percpu.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/sysfs.h>

#include "alloc_prof_holder.h"

static unsigned int nr = 16;
module_param(nr, uint, 0444);
MODULE_PARM_DESC(nr, "number of allocations made at load (default 16)");

static unsigned int order;
module_param(order, uint, 0444);
MODULE_PARM_DESC(order, "order of each allocation (default 0)");

#define MAX_STRDUPS	64

static unsigned int strdups;
module_param(strdups, uint, 0444);
MODULE_PARM_DESC(strdups, "number of kstrdup() calls at load, freed at unload (max 64)");

static char *strings[MAX_STRDUPS];

/* Read-only: whether allocation profiling was on when the module loaded. */
static bool profiling;
module_param(profiling, bool, 0444);
MODULE_PARM_DESC(profiling, "set at load: allocation profiling is on");

/*
 * Read-only: whether the module's tags got counters when it loaded.
 * Counters are allocated for a module only while profiling is on
 * (alloc_tag_module_load()): none with nomem_profiling, none after a
 * failed alloc_tag_init().
 */
static bool counters;
module_param(counters, bool, 0444);
MODULE_PARM_DESC(counters, "set at load: the module's allocation tags have counters");

/*
 * Read-only: the page tag index of a tag of this module, 0 where page
 * tags live in page_ext or no index was free.  A module loaded again
 * after an unload with nothing live gets the indices it freed.
 */
static unsigned int page_idx;
module_param(page_idx, uint, 0444);
MODULE_PARM_DESC(page_idx, "set at load: the page tag index of one of the module's tags");

/*
 * A tag of this module, looked at but never charged: whether it has
 * counters, and its page tag index.
 */
static noinline bool alloc_prof_test_has_counters(unsigned int *idx)
{
	DEFINE_ALLOC_TAG(probe);

	/* READ_ONCE: the loader writes the fields, the compiler cannot see it. */
	*idx = READ_ONCE(probe.page_idx);
	return READ_ONCE(probe.counters) != NULL;
}

/*
 * Never called: it makes the module need what free_reserved_page(), inline
 * in <linux/mm.h>, calls.  Modules free reserved pages (powerpc's kvm-hv
 * does); if the profiling code it calls were not exported, modpost would
 * fail the build of this module.
 */
void alloc_prof_test_free_reserved(struct page *page);
void alloc_prof_test_free_reserved(struct page *page)
{
	free_reserved_page(page);
}
EXPORT_SYMBOL_GPL(alloc_prof_test_free_reserved);

/*
 * The one call site: every block allocated here is charged to this line.
 * On failure the blocks allocated so far stay with the holder.
 */
static noinline int alloc_prof_test_alloc(unsigned int n, unsigned int k)
{
	struct page *page;

	while (n--) {
		page = alloc_pages(GFP_KERNEL, k);
		if (!page)
			return -ENOMEM;
		alloc_prof_holder_keep(page, k);
	}
	return 0;
}

/* The kstrdup() call site: each string is charged to this line. */
static noinline int alloc_prof_test_strdup(unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++) {
		strings[i] = kstrdup("alloc_prof_test: a duplicated string", GFP_KERNEL);
		if (!strings[i])
			return -ENOMEM;
	}
	return 0;
}

static void alloc_prof_test_free_strings(void)
{
	unsigned int i;

	for (i = 0; i < MAX_STRDUPS; i++) {
		kfree(strings[i]);
		strings[i] = NULL;
	}
}

static int __init alloc_prof_test_init(void)
{
	int ret;

	if (order >= MAX_ORDER || strdups > MAX_STRDUPS)
		return -EINVAL;
	profiling = mem_alloc_profiling_enabled();
	counters = alloc_prof_test_has_counters(&page_idx);
	ret = alloc_prof_test_strdup(strdups);
	if (ret) {
		alloc_prof_test_free_strings();
		return ret;
	}
	ret = alloc_prof_test_alloc(nr, order);
	if (ret)
		alloc_prof_test_free_strings();
	return ret;
}

#define MAX_PERCPU	256
#define PERCPU_SIZE	4096

static void __percpu *areas[MAX_PERCPU];
static unsigned int nr_areas;

static void alloc_prof_test_free_percpu(void)
{
	while (nr_areas)
		free_percpu(areas[--nr_areas]);
}

/* Writing N: N more per-CPU areas (what could be had); 0: free them all. */
static int alloc_prof_test_set_percpu(const char *val,
				      const struct kernel_param *kp)
{
	unsigned int n;
	int ret;

	ret = kstrtouint(val, 0, &n);
	if (ret)
		return ret;
	if (!n) {
		alloc_prof_test_free_percpu();
		return 0;
	}
	if (n > MAX_PERCPU - nr_areas)
		return -EINVAL;
	while (n--) {
		areas[nr_areas] = __alloc_percpu(PERCPU_SIZE, PERCPU_SIZE);
		if (!areas[nr_areas])
			return -ENOMEM;
		nr_areas++;
	}
	return 0;
}

static int alloc_prof_test_get_percpu(char *buf, const struct kernel_param *kp)
{
	return sysfs_emit(buf, "%u\n", nr_areas);
}

static const struct kernel_param_ops percpu_ops = {
	.set	= alloc_prof_test_set_percpu,
	.get	= alloc_prof_test_get_percpu,
};
module_param_cb(percpu, &percpu_ops, NULL, 0644);
MODULE_PARM_DESC(percpu, "write N: allocate N 4 KiB per-CPU areas; 0: free them; reads the number live");

/* The holder owns the pages; the strings and areas are this module's. */
static void __exit alloc_prof_test_exit(void)
{
	alloc_prof_test_free_percpu();
	alloc_prof_test_free_strings();
}

module_init(alloc_prof_test_init);
module_exit(alloc_prof_test_exit);
MODULE_DESCRIPTION("Page allocations from a known call site for allocation profiling tests");
MODULE_LICENSE("GPL");
