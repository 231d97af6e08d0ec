// SPDX-License-Identifier: GPL-2.0
/* <linux/page-flags-layout.h>, through <linux/mmzone.h>, which includes it. */
#include <linux/mmzone.h>
