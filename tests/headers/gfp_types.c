// SPDX-License-Identifier: GPL-2.0
/*
 * <linux/gfp_types.h> alone, and the gfp bits of 6.1 keep their values
 * (raw tracepoint values, binary modules): __GFP_NO_OBJ_EXT takes a bit
 * only where slabs have object extensions, the next free one.
 */
#include <linux/gfp_types.h>

_Static_assert(___GFP_ZEROTAGS == 0x800000u, "6.1's gfp bits moved");
#ifdef CONFIG_KASAN_HW_TAGS
_Static_assert(___GFP_SKIP_KASAN_POISON == 0x4000000u, "6.1's gfp bits moved");
#endif
#ifdef CONFIG_LOCKDEP
_Static_assert(___GFP_NOLOCKDEP == 0x8000000u, "__GFP_NOLOCKDEP moved");
#endif
#ifdef CONFIG_SLAB_OBJ_EXT
_Static_assert(___GFP_NO_OBJ_EXT == 1u << (27 + IS_ENABLED(CONFIG_LOCKDEP)),
	       "__GFP_NO_OBJ_EXT is not the next free bit");
#else
_Static_assert(___GFP_NO_OBJ_EXT == 0, "__GFP_NO_OBJ_EXT takes a bit");
#endif
/* Every bit is below __GFP_BITS_SHIFT; radix-tree's tags fit above it. */
_Static_assert(((___GFP_NOLOCKDEP | ___GFP_NO_OBJ_EXT | ___GFP_ZEROTAGS) >>
		__GFP_BITS_SHIFT) == 0, "a gfp bit above __GFP_BITS_SHIFT");
_Static_assert(3 + __GFP_BITS_SHIFT <= 32, "no room for radix-tree's tags");
