// SPDX-License-Identifier: GPL-2.0
/*
 * <linux/unwind_user.h> alone: unwind_user(), declared or stubbed
 * depending on CONFIG_UNWIND_USER.
 */
#include <linux/unwind_user.h>

unsigned int hdr_unwind_user(unsigned long *entries, unsigned int max);
unsigned int hdr_unwind_user(unsigned long *entries, unsigned int max)
{
	unsigned int stopped;

	return unwind_user(entries, max, &stopped) + stopped;
}
