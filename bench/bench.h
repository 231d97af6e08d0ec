/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the benchmark modules in bench/ share: their parameters (each module
 * includes this once), case selection and output.
 */
#ifndef KMEMOBS_BENCH_H
#define KMEMOBS_BENCH_H

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

#endif
