// SPDX-License-Identifier: GPL-2.0
/* <linux/alloc_tag_defs.h> alone: alloc_hooks_outline() around a call. */
#include <linux/alloc_tag_defs.h>

int hdr_alloc_tag_defs_callee(int i);
int hdr_alloc_tag_defs(int i);
int hdr_alloc_tag_defs(int i)
{
	return alloc_hooks_outline(hdr_alloc_tag_defs_callee(i));
}
