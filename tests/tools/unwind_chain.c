// SPDX-License-Identifier: GPL-2.0
/*
 * unwind_chain: a user program with a known call chain, for the guest test
 * of deferred user-space unwinding (tests/guest/54-unwind.sh).  Built
 * static, without PIE and with frame pointers (build-flags below), so that
 * the kernel's frame-pointer walk finds main -> chain_one -> ... ->
 * chain_five and the addresses resolve against the symbol table that
 * scripts/initramfs.sh saves beside it (/tests/unwind_chain.syms).
 *
 * chain_five makes the system call itself (inline "syscall"), so that the
 * user instruction pointer saved at kernel entry is in chain_five and each
 * caller's return address is in a frame record.
 *
 *   unwind_chain request N     write "N" to unwind_test/request
 *   unwind_chain twice         write "1" twice: two kernel entries
 *   unwind_chain kill N        write "N kill": killed with requests pending
 *   unwind_chain cancel N      write "N cancel"
 *   unwind_chain again         write "1 again"
 *   unwind_chain nmi N         write "N nmi"
 *   unwind_chain tmpfs FILE    write one page to FILE (allocations.ctx)
 *   unwind_chain tmpfs-big FILE  write BIG_PAGES pages to FILE in one
 *                              write(): that many contexts of one entry
 *   unwind_chain exec          execve itself as "unwind_chain show"
 *   unwind_chain show          print allocations.ctx (while its mm lives)
 *   unwind_chain deep D MS     pin to CPU 0, recurse D frames, then spin
 *                              MS ms in user space under the test timer,
 *                              with a getppid() every 200 us; prints
 *                              "syscalls=N"
 */
// build-flags: -O1 -fno-omit-frame-pointer -mno-omit-leaf-frame-pointer -fno-inline -fno-optimize-sibling-calls -no-pie
#define _GNU_SOURCE
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#define DIR "/sys/kernel/debug/unwind_test/"

/* More than two of the callback's sections of 256 contexts. */
#define BIG_PAGES 600

static const char *cmd, *arg;
static char buf[4096];
static char big[BIG_PAGES * 4096];
static int fd;
static long result;

static inline __attribute__((always_inline)) long sys3(long n, long a, long b, long c)
{
	long ret;

	asm volatile("syscall" : "=a"(ret) : "a"(n), "D"(a), "S"(b), "d"(c)
		     : "rcx", "r11", "memory");
	return ret;
}

/* The innermost function: the system call is made from here. */
__attribute__((noinline)) void chain_five(void)
{
	static char *argv[] = { "unwind_chain", "show", NULL };

	if (!strcmp(cmd, "exec"))
		result = sys3(SYS_execve, (long)"/bin/unwind_chain", (long)argv, (long)environ);
	else if (!strcmp(cmd, "tmpfs-big"))
		result = sys3(SYS_write, fd, (long)big, sizeof(big));
	else
		result = sys3(SYS_write, fd, (long)buf, strlen(buf) ? strlen(buf) : sizeof(buf));
	asm volatile("" ::: "memory");
}

__attribute__((noinline)) void chain_four(void) { chain_five(); asm volatile(""); }
__attribute__((noinline)) void chain_three(void) { chain_four(); asm volatile(""); }
__attribute__((noinline)) void chain_two(void) { chain_three(); asm volatile(""); }
__attribute__((noinline)) void chain_one(void) { chain_two(); asm volatile(""); }

static int open_or_die(const char *path, int flags)
{
	int f = open(path, flags, 0644);

	if (f < 0) {
		perror(path);
		exit(1);
	}
	return f;
}

static void print_file(const char *path)
{
	int f = open_or_die(path, O_RDONLY);
	ssize_t n;

	while ((n = read(f, buf, sizeof(buf))) > 0)
		fwrite(buf, 1, n, stdout);
	close(f);
}

static void write_str(const char *path, const char *s)
{
	int f = open_or_die(path, O_WRONLY);

	if (write(f, s, strlen(s)) < 0)
		perror(path);
	close(f);
}

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static long syscalls;

/* Spin in user space with a frame of D records below it. */
__attribute__((noinline)) int deep(int d, double ms)
{
	volatile int pad = d;

	if (d > 0)
		return deep(d - 1, ms) + pad - d;
	double end = now_ms() + ms, next = 0;

	while (now_ms() < end) {
		if (now_ms() >= next) {
			getppid();
			syscalls++;
			next = now_ms() + 0.2;
		}
	}
	return 0;
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage: see tests/tools/unwind_chain.c\n");
		return 2;
	}
	cmd = argv[1];
	arg = argc > 2 ? argv[2] : "1";
	if (!strcmp(cmd, "show")) {
		print_file("/sys/kernel/debug/allocations.ctx");
		return 0;
	}
	if (!strcmp(cmd, "exec")) {
		chain_one();
		perror("execve");
		return 1;
	}
	if (!strcmp(cmd, "tmpfs")) {
		fd = open_or_die(arg, O_WRONLY | O_CREAT | O_TRUNC);
		memset(buf, 'u', sizeof(buf) - 1);
		buf[sizeof(buf) - 1] = 0;
		chain_one();
		return result < 0;
	}
	if (!strcmp(cmd, "tmpfs-big")) {
		fd = open_or_die(arg, O_WRONLY | O_CREAT | O_TRUNC);
		memset(big, 'u', sizeof(big));
		chain_one();
		if (result != sizeof(big))
			fprintf(stderr, "write: %ld of %zu bytes\n", result, sizeof(big));
		return result != sizeof(big);
	}
	if (!strcmp(cmd, "deep")) {
		cpu_set_t set;
		char s[32];

		CPU_ZERO(&set);
		CPU_SET(0, &set);
		if (sched_setaffinity(0, sizeof(set), &set))
			perror("sched_setaffinity");
		snprintf(s, sizeof(s), "start %d", getpid());
		write_str(DIR "timer", s);
		deep(atoi(arg), argc > 3 ? atof(argv[3]) : 1000);
		write_str(DIR "timer", "stop");
		printf("syscalls=%ld\n", syscalls);
		return 0;
	}
	fd = open_or_die(DIR "request", O_WRONLY);
	if (!strcmp(cmd, "request"))
		snprintf(buf, sizeof(buf), "%s", arg);
	else if (!strcmp(cmd, "kill"))
		snprintf(buf, sizeof(buf), "%s kill", arg);
	else if (!strcmp(cmd, "cancel"))
		snprintf(buf, sizeof(buf), "%s cancel", arg);
	else if (!strcmp(cmd, "nmi"))
		snprintf(buf, sizeof(buf), "%s nmi", arg);
	else if (!strcmp(cmd, "again"))
		snprintf(buf, sizeof(buf), "1 again");
	else if (!strcmp(cmd, "twice"))
		snprintf(buf, sizeof(buf), "1");
	else
		return 2;
	chain_one();
	if (result < 0)
		fprintf(stderr, "write: %ld\n", result);
	if (!strcmp(cmd, "twice"))
		chain_one();
	return result < 0;
}
