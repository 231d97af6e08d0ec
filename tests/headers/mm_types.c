// SPDX-License-Identifier: GPL-2.0
/* <linux/mm_types.h> alone. */
#include <linux/mm_types.h>
