// SPDX-License-Identifier: GPL-2.0
/* <linux/vmalloc.h> alone: every allocation macro it defines. */
#include <linux/vmalloc.h>

void *hdr_vmalloc(int i);
void *hdr_vmalloc(int i)
{
	switch (i) {
	case 0: return vmalloc(100);
	case 1: return vzalloc(100);
	case 2: return vmalloc_user(100);
	case 3: return vmalloc_node(100, 0);
	case 4: return vzalloc_node(100, 0);
	case 5: return vmalloc_32(100);
	case 6: return vmalloc_32_user(100);
	case 7: return __vmalloc(100, GFP_KERNEL);
	case 8: return __vmalloc_node_range(100, 1, VMALLOC_START, VMALLOC_END,
					    GFP_KERNEL, PAGE_KERNEL, 0, 0,
					    __builtin_return_address(0));
	case 9: return __vmalloc_node(100, 1, GFP_KERNEL, 0,
				      __builtin_return_address(0));
	case 10: return vmalloc_huge(100, GFP_KERNEL);
	case 11: return __vmalloc_array(2, 100, GFP_KERNEL);
	case 12: return vmalloc_array(2, 100);
	case 13: return __vcalloc(2, 100, GFP_KERNEL);
	default: return vcalloc(2, 100);
	}
}
