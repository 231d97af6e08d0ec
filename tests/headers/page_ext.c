// SPDX-License-Identifier: GPL-2.0
/* <linux/page_ext.h> alone. */
#include <linux/page_ext.h>
