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
 *   kmalloc-64-ctx, pgalloc-ctx  kmalloc-64 and pgalloc with context
 *                capture on at their call site (allocations.ctx): each
 *                allocation saves its stack (a depot hit after the first)
 *                and keeps a context, each free releases it.  Only in a
 *                kernel with CONFIG_MEM_ALLOC_PROFILING_CONTEXT, and not
 *                with nomem_profiling; make bench holds them against the
 *                same case with capture off
 *   unwind-request-first, unwind-request  unwind_deferred_request() in
 *                the insmod task: the first of its kernel entry (one
 *                sample, less the cost of the clock reads), then the
 *                others
 *   unwind-user-4, unwind-user-60  unwind_user() over a chain of 4 and 60
 *                frame records (make bench reports the cost per frame).
 *                Only with CONFIG_UNWIND_DEFERRED.
 *   percpu-4     four per-CPU counter updates (add, increment, subtract,
 *                decrement of a u64), what allocation profiling does per
 *                alloc/free pair; ns_per_op is per four updates
 *   plain-4      the same four updates on a plain (not per-CPU) variable
 *
 * Parameter "repeat" runs each kmalloc, pgalloc and -4 case that many
 * times in a row and reports the fastest run (make bench's native timing
 * host: the best of a few runs is the one least disturbed by the host):
 * 1 to 100, anything else fails the load with -EINVAL.
 */
#define pr_fmt(fmt) "kmem_bench: " fmt

#include <linux/atomic.h>
#include <linux/completion.h>
#include <linux/cpumask.h>
#include <linux/gfp.h>
#include <linux/kthread.h>
#include <linux/ktime.h>
#include <linux/minmax.h>
#include <linux/module.h>
#include <linux/percpu.h>
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

/*
 * Batches of 8 pages, not 64: a batch larger than the per-CPU free list's
 * batch refilled and drained the list within the timed loop or not,
 * depending on how full the list was when the case started, and the same
 * kernel measured 401 or 663 instructions per pair from one boot to the
 * next.  8 pairs stay within the list whatever its state after the first
 * batch: the allocator's fast path, which the hooks are added to.
 */
#define PG_BATCH 8

static u64 bench_pgalloc(unsigned int order)
{
	struct page *pages[PG_BATCH];
	unsigned int done, i;
	u64 ns = 0, t0;

	for (done = 0; done < ops; done += PG_BATCH) {
		t0 = ktime_get_ns();
		for (i = 0; i < PG_BATCH; i++)
			pages[i] = alloc_pages(GFP_KERNEL, order);
		for (i = 0; i < PG_BATCH; i++)
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

static unsigned int repeat = 1;
module_param(repeat, uint, 0444);
MODULE_PARM_DESC(repeat, "runs of each allocator case; the fastest is reported");

/* The fastest of @repeat runs of @run. */
#define BEST(run) ({						\
	u64 __best = U64_MAX;					\
	unsigned int __r;					\
								\
	for (__r = 0; __r < repeat; __r++)			\
		__best = min_t(u64, __best, (run));		\
	__best;							\
})

static DEFINE_PER_CPU(u64, pcp_counters[2]);
static u64 plain_counters[2];

/*
 * The four counter updates of a profiled alloc/free pair: bytes added and
 * one call counted, then both taken back.  Per-CPU (what the hooks do) or
 * on plain memory (what they would cost without this_cpu operations).
 */
static u64 bench_counters(bool percpu)
{
	unsigned int i;
	u64 t0 = ktime_get_ns();

	for (i = 0; i < ops; i++) {
		if (percpu) {
			this_cpu_add(pcp_counters[0], i);
			this_cpu_inc(pcp_counters[1]);
			this_cpu_sub(pcp_counters[0], i);
			this_cpu_dec(pcp_counters[1]);
		} else {
			WRITE_ONCE(plain_counters[0], READ_ONCE(plain_counters[0]) + i);
			WRITE_ONCE(plain_counters[1], READ_ONCE(plain_counters[1]) + 1);
			WRITE_ONCE(plain_counters[0], READ_ONCE(plain_counters[0]) - i);
			WRITE_ONCE(plain_counters[1], READ_ONCE(plain_counters[1]) - 1);
		}
	}
	return ktime_get_ns() - t0;
}

#ifdef CONFIG_MEM_ALLOC_PROFILING_CONTEXT
#include <linux/umh.h>

/*
 * Turn capture on or off at @func's allocation site in this module, as a
 * user does: a shell writes the command to debugfs' allocations.ctx (the
 * guest's init mounts debugfs; the module's tags exist during its init).
 */
static bool ctx_capture(const char *func, bool on)
{
	static char *envp[] = { "PATH=/bin:/sbin", NULL };
	char cmd[160];
	char *argv[] = { "/bin/sh", "-c", cmd, NULL };
	int ret;

	snprintf(cmd, sizeof(cmd),
		 "echo module %s func %s %s >/sys/kernel/debug/allocations.ctx",
		 KBUILD_MODNAME, func, on ? "enable" : "disable");
	ret = call_usermodehelper(argv[0], argv, envp, UMH_WAIT_PROC);
	if (ret)
		pr_err("%s: %d\n", cmd, ret);
	return !ret;
}

