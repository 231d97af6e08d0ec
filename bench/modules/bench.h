/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the benchmark modules in bench/modules/ share: their parameters
 * (each module includes this once), case selection and output.
 */
#ifndef KMEMOBS_BENCH_H
#define KMEMOBS_BENCH_H

#include <linux/atomic.h>
#include <linux/completion.h>
#include <linux/err.h>
#include <linux/kthread.h>
#include <linux/ktime.h>
#include <linux/math64.h>
#include <linux/moduleparam.h>
#include <linux/printk.h>
#include <linux/string.h>
#include <linux/types.h>

static unsigned int ops = 200000;
module_param(ops, uint, 0444);
MODULE_PARM_DESC(ops, "operations per case");

static char *only = "";
module_param(only, charp, 0444);
MODULE_PARM_DESC(only, "run only the cases whose name starts with one of these (comma-separated)");

/* Whether case @name is selected by the module parameter @only. */
static inline bool bench_want(const char *only, const char *name)
{
	/* A comma-separated list of prefixes; empty: every case. */
	do {
		size_t len = strchrnul(only, ',') - only;

		if (!strncmp(name, only, len))
			return true;
		only += len;
	} while (*only++);
	return false;
}

/*
 * One result line: "case=NAME ops=N ns=T ns_per_op=X.Y", prefixed with the
 * including module's pr_fmt.
 */
static inline void bench_report(const char *name, u64 ns, unsigned int n)
{
	u64 tenths = div_u64(ns * 10, n);

	pr_info("case=%s ops=%u ns=%llu ns_per_op=%llu.%llu\n", name, n, ns,
		div_u64(tenths, 10), tenths % 10);
}

struct bench_thread {
	struct completion *go;
	atomic_t *running;
	void (*fn)(void);
};

static int bench_thread_fn(void *arg)
{
	struct bench_thread *t = arg;

	wait_for_completion(t->go);
	t->fn();
	atomic_dec(t->running);
	while (!kthread_should_stop())
		schedule_timeout_interruptible(1);
	return 0;
}

/*
 * Runs @fn on CPUs 0 and 1 at once, in a kthread bound to each, and reports
 * the elapsed time as case @name of @n operations (what @fn does on each
 * CPU).  Only with two CPUs online.
 */
static inline void bench_on_2cpus(const char *name, void (*fn)(void),
				  unsigned int n)
{
	DECLARE_COMPLETION_ONSTACK(go);
	atomic_t running = ATOMIC_INIT(2);
	struct task_struct *tasks[2];
	struct bench_thread threads[2];
	u64 t0, ns;
	int i;

	for (i = 0; i < 2; i++) {
		threads[i] = (struct bench_thread){ .go = &go,
						    .running = &running,
						    .fn = fn };
		tasks[i] = kthread_create(bench_thread_fn, &threads[i],
					  "bench/%d", i);
		if (IS_ERR(tasks[i])) {
			pr_err("cannot start a thread\n");
			/* Let the threads started so far run, then stop them. */
			complete_all(&go);
			while (--i >= 0)
				kthread_stop(tasks[i]);
			return;
		}
		kthread_bind(tasks[i], i);
		wake_up_process(tasks[i]);
	}
	t0 = ktime_get_ns();
	complete_all(&go);
	while (atomic_read(&running))
		schedule_timeout_interruptible(1);
	ns = ktime_get_ns() - t0;
	for (i = 0; i < 2; i++)
		kthread_stop(tasks[i]);
	bench_report(name, ns, n);
}

#endif
