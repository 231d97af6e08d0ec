// SPDX-License-Identifier: GPL-2.0
/*
 * <linux/alloc_tag.h> alone: its charge and uncharge helpers compile
 * without the headers that usually come first.  alloc_hooks() expands to
 * alloc_tag_save() and alloc_tag_restore() of <linux/sched.h> (so in 7.3
 * already), which is included after it for that macro only.
 */
#include <linux/alloc_tag.h>
#include <linux/sched.h>

void *hdr_alloc_tag_noprof(void);
void *hdr_alloc_tag_noprof(void)
{
	return NULL;
}

void *hdr_alloc_tag(union codetag_ref *ref, struct alloc_tag *tag);
void *hdr_alloc_tag(union codetag_ref *ref, struct alloc_tag *tag)
{
	alloc_tag_add(ref, tag, 8);
	alloc_tag_sub(ref, 8);
	return alloc_hooks(hdr_alloc_tag_noprof());
}
