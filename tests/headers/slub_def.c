// SPDX-License-Identifier: GPL-2.0
/*
 * <linux/slub_def.h> is not self-contained, in 6.1 as with the series: its
 * inline helpers use struct slab of mm/slab.h, the only file that includes
 * it (nothing under include/ does), and mm/slab.h relies on what the mm/
 * files include before it.  Checked as mm/slub.c sees it.
 */
#include <linux/mm.h>
#include <linux/slab.h>
#include <../mm/slab.h>
