// SPDX-License-Identifier: GPL-2.0
/*
 * readall FILE OUT CHUNK [OUT CHUNK]...: read FILE once per OUT, with read()
 * calls of CHUNK bytes each, then write each read to its OUT file.
 *
 * For comparing reads of a file whose content depends on the pages the
 * kernel has allocated (page_owner_stacks): one process does all the reads,
 * into static buffers touched before the first one, and writes nothing
 * until the last one is done, so neither the reader nor the files it writes
 * allocate or free a page while the file is read, whatever the CHUNKs.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MAX_READS	4
#define READ_MAX	(4 << 20)

static char buf[MAX_READS][READ_MAX];
static size_t len[MAX_READS];

static int read_file(const char *path, size_t chunk, char *to, size_t *lenp)
{
	size_t done = 0, want;
	ssize_t n;
	int fd;

	fd = open(path, O_RDONLY);
	if (fd < 0) {
		perror(path);
		return -1;
	}
	while (done < READ_MAX) {
		want = READ_MAX - done < chunk ? READ_MAX - done : chunk;
		n = read(fd, to + done, want);
		if (n < 0) {
			perror("read");
			return -1;
		}
		if (!n)
			break;
		done += n;
	}
	close(fd);
	if (done == READ_MAX) {
		fprintf(stderr, "readall: %s is larger than %d bytes\n", path,
			READ_MAX);
		return -1;
	}
	*lenp = done;
	return 0;
}

static int write_file(const char *path, const char *from, size_t size)
{
	size_t done;
	ssize_t n;
	int fd;

	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0) {
		perror(path);
		return -1;
	}
	for (done = 0; done < size; done += n) {
		n = write(fd, from + done, size - done);
		if (n <= 0) {
			perror(path);
			return -1;
		}
	}
	return close(fd);
}

int main(int argc, char **argv)
{
	int nr = (argc - 2) / 2, i;

	if (argc < 4 || argc % 2 || nr > MAX_READS) {
		fprintf(stderr, "usage: readall FILE OUT CHUNK [OUT CHUNK]... (at most %d)\n",
			MAX_READS);
		return 2;
	}
	for (i = 0; i < nr; i++)
		if (!strtoul(argv[3 + 2 * i], NULL, 0)) {
			fprintf(stderr, "readall: bad CHUNK %s\n", argv[3 + 2 * i]);
			return 2;
		}
	memset(buf, 0, sizeof(buf));
	for (i = 0; i < nr; i++)
		if (read_file(argv[1], strtoul(argv[3 + 2 * i], NULL, 0),
			      buf[i], &len[i]))
			return 1;
	for (i = 0; i < nr; i++)
		if (write_file(argv[2 + 2 * i], buf[i], len[i]))
			return 1;
	return 0;
}
