// SPDX-License-Identifier: GPL-2.0
/* <linux/fs.h> alone: every allocation macro it defines. */
#include <linux/fs.h>

void *hdr_fs(struct super_block *sb, struct kmem_cache *cache);
void *hdr_fs(struct super_block *sb, struct kmem_cache *cache)
{
	return alloc_inode_sb(sb, cache, GFP_KERNEL);
}
