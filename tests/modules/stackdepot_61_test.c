// SPDX-License-Identifier: GPL-2.0
/*
 * The stack depot interface of Linux 6.1, used as 6.1's callers use it,
 * for tests/guest/20-stackdepot.sh: a module written for 6.1's
 * <linux/stackdepot.h> must build unchanged against the series and work
 * on it.  Only what 6.1 declares is used: stack_depot_init(),
 * stack_depot_save(), __stack_depot_save() with extra bits and
 * can_alloc, stack_depot_fetch(), stack_depot_get_extra_bits(),
 * stack_depot_snprint(), stack_depot_print() and STACK_DEPOT_EXTRA_BITS.
 * The same source builds against the unpatched base.
 *
 * The checks run at load.  The module prints
 *
 *	stackdepot_61_test: N checks passed
 *
 * then the trace of its first handle with stack_depot_print() between two
 * marker lines, and loads; or it prints each failed check and fails to
 * load with -EINVAL.
 */
#include <linux/compiler.h>
#include <linux/gfp.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/stackdepot.h>
#include <linux/stacktrace.h>
#include <linux/string.h>

#define NR_FRAMES	16

static unsigned int passed, failed;

#define CHECK(cond)							\
	do {								\
		if (cond) {						\
			passed++;					\
		} else {						\
			failed++;					\
			pr_err("stackdepot_61_test: failed: %s (line %d)\n", \
			       #cond, __LINE__);			\
		}							\
	} while (0)

/*
 * Two traces that differ in their first frame.  The barrier keeps the
 * call from becoming a tail call, which would leave no frame of these.
 */
static noinline unsigned int sd61_trace_a(unsigned long *entries)
{
	unsigned int nr = stack_trace_save(entries, NR_FRAMES, 0);

	barrier();
	return nr;
}

static noinline unsigned int sd61_trace_b(unsigned long *entries)
{
	unsigned int nr = stack_trace_save(entries, NR_FRAMES, 0);

	barrier();
	return nr;
}

/* @handle's trace is @nr frames, the same as @entries. */
static bool same_trace(depot_stack_handle_t handle, unsigned long *entries,
		       unsigned int nr)
{
	unsigned long *stored;
	unsigned int n = stack_depot_fetch(handle, &stored);

	return n == nr && !memcmp(stored, entries, nr * sizeof(*entries));
}

static unsigned int count_lines(const char *s)
{
	unsigned int n = 0;

	for (; *s; s++)
		n += *s == '\n';
	return n;
}

static int __init stackdepot_61_test_init(void)
{
	unsigned long a[NR_FRAMES], b[NR_FRAMES], *none;
	depot_stack_handle_t ha, hb, hx, hy;
	unsigned int na, nb, extra = (1U << STACK_DEPOT_EXTRA_BITS) - 1;
	static char buf[4096];
	int len;

	CHECK(STACK_DEPOT_EXTRA_BITS == 5);
	/* Modules that may run first call it; it must not fail later. */
	CHECK(stack_depot_init() == 0);

	na = sd61_trace_a(a);
	nb = sd61_trace_b(b);
	CHECK(na > 1 && nb > 1);

	/* stack_depot_save(): a handle, the same one for the same trace. */
	ha = stack_depot_save(a, na, GFP_KERNEL);
	hb = stack_depot_save(b, nb, GFP_KERNEL);
	CHECK(ha != 0);
	CHECK(hb != 0 && hb != ha);
	CHECK(stack_depot_save(a, na, GFP_KERNEL) == ha);
	CHECK(same_trace(ha, a, na));
	CHECK(same_trace(hb, b, nb));
	CHECK(stack_depot_get_extra_bits(ha) == 0);

	/*
	 * __stack_depot_save(): the extra bits ride in the handle, whose
	 * trace is the same; a stored trace is found without allocating.
	 */
	hx = __stack_depot_save(a, na, extra, GFP_KERNEL, true);
	CHECK(stack_depot_get_extra_bits(hx) == extra);
	CHECK(hx != ha);
	CHECK(same_trace(hx, a, na));
	hy = __stack_depot_save(b, nb, 3, GFP_NOWAIT, false);
	CHECK(stack_depot_get_extra_bits(hy) == 3);
	CHECK(same_trace(hy, b, nb));

	/* The 0 handle: no trace. */
	CHECK(stack_depot_fetch(0, &none) == 0);
	CHECK(stack_depot_snprint(0, buf, sizeof(buf), 0) == 0);

	/*
	 * stack_depot_snprint(): one line per frame, after 1 + @spaces
	 * blanks, as 6.1 prints them.
	 */
	len = stack_depot_snprint(ha, buf, sizeof(buf), 4);
	CHECK(len > 0 && len < (int)sizeof(buf) && strlen(buf) == (size_t)len);
	CHECK(!strncmp(buf, "     ", 5) && buf[5] != ' ');
	CHECK(strstr(buf, "\n     sd61_trace_a+0x") != NULL ||
	      !strncmp(buf, "     sd61_trace_a+0x", 20));
	CHECK(strstr(buf, "[stackdepot_61_test]") != NULL);
	CHECK(count_lines(buf) == na);
	/* A short buffer is cut and terminated. */
	memset(buf, 'x', 16);
	stack_depot_snprint(ha, buf, 8, 0);
	CHECK(strnlen(buf, 8) == 7);

	if (failed) {
		pr_err("stackdepot_61_test: %u of %u checks failed\n", failed,
		       passed + failed);
		return -EINVAL;
	}
	pr_info("stackdepot_61_test: %u checks passed\n", passed);
	pr_info("stackdepot_61_test: stack_depot_print() of the first trace:\n");
	stack_depot_print(ha);
	pr_info("stackdepot_61_test: end of the trace\n");
	return 0;
}

static void __exit stackdepot_61_test_exit(void)
{
}

module_init(stackdepot_61_test_init);
module_exit(stackdepot_61_test_exit);
MODULE_DESCRIPTION("Use the stack depot as 6.1's callers do");
MODULE_LICENSE("GPL");
