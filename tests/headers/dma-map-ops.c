// SPDX-License-Identifier: GPL-2.0
/* <linux/dma-map-ops.h> alone. */
#include <linux/dma-map-ops.h>
