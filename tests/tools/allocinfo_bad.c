// SPDX-License-Identifier: GPL-2.0
/*
 * allocinfo_bad: the ioctl()s of /proc/allocinfo on bad and edge input.
 * Prints "CASE RESULT" per case, RESULT an errno name or "ok":
 *
 *   content_id ok          get_at_bad_mask EINVAL   get_at_min_gt_max EINVAL
 *   get_at_far ENOENT      get_at_0 ok              get_next ok
 *   unknown_cmd ENOTTY
 *
 * The structures are written out here by offset (mainline's
 * <linux/alloc_tag.h> is not in the host's headers); the request numbers
 * carry their sizes, so a layout that differs from mainline's fails too.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>

#define GET_AT_SIZE	464	/* pos, filter (232), data (224) */
#define DATA_SIZE	224
#define OFF_MASK	8	/* filter.mask */
#define OFF_MIN		216	/* filter.min_size */
#define OFF_MAX		224	/* filter.max_size */

#define IOC_CONTENT_ID	_IOR(0xA6, 0, uint64_t)
#define IOC_GET_AT	_IOWR(0xA6, 1, char[GET_AT_SIZE])
#define IOC_GET_NEXT	_IOR(0xA6, 2, char[DATA_SIZE])

static int fd;

static void report(const char *name, int ret)
{
	printf("%s %s\n", name, !ret ? "ok" : errno == EINVAL ? "EINVAL" :
	       errno == ENOENT ? "ENOENT" : errno == ENOTTY ? "ENOTTY" :
	       strerror(errno));
}

static int get_at(uint64_t pos, uint64_t mask, uint64_t min, uint64_t max)
{
	unsigned char p[GET_AT_SIZE] = { 0 };

	memcpy(p, &pos, 8);
	memcpy(p + OFF_MASK, &mask, 8);
	memcpy(p + OFF_MIN, &min, 8);
	memcpy(p + OFF_MAX, &max, 8);
	return ioctl(fd, IOC_GET_AT, p);
}

int main(void)
{
	unsigned char data[DATA_SIZE];
	uint64_t id;

	fd = open("/proc/allocinfo", O_RDONLY);
	if (fd < 0) {
		perror("/proc/allocinfo");
		return 1;
	}
	report("content_id", ioctl(fd, IOC_CONTENT_ID, &id));
	report("get_at_bad_mask", get_at(0, 1 << 7, 0, 0));
	report("get_at_min_gt_max", get_at(0, 3 << 5, 2, 1));
	report("get_at_far", get_at(1ULL << 40, 0, 0, 0));
	report("get_at_0", get_at(0, 0, 0, 0));
	report("get_next", ioctl(fd, IOC_GET_NEXT, data));
	report("unknown_cmd", ioctl(fd, _IO(0xA6, 9)));
	return 0;
}
