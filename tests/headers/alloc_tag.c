// SPDX-License-Identifier: GPL-2.0
/* <linux/alloc_tag.h> alone: alloc_hooks() around a call. */
#include <linux/alloc_tag.h>

int hdr_alloc_tag_callee(int i);
int hdr_alloc_tag(int i);
int hdr_alloc_tag(int i)
{
	return alloc_hooks(hdr_alloc_tag_callee(i));
}
