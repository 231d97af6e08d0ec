// SPDX-License-Identifier: GPL-2.0
/* <linux/string.h> alone: every allocation macro it defines. */
#include <linux/string.h>

const void *hdr_string(int i, const char *s, const void __user *u);
const void *hdr_string(int i, const char *s, const void __user *u)
{
	switch (i) {
	case 0: return strndup_user(u, 16);
	case 1: return memdup_user(u, 16);
	case 2: return vmemdup_user(u, 16);
	case 3: return memdup_user_nul(u, 16);
	case 4: return memdup_array_user(u, 2, 8);
	case 5: return vmemdup_array_user(u, 2, 8);
	case 6: return kstrdup(s, 0);
	case 7: return kstrdup_const(s, 0);
	case 8: return kstrndup(s, 8, 0);
	case 9: return kmemdup(s, 8, 0);
	case 10: return __string_alloc_hooks(kstrdup_noprof(s, 0));
	default: return kmemdup_nul(s, 8, 0);
	}
}
