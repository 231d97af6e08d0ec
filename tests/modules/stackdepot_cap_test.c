// SPDX-License-Identifier: GPL-2.0
/*
 * The stack depot at its cap: a KUnit suite that fills the depot, so it is
 * not part of lib/test_stackdepot.c, which runs in kernels in use.  It runs
 * only in a guest booted for it (scripts/test-guest.sh, boot "depotcap":
 * stack_depot_max_pools=64 and no other KUnit suite), loaded by
 * tests/guest/22-depot-cap.sh; booted with a larger cap its cases skip.
 *
 * Like lib/test_stackdepot.c it saves synthetic traces no other depot user
 * stores (another magic number here) and holds global counters only to
 * bounds, as other users of the depot run meanwhile.
 */

#include <kunit/test.h>
#include <linux/bsearch.h>
#include <linux/module.h>
#include <linux/rcupdate.h>
#include <linux/sizes.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include <linux/stackdepot.h>

#define TEST_FRAMES	8
#define TEST_MAGIC	0x5e000000UL
/* Frames of a record of 144 bytes (9 granules): a 48-byte one and a slot. */
#define SPLIT_FRAMES	((144 - 16) / sizeof(unsigned long))

static atomic_t test_seq = ATOMIC_INIT(0);

/* Fills @entries with @nr frames of a trace no other test saves. */
static void make_trace(unsigned long *entries, unsigned int nr)
{
	unsigned long seq = atomic_inc_return(&test_seq);
	unsigned int i;

	for (i = 0; i < nr; i++)
		entries[i] = TEST_MAGIC + (seq << 12) + i * 8;
}

static depot_stack_handle_t save_new(depot_flags_t flags, gfp_t gfp)
{
	unsigned long entries[TEST_FRAMES];

	make_trace(entries, TEST_FRAMES);
	return stack_depot_save_flags(entries, TEST_FRAMES, gfp, flags);
}

static depot_stack_handle_t save_frames(unsigned int frames,
					depot_flags_t flags)
{
	unsigned long entries[CONFIG_STACKDEPOT_MAX_FRAMES];

	frames = min_t(unsigned int, frames, CONFIG_STACKDEPOT_MAX_FRAMES);
	make_trace(entries, frames);
	return stack_depot_save_flags(entries, frames, GFP_KERNEL,
				      flags | STACK_DEPOT_FLAG_CAN_ALLOC);
}

static struct stack_depot_stats stats(void)
{
	struct stack_depot_stats st;

	stack_depot_get_stats(&st);
	return st;
}

/*
 * Waits until every slot evicted so far may be reused (see the same
 * function in lib/test_stackdepot.c).
 */
static bool wait_evictions_reusable(void)
{
	unsigned long cookie = get_state_synchronize_rcu();
	int i;

	for (i = 0; i < 100; i++) {
		if (poll_state_synchronize_rcu(cookie))
			return true;
		synchronize_rcu();
	}
	return false;
}

/* Whether the depot's cap is small enough for a test to fill it. */
static bool depot_fills(const struct stack_depot_stats *st)
{
	return (u64)st->max_pools * (PAGE_SIZE << 2) <= SZ_32M;
}

