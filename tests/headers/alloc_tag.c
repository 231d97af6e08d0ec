// SPDX-License-Identifier: GPL-2.0
/* <linux/alloc_tag.h> alone: alloc_hooks() around a call. */
#include <linux/alloc_tag.h>

int hdr_alloc_tag_callee(int i);
int hdr_alloc_tag(int i);
int hdr_alloc_tag(int i)
{
	return alloc_hooks(hdr_alloc_tag_callee(i));
}

/* The context hooks (CONFIG_MEM_ALLOC_PROFILING_CONTEXT or their stubs). */
void hdr_alloc_ctx(struct alloc_tag *tag, const void *p);
void hdr_alloc_ctx(struct alloc_tag *tag, const void *p)
{
	bool paused = alloc_ctx_pause();

	alloc_ctx_add(tag, ALLOC_CTX_SLAB, p, 64);
	alloc_ctx_move(tag, ALLOC_CTX_PAGE, p, p);
	alloc_ctx_del(tag, ALLOC_CTX_SLAB, p);
	alloc_ctx_resume(paused);
}
