// SPDX-License-Identifier: GPL-2.0
/* <linux/pgalloc_tag.h> alone: its page tag helpers compile without mm.h. */
#include <linux/pgalloc_tag.h>

struct alloc_tag *hdr_pgalloc_tag_get(struct page *page);
struct alloc_tag *hdr_pgalloc_tag_get(struct page *page)
{
	clear_page_tag_ref(page);
	return pgalloc_tag_get(page);
}