static void test_cap(struct kunit *test)
{
	const depot_flags_t get = STACK_DEPOT_FLAG_GET |
				  STACK_DEPOT_FLAG_CAN_ALLOC;
	struct stack_depot_stats before = stats(), st;
	depot_stack_handle_t *handles;
	unsigned long limit, n, i;
	int round;

	if (!depot_fills(&before))
		kunit_skip(test, "boot with stack_depot_max_size=32M or less to fill the depot");
	if (CONFIG_STACKDEPOT_MAX_FRAMES < 2 * TEST_FRAMES)
		kunit_skip(test, "needs CONFIG_STACKDEPOT_MAX_FRAMES >= %d",
			   2 * TEST_FRAMES);

	/* More saves than fit: pools are 4 pages, a record 48 bytes at least. */
	limit = before.max_pools * (PAGE_SIZE << 2) / 48 + 1;
	handles = kvcalloc(limit, sizeof(*handles), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, handles);

	/* Fill the depot, empty it, and fill it again. */
	for (round = 1; round <= 2; round++) {
		for (n = 0; n < limit; n++) {
			handles[n] = save_new(get, GFP_KERNEL);
			if (!handles[n])
				break;
		}
		st = stats();
		KUNIT_EXPECT_LT(test, n, limit);
		KUNIT_EXPECT_EQ(test, st.pools, st.max_pools);
		KUNIT_EXPECT_GT(test, st.dropped, before.dropped);
		KUNIT_EXPECT_LE(test, st.pool_bytes,
				(u64)st.max_pools * (PAGE_SIZE << 2));
		/* Each filling is reported, not only the first. */
		KUNIT_EXPECT_GE(test, st.cap_reached,
				before.cap_reached + round);

		for (i = 0; i < n; i++)
			stack_depot_put(handles[i]);
		KUNIT_EXPECT_GE(test, stats().evictions - st.evictions, n);
		/* Let the slots be reused. */
		KUNIT_ASSERT_TRUE(test, wait_evictions_reusable());
	}

	/*
	 * The depot cannot grow and its pools hold free slots of one size:
	 * persistent records with user room (page_owner's), which never take
	 * a free slot, and refcounted records too large for those slots get
	 * the emptied pools, carved anew.  Save until one more pool is: at
	 * most one pool's worth each.
	 */
	st = stats();
	for (n = 0; n < (PAGE_SIZE << 2) / sizeof(void *); n++) {
		handles[0] = save_frames(1, STACK_DEPOT_FLAG_USER);
		KUNIT_ASSERT_NE_MSG(test, handles[0], 0, "persistent save %lu", n);
		KUNIT_ASSERT_NOT_NULL(test, stack_depot_user(handles[0]));
		if (stats().reclaimed_pools > st.reclaimed_pools)
			break;
	}
	KUNIT_EXPECT_GT(test, stats().reclaimed_pools, st.reclaimed_pools);

	st = stats();
	for (n = 0; n < limit; n++) {
		handles[n] = save_frames(2 * TEST_FRAMES, STACK_DEPOT_FLAG_GET);
		if (!handles[n] || stats().reclaimed_pools > st.reclaimed_pools)
			break;
	}
	KUNIT_EXPECT_GT(test, stats().reclaimed_pools, st.reclaimed_pools);
	KUNIT_EXPECT_LT(test, n, limit);
	if (n == limit)
		n--;
	KUNIT_EXPECT_NE_MSG(test, handles[n], 0, "refcounted save %lu", n);
	for (i = 0; i <= n; i++)
		if (handles[i])
			stack_depot_put(handles[i]);

	/* The size that gave pools away still has the rest. */
	handles[0] = save_new(get, GFP_KERNEL);
	KUNIT_EXPECT_NE(test, handles[0], 0);
	stack_depot_put(handles[0]);
	kvfree(handles);
	KUNIT_EXPECT_EQ(test, stats().bad_puts, before.bad_puts);
}

static int cmp_addr(const void *a, const void *b)
{
	unsigned long x = *(const unsigned long *)a;
	unsigned long y = *(const unsigned long *)b;

	return x < y ? -1 : x > y;
}

/*
 * At the cap, with no pool left empty, a record takes the front of a larger
 * free slot and leaves the rest on the freelist of its size.  Fill the
 * depot with records of SPLIT_FRAMES frames (144 bytes with a 16-byte
 * header, at least 9 granules), let every other one go, then save 3-frame
 * records (3 granules, the smallest slot): once the smaller free slots are
 * used up, one lands where a large record was, and a later one in what is
 * left of that slot: right after it, unless another depot user took that
 * room first (then 48 bytes further).
 */
