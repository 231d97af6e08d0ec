// SPDX-License-Identifier: GPL-2.0
/* <linux/mm.h> alone: its page-table allocation macros. */
#include <linux/mm.h>

long hdr_mm(int i, struct mm_struct *mm, pmd_t *pmd, spinlock_t **ptl);
long hdr_mm(int i, struct mm_struct *mm, pmd_t *pmd, spinlock_t **ptl)
{
	switch (i) {
	case 0: return pte_alloc(mm, pmd);
	case 1: return (long)pte_alloc_map(mm, pmd, 0);
	case 2: return (long)pte_alloc_map_lock(mm, pmd, 0, ptl);
	default: return (long)pte_alloc_kernel(pmd, 0);
	}
}
