// SPDX-License-Identifier: GPL-2.0
/*
 * depot_bench: stack depot micro-benchmarks for "make bench".
 *
 * Built out of tree against both the patched and the unpatched kernel, like
 * kmem_bench; the only difference is that against the patched kernel the
 * "new" case also drops its reference (the unpatched depot cannot).  Loading
 * the module runs the cases and prints one line each:
 *
 *   depot_bench: case=depot-hit ops=400000 ns=... ns_per_op=61.7
 *   depot_bench: metric=bytes-per-trace-16 value=565.0
 *
 * Cases:
 *   depot-hit      save of a trace that is already stored (16 frames), the
 *                  hot path of every depot user
 *   depot-hit-2cpu the same from one kthread on each of two CPUs at once,
 *                  ns_per_op = elapsed time / saves per thread (only with
 *                  two CPUs online)
 *   depot-new      save of a new trace (16 frames); patched: with
 *                  STACK_DEPOT_FLAG_GET, followed by stack_depot_put()
 * Metrics:
 *   bytes-per-trace-N  free memory consumed per new persistent trace of N
 *                      frames (3, 8, 16, 32, 64), over about 4 MiB of
 *                      traces (pools are never freed, so this is what a
 *                      stored trace costs; measured first, pages on per-CPU
 *                      lists blur it by a percent or two)
 *   bytes-per-ref-trace-N  the same for a trace saved with
 *                      STACK_DEPOT_FLAG_GET, whose reference is kept (the
 *                      unpatched depot stores it like any other trace)
 *
 * Parameter "only" runs the cases whose name starts with it.
 */
#define pr_fmt(fmt) "depot_bench: " fmt

#include <linux/atomic.h>
#include <linux/completion.h>
#include <linux/cpumask.h>
#include <linux/kthread.h>
#include <linux/ktime.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/sched.h>
#include <linux/stackdepot.h>
#include <linux/string.h>
#include <linux/vmstat.h>

#include "bench.h"

#define FRAMES		16
#define NEW_OPS		20000	/* the unpatched depot keeps every new trace */
#define MEM_BYTES	(4 << 20)	/* rough bytes stored per metric */

/* Made-up frames, unique per trace: never a stack some user saves. */
static unsigned long seq;

static void make_trace(unsigned long *entries, unsigned int nr)
{
	unsigned int i;

	seq++;
	for (i = 0; i < nr; i++)
		entries[i] = 0x6b000000UL + (seq << 12) + i * 8;
}

static unsigned long hit_trace[FRAMES];

static u64 bench_hit(unsigned int n)
{
	unsigned int i;
	u64 t0 = ktime_get_ns();

	for (i = 0; i < n; i++) {
		stack_depot_save(hit_trace, FRAMES, GFP_KERNEL);
		if (!(i & 1023))
			cond_resched();
	}
	return ktime_get_ns() - t0;
}

static void hit_ops(void)
{
	bench_hit(ops);
}

static u64 bench_new(unsigned int n)
{
	unsigned long entries[FRAMES];
	depot_stack_handle_t handle;
	unsigned int i;
	u64 ns = 0, t0;

	for (i = 0; i < n; i++) {
		make_trace(entries, FRAMES);
		t0 = ktime_get_ns();
#ifdef STACK_DEPOT_FLAG_GET
		handle = stack_depot_save_flags(entries, FRAMES, GFP_KERNEL,
						STACK_DEPOT_FLAG_CAN_ALLOC |
						STACK_DEPOT_FLAG_GET);
		stack_depot_put(handle);
#else
		handle = stack_depot_save(entries, FRAMES, GFP_KERNEL);
#endif
		ns += ktime_get_ns() - t0;
		if (!handle)
			pr_err("depot-new: save failed\n");
		if (!(i & 255))
			cond_resched();
	}
	return ns;
}

static depot_stack_handle_t save_for_bytes(unsigned long *entries,
					   unsigned int frames, bool ref)
{
#ifdef STACK_DEPOT_FLAG_GET
	if (ref)
		return stack_depot_save_flags(entries, frames, GFP_KERNEL,
					      STACK_DEPOT_FLAG_CAN_ALLOC |
					      STACK_DEPOT_FLAG_GET);
#endif
	return stack_depot_save(entries, frames, GFP_KERNEL);
}

static void bytes_per_trace(unsigned int frames, bool ref)
{
	/* About MEM_BYTES of records, counting a 24-byte header. */
	unsigned int i, stored = 0, n = MEM_BYTES / (8 * (frames + 3));
	const char *kind = ref ? "ref-" : "";
	unsigned long before, after;
	unsigned long entries[64];
	u64 tenths;

	before = global_zone_page_state(NR_FREE_PAGES);
	for (i = 0; i < n; i++) {
		make_trace(entries, frames);
		if (save_for_bytes(entries, frames, ref))
			stored++;
	}
	after = global_zone_page_state(NR_FREE_PAGES);
	if (!stored || after > before) {
		pr_err("bytes-per-%strace-%u: no measurement\n", kind, frames);
		return;
	}
	tenths = div_u64((u64)(before - after) * PAGE_SIZE * 10, stored);
	pr_info("metric=bytes-per-%strace-%u value=%llu.%llu\n", kind,
		frames, div_u64(tenths, 10), tenths % 10);
}

static int __init depot_bench_init(void)
{
	/* Without page_owner=on nobody has set the depot up yet. */
	if (stack_depot_init()) {
		pr_err("no stack depot\n");
		return 0;
	}
	make_trace(hit_trace, FRAMES);
	if (!stack_depot_save(hit_trace, FRAMES, GFP_KERNEL)) {
		pr_err("the stack depot does not save\n");
		return 0;
	}
	/* First: depot-new leaves free slots behind in the patched depot. */
	if (bench_want(only, "bytes-per-")) {
		static const unsigned int sizes[] = { 3, 8, 16, 32, 64 };
		unsigned int i;

		for (i = 0; i < ARRAY_SIZE(sizes); i++)
			bytes_per_trace(sizes[i], false);
		for (i = 0; i < ARRAY_SIZE(sizes); i++)
			bytes_per_trace(sizes[i], true);
	}
	if (bench_want(only, "depot-hit"))
		bench_report("depot-hit", bench_hit(ops), ops);
	if (bench_want(only, "depot-hit-2cpu") && num_online_cpus() >= 2)
		bench_on_2cpus("depot-hit-2cpu", hit_ops, ops);
	if (bench_want(only, "depot-new"))
		bench_report("depot-new", bench_new(NEW_OPS), NEW_OPS);
	pr_info("done\n");
	return 0;
}
module_init(depot_bench_init);

static void __exit depot_bench_exit(void)
{
}
module_exit(depot_bench_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Stack depot micro-benchmarks for make bench");