static void bench_ctx_cases(void)
{
	if (bench_want(only, "kmalloc-64-ctx") &&
	    ctx_capture("bench_kmalloc", true)) {
		bench_report("kmalloc-64-ctx", bench_kmalloc(64), ops);
		ctx_capture("bench_kmalloc", false);
	}
	if (bench_want(only, "pgalloc-ctx") &&
	    ctx_capture("bench_pgalloc", true)) {
		bench_report("pgalloc-ctx", bench_pgalloc(0), ops);
		ctx_capture("bench_pgalloc", false);
	}
}
#else
static void bench_ctx_cases(void)
{
}
#endif

#ifdef CONFIG_UNWIND_DEFERRED
#include <linux/mman.h>
#include <linux/sched/task_stack.h>
#include <linux/uaccess.h>
#include <linux/unwind_deferred.h>
#include <linux/unwind_user.h>

static void bench_unwind_callback(struct unwind_work *work,
				  const struct unwind_stacktrace *trace,
				  u64 cookie)
{
}

/*
 * Requests in the insmod task's kernel entry: the first takes a cookie
 * and queues the task work (one sample, timer reads included), the
 * others find both done.
 */
static void bench_unwind_request(void)
{
	struct unwind_work work;
	unsigned int i;
	u64 cookie, t0, ns, clock;

	if (unwind_deferred_init(&work, bench_unwind_callback))
		return;
	/* The first request, less what a pair of clock reads costs. */
	t0 = ktime_get_ns();
	clock = ktime_get_ns() - t0;
	t0 = ktime_get_ns();
	unwind_deferred_request(&work, &cookie);
	ns = ktime_get_ns() - t0;
	bench_report("unwind-request-first", ns > clock ? ns - clock : 0, 1);
	t0 = ktime_get_ns();
	for (i = 0; i < ops; i++)
		unwind_deferred_request(&work, &cookie);
	ns = ktime_get_ns() - t0;
	bench_report("unwind-request", ns, ops);
	unwind_deferred_cancel(&work);
}

/*
 * unwind_user() over a chain of @depth frame records built in an
 * anonymous mapping of the insmod task, its saved frame and stack
 * pointers pointed at it for the duration: per frame, the difference of
 * two depths.
 */
static void bench_unwind_frames(const char *name, unsigned int depth)
{
	struct pt_regs *regs = task_pt_regs(current);
	unsigned long entries[64], base, rec[2], bp, sp;
	unsigned int i, n = ops / 64 ?: 1, nr = 0, stopped;
	u64 t0, ns;

	base = vm_mmap(NULL, 0, PAGE_SIZE, PROT_READ | PROT_WRITE,
		       MAP_ANONYMOUS | MAP_PRIVATE, 0);
	if (IS_ERR_VALUE(base))
		return;
	for (i = 0; i < depth; i++) {
		rec[0] = i + 1 < depth ? base + (i + 1) * sizeof(rec) : 0;
		rec[1] = 0x400000 + i;
		if (copy_to_user((void __user *)base + i * sizeof(rec), rec,
				 sizeof(rec)))
			goto out;
	}
	bp = regs->bp;
	sp = regs->sp;
	regs->bp = base;
	regs->sp = base;
	t0 = ktime_get_ns();
	for (i = 0; i < n; i++)
		nr = unwind_user(entries, ARRAY_SIZE(entries), &stopped);
	ns = ktime_get_ns() - t0;
	regs->bp = bp;
	regs->sp = sp;
	/* The instruction pointer, then one entry per record. */
	if (nr == depth + 1)
		bench_report(name, ns, n);
	else
		pr_warn("%s: %u entries, not %u\n", name, nr, depth + 1);
out:
	vm_munmap(base, PAGE_SIZE);
}

static void bench_unwind_cases(void)
{
	if (bench_want(only, "unwind-request"))
		bench_unwind_request();
	if (bench_want(only, "unwind-user-4"))
		bench_unwind_frames("unwind-user-4", 4);
	if (bench_want(only, "unwind-user-60"))
		bench_unwind_frames("unwind-user-60", 60);
}
#else
static void bench_unwind_cases(void)
{
}
#endif

static int __init kmem_bench_init(void)
{
	char name[32];
	unsigned int i;

	if (repeat < 1 || repeat > 100) {
		pr_err("repeat=%u: out of 1..100\n", repeat);
		return -EINVAL;
	}
	ops = roundup(max(ops, (unsigned int)BATCH), BATCH);
	for (i = 0; i < ARRAY_SIZE(sizes); i++) {
		snprintf(name, sizeof(name), "kmalloc-%zu", sizes[i]);
		if (bench_want(only, name))
			bench_report(name, BEST(bench_kmalloc(sizes[i])), ops);
	}
	if (bench_want(only, "pgalloc"))
		bench_report("pgalloc", BEST(bench_pgalloc(0)), ops);
	if (bench_want(only, "pgalloc-o3"))
		bench_report("pgalloc-o3", BEST(bench_pgalloc(3)), ops);
	if (bench_want(only, "percpu-4"))
		bench_report("percpu-4", BEST(bench_counters(true)), ops);
	if (bench_want(only, "plain-4"))
		bench_report("plain-4", BEST(bench_counters(false)), ops);
	if (bench_want(only, "kmalloc-64-2cpu") && num_online_cpus() >= 2)
		bench_on_2cpus("kmalloc-64-2cpu", kmalloc_64_ops, ops);
	bench_ctx_cases();
	bench_unwind_cases();
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
