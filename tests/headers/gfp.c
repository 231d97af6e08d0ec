// SPDX-License-Identifier: GPL-2.0
/* <linux/gfp.h> alone: every allocation macro it defines. */
#include <linux/gfp.h>

unsigned long hdr_gfp(int i, struct vm_area_struct *vma, struct page **pages,
		      struct list_head *list, struct page_frag_cache *nc);
unsigned long hdr_gfp(int i, struct vm_area_struct *vma, struct page **pages,
		      struct list_head *list, struct page_frag_cache *nc)
{
	switch (i) {
	case -1: return (unsigned long)page_frag_alloc(nc, 64, GFP_KERNEL);
	case -2: return (unsigned long)page_frag_alloc_align(nc, 64, GFP_KERNEL, ~63u);
	case 0: return (unsigned long)__alloc_pages(GFP_KERNEL, 0, 0, NULL);
	case 1: return (unsigned long)__folio_alloc(GFP_KERNEL, 0, 0, NULL);
	case 2: return __alloc_pages_bulk(GFP_KERNEL, 0, NULL, 1, list, NULL);
	case 3: return alloc_pages_bulk_array_mempolicy(GFP_KERNEL, 1, pages);
	case 4: return alloc_pages_bulk_list(GFP_KERNEL, 1, list);
	case 5: return alloc_pages_bulk_array(GFP_KERNEL, 1, pages);
	case 6: return alloc_pages_bulk_array_node(GFP_KERNEL, 0, 1, pages);
	case 7: return (unsigned long)__alloc_pages_node(0, GFP_KERNEL, 0);
	case 8: return (unsigned long)__folio_alloc_node(GFP_KERNEL, 0, 0);
	case 9: return (unsigned long)alloc_pages_node(0, GFP_KERNEL, 0);
	case 10: return (unsigned long)alloc_pages(GFP_KERNEL, 0);
	case 11: return (unsigned long)folio_alloc(GFP_KERNEL, 0);
	case 12: return (unsigned long)vma_alloc_folio(GFP_KERNEL, 0, vma, 0, false);
	case 13: return (unsigned long)alloc_page(GFP_KERNEL);
	case 14: return (unsigned long)alloc_page_vma(GFP_KERNEL, vma, 0);
	case 15: return __get_free_pages(GFP_KERNEL, 0);
	case 16: return __get_free_page(GFP_KERNEL);
	case 17: return get_zeroed_page(GFP_KERNEL);
	case 18: return (unsigned long)alloc_pages_exact(4096, GFP_KERNEL);
	case 19: return (unsigned long)alloc_pages_exact_nid(0, 4096, GFP_KERNEL);
#ifdef CONFIG_CONTIG_ALLOC
	case 20: return alloc_contig_range(0, 1, MIGRATE_MOVABLE, GFP_KERNEL);
	case 21: return (unsigned long)alloc_contig_pages(1, GFP_KERNEL, 0, NULL);
#endif
	default: return __get_dma_pages(GFP_KERNEL, 0);
	}
}
