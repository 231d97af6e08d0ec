// SPDX-License-Identifier: GPL-2.0
/* <linux/mmzone.h> alone. */
#include <linux/mmzone.h>
