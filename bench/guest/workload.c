// SPDX-License-Identifier: GPL-2.0
/*
 * workload: user-space work for make bench's workload variants, run in the
 * guest as /bin/workload (static; scripts/initramfs.sh builds it).
 *
 * Five workloads, each a loop of OPS operations after a warm-up of a tenth
 * of them, timed with CLOCK_MONOTONIC.  Under QEMU's -icount shift=0 the
 * guest clock advances one nanosecond per guest instruction, so the time
 * of a loop is the number of instructions it took (user and kernel; the
 * guest has one vCPU and none of the workloads sleeps with nothing else
 * runnable, so no idle time enters it):
 *
 *   wl-fork-exec  fork, exec of this program (which exits at once), wait
 *   wl-tmpfs      create a file in /tmp, write 64 KiB, read it back, unlink
 *   wl-pipe       a 100-byte message and its answer between two processes
 *                 over two pipes (hackbench's message size)
 *   wl-anon       map 1 MiB of anonymous memory, write every page, unmap
 *   wl-walk       walk a tree of 16 directories of 32 files (stat of each
 *                 entry, as find -exec stat does), made once beforehand
 *
 * Prints "workload_bench: case=NAME ops=N ns=T ns_per_op=X.Y" per
 * workload.  With -c it also reads the allocators' event counters around
 * each loop (a kernel with CONFIG_SLUB_STATS and VM event counters: make
 * bench's x86_64-bench-count) and prints "workload_bench: metric=NAME-slab
 * value=X" and "metric=NAME-pages value=X": slab objects and pages
 * allocated per operation.  -n SCALE multiplies the operation counts.
 * -o NAME runs only the workload NAME; -p prints "workload_bench: profile
 * start" and waits a second before its timed loop, and prints
 * "workload_bench: profile end" after it (bench/profile.sh turns QEMU's
 * execution log on and off there).
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define ANON_BYTES	(1 << 20)
#define FILE_BYTES	(64 << 10)
#define MSG_BYTES	100
#define TREE_DIRS	16
#define TREE_FILES	32

static const char *self;
static char buf[FILE_BYTES];

static void die(const char *what)
{
	fprintf(stderr, "workload: %s: %s\n", what, strerror(errno));
	exit(1);
}

static unsigned long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

static void fork_exec(unsigned int n)
{
	char *argv[] = { (char *)self, "-x", NULL };
	char *envp[] = { NULL };

	while (n--) {
		pid_t pid = fork();
		int status;

		if (pid < 0)
			die("fork");
		if (!pid) {
			execve(self, argv, envp);
			_exit(127);
		}
		if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) ||
		    WEXITSTATUS(status))
			die("exec of self");
	}
}

static void tmpfs_cycle(unsigned int n)
{
	while (n--) {
		int fd = open("/tmp/wl-file", O_CREAT | O_TRUNC | O_RDWR, 0600);

		if (fd < 0)
			die("open /tmp/wl-file");
		if (write(fd, buf, FILE_BYTES) != FILE_BYTES)
			die("write");
		if (pread(fd, buf, FILE_BYTES, 0) != FILE_BYTES)
			die("read");
		close(fd);
		if (unlink("/tmp/wl-file"))
			die("unlink");
	}
}

static void pipe_pingpong(unsigned int n)
{
	int ping[2], pong[2], status;
	char msg[MSG_BYTES] = "";
	pid_t pid;

	if (pipe(ping) || pipe(pong))
		die("pipe");
	pid = fork();
	if (pid < 0)
		die("fork");
	if (!pid) {
		close(ping[1]);
		close(pong[0]);
		while (read(ping[0], msg, MSG_BYTES) == MSG_BYTES)
			if (write(pong[1], msg, MSG_BYTES) != MSG_BYTES)
				_exit(1);
		_exit(0);
	}
	close(ping[0]);
	close(pong[1]);
	while (n--) {
		if (write(ping[1], msg, MSG_BYTES) != MSG_BYTES ||
		    read(pong[0], msg, MSG_BYTES) != MSG_BYTES)
			die("pipe message");
	}
	close(ping[1]);
	close(pong[0]);
	if (waitpid(pid, &status, 0) != pid)
		die("wait");
}

static void anon_touch(unsigned int n)
{
	long page = sysconf(_SC_PAGESIZE);

	while (n--) {
		char *p = mmap(NULL, ANON_BYTES, PROT_READ | PROT_WRITE,
			       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

		if (p == MAP_FAILED)
			die("mmap");
		for (long off = 0; off < ANON_BYTES; off += page)
			p[off] = 1;
		if (munmap(p, ANON_BYTES))
			die("munmap");
	}
}

static void tree_make(void)
{
	char path[64];

	mkdir("/tmp/wl-tree", 0700);
	for (int d = 0; d < TREE_DIRS; d++) {
		snprintf(path, sizeof(path), "/tmp/wl-tree/d%d", d);
		if (mkdir(path, 0700) && errno != EEXIST)
			die("mkdir");
		for (int f = 0; f < TREE_FILES; f++) {
			int fd;

			snprintf(path, sizeof(path), "/tmp/wl-tree/d%d/f%d", d, f);
			fd = open(path, O_CREAT | O_WRONLY, 0600);
			if (fd < 0 || write(fd, buf, 100) != 100)
				die("tree file");
			close(fd);
		}
	}
}

static unsigned int walk_dir(const char *dir)
{
	unsigned int seen = 0;
	struct dirent *e;
	char path[300];
	struct stat st;
	DIR *d = opendir(dir);

	if (!d)
		die("opendir");
	while ((e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		if (lstat(path, &st))
			die("lstat");
		seen++;
		if (S_ISDIR(st.st_mode))
			seen += walk_dir(path);
	}
	closedir(d);
	return seen;
}

static void tree_walk(unsigned int n)
{
	while (n--)
		if (walk_dir("/tmp/wl-tree") != TREE_DIRS * (TREE_FILES + 1))
			die("walk: wrong number of entries");
}

/* The first number of each /sys/kernel/slab/<cache>/<stat>, summed. */
static unsigned long long slab_events(void)
{
	static const char * const stats[] = { "alloc_fastpath", "alloc_slowpath" };
	unsigned long long sum = 0;
	struct dirent *e;
	DIR *d = opendir("/sys/kernel/slab");

	if (!d)
		die("/sys/kernel/slab");
	while ((e = readdir(d))) {
		/* A merged cache's other names are links to its directory. */
		if (e->d_type == DT_LNK || e->d_name[0] == '.')
			continue;
		for (int i = 0; i < 2; i++) {
			char path[300];
			unsigned long long v;
			FILE *f;

			snprintf(path, sizeof(path), "/sys/kernel/slab/%s/%s",
				 e->d_name, stats[i]);
			f = fopen(path, "r");
			if (!f)
				continue;
			if (fscanf(f, "%llu", &v) == 1)
				sum += v;
			fclose(f);
		}
	}
	closedir(d);
	return sum;
}

