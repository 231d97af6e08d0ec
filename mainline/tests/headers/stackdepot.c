// SPDX-License-Identifier: GPL-2.0
/* <linux/stackdepot.h> alone. */
#include <linux/stackdepot.h>
