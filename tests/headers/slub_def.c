// SPDX-License-Identifier: GPL-2.0
/* <linux/slub_def.h>, through <linux/slab.h>, which includes it. */
#include <linux/slab.h>
