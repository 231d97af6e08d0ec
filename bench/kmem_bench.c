// SPDX-License-Identifier: GPL-2.0
/*
 * kmem_bench: in-kernel allocator micro-benchmarks for "make bench".
 *
 * Built out of tree against both the patched and the unpatched kernel, so
 * both run the same code.  Loading the module runs every case once, in the
 * insmod task, timing batches of BATCH allocations followed by their frees
 * (cond_resched() between batches), and prints one line per case:
 *
 *   kmem_bench: case=kmalloc-8 ops=200000 ns=12345678 ns_per_op=61.7
 *
 * Parameter "only" runs the cases whose name starts with it.
 *
 * The guest unloads it again with rmmod.  (Failing the load instead would
 * make busybox insmod retry it through init_module() and run it twice.)
 *
 * Cases (those measured by the memory allocation profiling RFC, May 2023):
 *   kmalloc-N    kmalloc(N)/kfree() pairs, N = 8, 16, 32, ..., 240
 *   pgalloc      alloc_page()/__free_page() pairs, order 0
 *   pgalloc-o3   alloc_pages()/__free_pages() pairs, order 3 (page_owner
 *                updates the owner of every base page)
 *   kmalloc-64-2cpu  kmalloc(64)/kfree() pairs from one kthread on each of
 *                two CPUs at once, from the same call site: under the
 *                KASAN tag modes every pair takes and drops references on
 *                the same stack depot records from both CPUs.  ns_per_op =
 *                elapsed time / pairs per thread (only with two CPUs
 *                online; meaningful on the wall clock)
 */
#define pr_fmt(fmt) "kmem_bench: " fmt

#include <linux/atomic.h>
#include <linux/completion.h>
#include <linux/cpumask.h>
#include <linux/gfp.h>
#include <linux/kthread.h>
#include <linux/ktime.h>
#include <linux/module.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "bench.h"

#define BATCH 64

/* Allocate a batch, then free it: keeps the slab fast path honest. */
static u64 bench_kmalloc(size_t size)
{
	void *objs[BATCH];
	unsigned int done, i;
	u64 ns = 0, t0;

	for (done = 0; done < ops; done += BATCH) {
		t0 = ktime_get_ns();
		for (i = 0; i < BATCH; i++)
			objs[i] = kmalloc(size, GFP_KERNEL);
		for (i = 0; i < BATCH; i++)
			kfree(objs[i]);
		ns += ktime_get_ns() - t0;
		cond_resched();
	}
	return ns;
}

static u64 bench_pgalloc(unsigned int order)
{
	struct page *pages[BATCH];
	unsigned int done, i;
	u64 ns = 0, t0;

	for (done = 0; done < ops; done += BATCH) {
		t0 = ktime_get_ns();
		for (i = 0; i < BATCH; i++)
			pages[i] = alloc_pages(GFP_KERNEL, order);
		for (i = 0; i < BATCH; i++)
			if (pages[i])
				__free_pages(pages[i], order);
		ns += ktime_get_ns() - t0;
		cond_resched();
	}
	return ns;
}

static void kmalloc_64_ops(void)
{
	bench_kmalloc(64);
}

static const size_t sizes[] = { 8, 16, 32, 64, 96, 128, 192, 240 };

static int __init kmem_bench_init(void)
{
	char name[32];
	unsigned int i;

	ops = roundup(max(ops, (unsigned int)BATCH), BATCH);
	for (i = 0; i < ARRAY_SIZE(sizes); i++) {
		snprintf(name, sizeof(name), "kmalloc-%zu", sizes[i]);
		if (bench_want(only, name))
			bench_report(name, bench_kmalloc(sizes[i]), ops);
	}
	if (bench_want(only, "pgalloc"))
		bench_report("pgalloc", bench_pgalloc(0), ops);
	if (bench_want(only, "pgalloc-o3"))
		bench_report("pgalloc-o3", bench_pgalloc(3), ops);
	if (bench_want(only, "kmalloc-64-2cpu") && num_online_cpus() >= 2)
		bench_on_2cpus("kmalloc-64-2cpu", kmalloc_64_ops, ops);
	pr_info("done\n");
	return 0;
}
module_init(kmem_bench_init);

static void __exit kmem_bench_exit(void)
{
}
module_exit(kmem_bench_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Allocator micro-benchmarks for make bench");
