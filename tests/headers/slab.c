// SPDX-License-Identifier: GPL-2.0
/* <linux/slab.h> alone: every allocation macro it defines. */
#include <linux/slab.h>

void *hdr_slab(int i, struct kmem_cache *s, struct list_lru *lru, void *p,
	       void **array);
void *hdr_slab(int i, struct kmem_cache *s, struct list_lru *lru, void *p,
	       void **array)
{
	switch (i) {
	case 0: return kmem_cache_alloc(s, GFP_KERNEL);
	case 1: return kmem_cache_alloc_lru(s, lru, GFP_KERNEL);
	case 2: return kmem_cache_alloc_node(s, GFP_KERNEL, 0);
	case 3: return kmem_cache_zalloc(s, GFP_KERNEL);
	case 4: return (void *)(long)kmem_cache_alloc_bulk(s, GFP_KERNEL, 2, array);
	case 5: return __kmalloc(100, GFP_KERNEL);
	case 6: return __kmalloc_node(100, GFP_KERNEL, 0);
	case 7: return kmalloc_trace(s, GFP_KERNEL, 100);
	case 8: return kmalloc_node_trace(s, GFP_KERNEL, 0, 100);
	case 9: return kmalloc_large(1 << 20, GFP_KERNEL);
	case 10: return kmalloc_large_node(1 << 20, GFP_KERNEL, 0);
	case 11: return kmalloc(100, GFP_KERNEL);
	case 12: return kmalloc_node(100, GFP_KERNEL, 0);
	case 13: return kzalloc(100, GFP_KERNEL);
	case 14: return kzalloc_node(100, GFP_KERNEL, 0);
	case 15: return kmalloc_array(2, 100, GFP_KERNEL);
	case 16: return kmalloc_array_node(2, 100, GFP_KERNEL, 0);
	case 17: return kcalloc(2, 100, GFP_KERNEL);
	case 18: return kcalloc_node(2, 100, GFP_KERNEL, 0);
	case 19: return krealloc(p, 200, GFP_KERNEL);
	case 20: return krealloc_array(p, 2, 200, GFP_KERNEL);
	case 21: return __kmalloc_node_track_caller(100, GFP_KERNEL, 0, _RET_IP_);
	case 22: return kmalloc_node_track_caller(100, GFP_KERNEL, 0);
	case 23: return kmalloc_track_caller(100, GFP_KERNEL);
	case 24: return kvmalloc_node(100, GFP_KERNEL, 0);
	case 25: return kvmalloc(100, GFP_KERNEL);
	case 26: return kvzalloc(100, GFP_KERNEL);
	case 27: return kvzalloc_node(100, GFP_KERNEL, 0);
	case 28: return kvmalloc_array(2, 100, GFP_KERNEL);
	case 29: return kvcalloc(2, 100, GFP_KERNEL);
	default: return kvrealloc(p, 100, 200, GFP_KERNEL);
	}
}
