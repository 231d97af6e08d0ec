// SPDX-License-Identifier: GPL-2.0
/* <linux/sched.h> alone. */
#include <linux/sched.h>
