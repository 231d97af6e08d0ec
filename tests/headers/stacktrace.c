// SPDX-License-Identifier: GPL-2.0
/*
 * <linux/stacktrace.h> alone: stack_trace_save_shadow(), declared or
 * stubbed (-EOPNOTSUPP) depending on CONFIG_HAVE_SHADOW_STACKTRACE.
 */
#include <linux/stacktrace.h>

int hdr_stacktrace(unsigned long *store, unsigned int size);
int hdr_stacktrace(unsigned long *store, unsigned int size)
{
	return stack_trace_save_shadow(store, size, 0);
}
