// SPDX-License-Identifier: GPL-2.0
/* <linux/pgalloc_tag.h> alone. */
#include <linux/pgalloc_tag.h>
