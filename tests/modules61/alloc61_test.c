// SPDX-License-Identifier: GPL-2.0
/*
 * A module as a vendor builds it for a 6.1 kernel: compiled against the
 * unpatched 6.1 tree, so that it calls the allocators by 6.1's names
 * (__kmalloc(), kmalloc_trace(), kstrdup(), vmalloc(), kvmalloc_node(),
 * __alloc_pages(), kmem_cache_alloc()), and loaded into the patched
 * kernel by tests/guest/56-modules61.sh.  It loads only if the patched
 * kernel still exports those names; it allocates once through each and
 * holds the memory until it is unloaded, so that the guest test can find
 * each allocation charged to the line of the 6.1 name in /proc/allocinfo.
 */
#include <linux/gfp.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/vmalloc.h>

/* Not a constant, so that kmalloc() calls __kmalloc(). */
static unsigned int size = 3000;
module_param(size, uint, 0444);

static void *km, *kt, *vm, *kv, *obj;
static char *str;
static struct page *pages;
static struct kmem_cache *cache;

static void alloc61_free(void)
{
	if (obj)
		kmem_cache_free(cache, obj);
	kmem_cache_destroy(cache);
	if (pages)
		__free_pages(pages, 1);
	kvfree(kv);
	vfree(vm);
	kfree(str);
	kfree(kt);
	kfree(km);
}

static int __init alloc61_init(void)
{
	km = kmalloc(size, GFP_KERNEL);
	/* A constant size: kmalloc_trace() on 6.1's kmalloc caches. */
	kt = kmalloc(200, GFP_KERNEL);
	str = kstrdup("alloc61_test", GFP_KERNEL);
	vm = vmalloc(3 * PAGE_SIZE);
	kv = kvmalloc(size, GFP_KERNEL);
	pages = alloc_pages(GFP_KERNEL, 1);
	cache = kmem_cache_create("alloc61_test", 100, 0, 0, NULL);
	if (cache)
		obj = kmem_cache_alloc(cache, GFP_KERNEL);
	if (!km || !kt || !str || !vm || !kv || !pages || !obj) {
		alloc61_free();
		return -ENOMEM;
	}
	pr_info("alloc61_test: holding 7 allocations\n");
	return 0;
}

static void __exit alloc61_exit(void)
{
	alloc61_free();
}

module_init(alloc61_init);
module_exit(alloc61_exit);
MODULE_DESCRIPTION("6.1's allocator names, from a module built against 6.1");
MODULE_LICENSE("GPL");
