// SPDX-License-Identifier: GPL-2.0
/*
 * stack_bench: the cost of collecting one stack trace, for make
 * bench-scs.  Loading the module runs each case in the insmod task, from a
 * call chain of a known depth, and prints one line per case as
 * kmem_bench does:
 *
 *   stack_bench: case=unwind-16 ops=20000 ns=... ns_per_op=...
 *
 * Cases, at depths 8, 16 and 32 frames below the collector's caller:
 *   unwind-D   stack_trace_save(): the frame record unwinder
 *   scs-D      stack_trace_save_shadow(): the shadow call stack (kernels
 *              built with it; skipped elsewhere)
 * Each call stores D entries: the collector stops there, as KASAN's stops
 * at its 64.  Built only for kernels with stack_trace_save_shadow()
 * (bench/modules/Kbuild), so both cases run in the same kernel.
 */
#define pr_fmt(fmt) "stack_bench: " fmt

#include <linux/ktime.h>
#include <linux/module.h>
#include <linux/stacktrace.h>

#include "bench.h"

#define TRACE_DEPTH 64

static unsigned long trace[TRACE_DEPTH];

static noinline u64 collect(unsigned int size, bool shadow)
{
	unsigned int i;
	u64 t0 = ktime_get_ns();

	for (i = 0; i < ops; i++) {
		if (shadow)
			stack_trace_save_shadow(trace, size, 0);
		else
			stack_trace_save(trace, size, 0);
	}
	return ktime_get_ns() - t0;
}

/* @depth frames, then the timed loop; barrier() keeps each a real call. */
static noinline u64 descend(unsigned int depth, unsigned int size, bool shadow)
{
	u64 ns;

	if (!depth)
		return collect(size, shadow);
	ns = descend(depth - 1, size, shadow);
	barrier();
	return ns;
}

static int __init stack_bench_init(void)
{
	static const unsigned int depths[] = { 8, 16, 32 };
	unsigned long probe[1];
	bool have_scs = stack_trace_save_shadow(probe, 1, 0) > 0;
	char name[32];
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(depths); i++) {
		snprintf(name, sizeof(name), "unwind-%u", depths[i]);
		if (bench_want(only, name))
			bench_report(name, descend(depths[i], depths[i], false), ops);
		snprintf(name, sizeof(name), "scs-%u", depths[i]);
		if (have_scs && bench_want(only, name))
			bench_report(name, descend(depths[i], depths[i], true), ops);
	}
	pr_info("done\n");
	return 0;
}
module_init(stack_bench_init);

static void __exit stack_bench_exit(void)
{
}
module_exit(stack_bench_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Stack trace collection micro-benchmark for make bench-scs");