/* The pgalloc_<zone> lines of /proc/vmstat, summed: pages allocated. */
static unsigned long long page_events(void)
{
	unsigned long long sum = 0, v;
	char name[64];
	FILE *f = fopen("/proc/vmstat", "r");

	if (!f)
		die("/proc/vmstat");
	while (fscanf(f, "%63s %llu", name, &v) == 2)
		if (!strncmp(name, "pgalloc_", 8))
			sum += v;
	fclose(f);
	return sum;
}

static const struct {
	const char *name;
	void (*fn)(unsigned int n);
	unsigned int ops;
} cases[] = {
	{ "wl-fork-exec", fork_exec, 200 },
	{ "wl-tmpfs", tmpfs_cycle, 400 },
	{ "wl-pipe", pipe_pingpong, 4000 },
	{ "wl-anon", anon_touch, 100 },
	{ "wl-walk", tree_walk, 40 },
};

int main(int argc, char **argv)
{
	unsigned long long slab_cost = 0, page_cost = 0;
	unsigned int scale = 1;
	const char *only = NULL;
	int count = 0, profile = 0, opt;

	if (argc == 2 && !strcmp(argv[1], "-x"))
		_exit(0);
	self = argv[0][0] == '/' ? argv[0] : "/bin/workload";
	while ((opt = getopt(argc, argv, "cn:o:p")) != -1) {
		switch (opt) {
		case 'c':
			count = 1;
			break;
		case 'o':
			only = optarg;
			break;
		case 'p':
			profile = 1;
			break;
		case 'n':
			scale = strtoul(optarg, NULL, 0);
			break;
		default:
			fprintf(stderr, "usage: workload [-c] [-p] [-n SCALE] [-o NAME]\n");
			return 2;
		}
	}
	if (!scale) {
		fprintf(stderr, "workload: -n takes a positive number\n");
		return 2;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	tree_make();
	/* What reading the counters allocates itself, taken off each count. */
	if (count) {
		unsigned long long s0 = slab_events(), p0 = page_events();

		slab_cost = slab_events() - s0;
		page_cost = page_events() - p0;
	}
	for (unsigned int i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		unsigned int n = cases[i].ops * scale;
		unsigned long long t;
		long long slab = 0, pages = 0;

		if (only && strcmp(only, cases[i].name))
			continue;
		cases[i].fn(n / 10 ? n / 10 : 1);
		if (profile) {
			printf("workload_bench: profile start\n");
			sleep(1);
		}
		if (count) {
			slab = slab_events();
			pages = page_events();
		}
		t = now_ns();
		cases[i].fn(n);
		t = now_ns() - t;
		if (profile)
			printf("workload_bench: profile end\n");
		if (count) {
			/* At least 0: the correction is an estimate. */
			slab = (long long)(slab_events() - slab - slab_cost);
			pages = (long long)(page_events() - pages - page_cost);
			slab = slab < 0 ? 0 : slab;
			pages = pages < 0 ? 0 : pages;
		}
		printf("workload_bench: case=%s ops=%u ns=%llu ns_per_op=%llu.%llu\n",
		       cases[i].name, n, t, t / n, t % n * 10 / n);
		if (count) {
			printf("workload_bench: metric=%s-slab value=%.1f\n",
			       cases[i].name, (double)slab / n);
			printf("workload_bench: metric=%s-pages value=%.1f\n",
			       cases[i].name, (double)pages / n);
		}
	}
	printf("workload_bench: done\n");
	return 0;
}
