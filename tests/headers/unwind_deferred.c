// SPDX-License-Identifier: GPL-2.0
/*
 * <linux/unwind_deferred.h> alone: the API, declared or stubbed (-EOPNOTSUPP)
 * depending on CONFIG_UNWIND_DEFERRED, the cookie helpers and the hook
 * the entry code calls.
 */
#include <linux/unwind_deferred.h>

int hdr_unwind_deferred(struct unwind_work *work, u64 *cookie);
int hdr_unwind_deferred(struct unwind_work *work, u64 *cookie)
{
	int ret = unwind_deferred_request(work, cookie);

	unwind_deferred_exit_to_user();
	return ret ?: (int)unwind_cookie_cpu(*cookie) + (int)unwind_cookie_seq(*cookie);
}
