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
 *   insmod alloc_prof_test.ko [nr=N] [order=K] [strdups=N]
 */
#include <linux/alloc_tag.h>
#include <linux/gfp.h>
#include <linux/kernel.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/slab.h>
#include <linux/string.h>

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

/* A tag of this module, looked at but never charged. */
static noinline bool alloc_prof_test_has_counters(void)
{
	DEFINE_ALLOC_TAG(probe);

	/* READ_ONCE: the loader writes the field, the compiler cannot see it. */
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
	counters = alloc_prof_test_has_counters();
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

/* The holder owns the pages; the strings are this module's. */
static void __exit alloc_prof_test_exit(void)
{
	alloc_prof_test_free_strings();
}

module_init(alloc_prof_test_init);
module_exit(alloc_prof_test_exit);
MODULE_DESCRIPTION("Page allocations from a known call site for allocation profiling tests");
MODULE_LICENSE("GPL");
