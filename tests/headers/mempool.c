// SPDX-License-Identifier: GPL-2.0
/* <linux/mempool.h> alone: every allocation macro it defines. */
#include <linux/mempool.h>

void *hdr_mempool(int i, mempool_t *pool, struct kmem_cache *kc);
void *hdr_mempool(int i, mempool_t *pool, struct kmem_cache *kc)
{
	switch (i) {
	case 0: return (void *)(long)mempool_init_node(pool, 1, mempool_alloc_slab,
						       mempool_free_slab, kc,
						       GFP_KERNEL, 0);
	case 1: return (void *)(long)mempool_init(pool, 1, mempool_alloc_slab,
						  mempool_free_slab, kc);
	case 2: return mempool_create(1, mempool_alloc_slab, mempool_free_slab, kc);
	case 3: return mempool_create_node(1, mempool_alloc_slab, mempool_free_slab,
					   kc, GFP_KERNEL, 0);
	case 4: return mempool_alloc(pool, GFP_KERNEL);
	case 5: return (void *)(long)mempool_init_slab_pool(pool, 1, kc);
	case 6: return mempool_create_slab_pool(1, kc);
	case 7: return (void *)(long)mempool_init_kmalloc_pool(pool, 1, 100);
	case 8: return mempool_create_kmalloc_pool(1, 100);
	case 9: return (void *)(long)mempool_init_page_pool(pool, 1, 0);
	default: return mempool_create_page_pool(1, 0);
	}
}