static void test_split(struct kunit *test)
{
	struct stack_depot_stats before = stats();
	depot_stack_handle_t *handles, *small;
	unsigned long *addrs, *frames, limit, n, nr_addrs = 0, i, s, addr;
	unsigned long split = 0, next = 0, tries = 0, reclaimed = 0;
	unsigned long split_reclaimed = 0;

	if (!depot_fills(&before))
		kunit_skip(test, "boot with stack_depot_max_size=32M or less to fill the depot");
	if (CONFIG_STACKDEPOT_MAX_FRAMES < SPLIT_FRAMES)
		kunit_skip(test, "needs CONFIG_STACKDEPOT_MAX_FRAMES >= %zu",
			   SPLIT_FRAMES);
	limit = before.max_pools * (PAGE_SIZE << 2) / 48 + 1;
	handles = kvcalloc(limit, sizeof(*handles), GFP_KERNEL);
	small = kvcalloc(limit, sizeof(*small), GFP_KERNEL);
	addrs = kvcalloc(limit, sizeof(*addrs), GFP_KERNEL);
	if (!handles || !small || !addrs)
		goto out;

	for (n = 0; n < limit; n++) {
		handles[n] = save_frames(SPLIT_FRAMES, STACK_DEPOT_FLAG_GET);
		if (!handles[n])
			break;
	}
	KUNIT_EXPECT_LT(test, n, limit);
	for (i = 1; i < n; i += 2) {
		KUNIT_EXPECT_EQ(test, stack_depot_fetch(handles[i], &frames),
				SPLIT_FRAMES);
		addrs[nr_addrs++] = (unsigned long)frames;
		stack_depot_put(handles[i]);
		handles[i] = 0;
	}
	sort(addrs, nr_addrs, sizeof(*addrs), cmp_addr, NULL);
	KUNIT_ASSERT_TRUE(test, wait_evictions_reusable());

	for (s = 0; s < limit && !next; s++) {
		reclaimed = stats().reclaimed_pools;
		small[s] = save_frames(3, STACK_DEPOT_FLAG_GET);
		if (!small[s])
			break;
		KUNIT_EXPECT_EQ(test, stack_depot_fetch(small[s], &frames), 3);
		addr = (unsigned long)frames;
		/* A pool carved anew meanwhile may place records alike. */
		if (stats().reclaimed_pools != reclaimed ||
		    (split && reclaimed != split_reclaimed)) {
			split = 0;
			continue;
		}
		if (split && addr > split && addr < split + 144) {
			next = addr;
			continue;
		}
		/* Another user may take the rest: then find another split. */
		if (split && ++tries < 16)
			continue;
		split = 0;
		tries = 0;
		if (bsearch(&addr, addrs, nr_addrs, sizeof(*addrs), cmp_addr)) {
			split = addr;
			split_reclaimed = reclaimed;
		}
	}
	KUNIT_EXPECT_NE_MSG(test, next, 0,
			    "%lu 3-frame saves, none in the rest of a split 144-byte slot",
			    s);
	KUNIT_EXPECT_EQ(test, (next - split) % 48, 0);

	/* Use up the rest of the slot: the records kept must be intact. */
	for (i = 0; i < 4 && s < limit; i++, s++) {
		small[s] = save_frames(3, STACK_DEPOT_FLAG_GET);
		if (!small[s])
			break;
	}
	for (i = 0; i < n; i += 2)
		KUNIT_EXPECT_EQ(test, stack_depot_fetch(handles[i], &frames),
				SPLIT_FRAMES);

	for (i = 0; i < min(s + 1, limit); i++)
		if (small[i])
			stack_depot_put(small[i]);
	for (i = 0; i < n; i++)
		if (handles[i])
			stack_depot_put(handles[i]);
	KUNIT_EXPECT_EQ(test, stats().bad_puts, before.bad_puts);
out:
	kvfree(addrs);
	kvfree(small);
	kvfree(handles);
	KUNIT_ASSERT_TRUE(test, handles && small && addrs);
}

static int stackdepot_cap_test_init(struct kunit *test)
{
	if (stack_depot_init() ||
	    !save_new(STACK_DEPOT_FLAG_CAN_ALLOC, GFP_KERNEL))
		kunit_skip(test, "stack depot disabled");
	return 0;
}

static struct kunit_case stackdepot_cap_test_cases[] = {
	KUNIT_CASE(test_cap),
	KUNIT_CASE(test_split),
	{}
};

static struct kunit_suite stackdepot_cap_test_suite = {
	.name = "stackdepot_cap",
	.init = stackdepot_cap_test_init,
	.test_cases = stackdepot_cap_test_cases,
};

kunit_test_suite(stackdepot_cap_test_suite);

MODULE_LICENSE("GPL");
