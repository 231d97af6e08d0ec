// SPDX-License-Identifier: GPL-2.0
/* <linux/codetag.h> alone. */
#include <linux/codetag.h>
