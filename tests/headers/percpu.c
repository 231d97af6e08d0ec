// SPDX-License-Identifier: GPL-2.0
/* <linux/percpu.h> alone: every allocation macro it defines. */
#include <linux/percpu.h>

void __percpu *hdr_percpu(int i);
void __percpu *hdr_percpu(int i)
{
	switch (i) {
	case 0: return alloc_percpu(long);
	case 1: return alloc_percpu_gfp(long, GFP_KERNEL);
	case 2: return __alloc_percpu(8, 8);
	case 3: return __alloc_percpu_gfp(8, 8, GFP_KERNEL);
	default: return __alloc_reserved_percpu(8, 8);
	}
}
