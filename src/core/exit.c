/* How a process ends once its outputs are committed: the release of some open files (the
 * GPU driver's, /dev/nvidia*) is left to a child, so that the process's exit does not wait
 * for it. Closing the driver's files tears down the process's GPU state: 0.09-0.11 s on an
 * H100 whatever the process did before (exit, return, cudaDeviceReset; 0.13-0.17 s with
 * 256 MB of pinned memory), against 3 ms for the parent once a child holds them
 * (docs/bench/rounds-2026-11-27.md, Round 8). The child is reparented to the nearest subreaper or init,
 * which reaps it; under an init that reaps nothing (a container's shell) it stays a zombie. */
#define _GNU_SOURCE  /* clone */
#include <dirent.h>
#include <stdio.h>
#include <sched.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/syscall.h>
#include "rktlcs.h"

#define EXIT_MAX_FDS 4096
/* Above this resident size the process ends by itself: the child, sharing the memory, would
 * free it too, and a job's memory would stay charged (a cgroup's, SLURM's) after it ended */
#define EXIT_MAX_RSS (1ull << 30)

/* What the child closes and how long it waits; written before the clone, read by the child
 * (which shares the memory) */
static struct {
	int fd[EXIT_MAX_FDS];
	int n, hold_ms;
	long parent;      /* the child waits for its end first; 0: it does not */
} ex;

/* The child: the clone of a process that is ending. System calls only, uninstrumented: the
 * parent's threads may have died holding a lock of the C library's or a sanitizer's. */
__attribute__((no_sanitize("address", "undefined"))) static int exit_child(void *arg)
{
	(void)arg;
	for (int i = 0; i < ex.n; i++) syscall(SYS_close, ex.fd[i]);
	/* The driver's release is the last close of its files, and this process closes its own
	 * copies late in its exit: a child that closed them at once usually closed first and left
	 * the release to the process (0.06-0.1 s; one H100: Rkt-LCS 5k 0.303 against 0.209 s, lev
	 * 1M pairs 0.611 against 0.493; docs/bench/rounds-2026-11-28.md, Round 9). So after a job the child
	 * waits until the process is gone (reparented). After --version (the driver up, no
	 * context) waiting measured slower on two hosts: that hand-off does not wait. At most
	 * 0.5 s by the monotonic clock. */
	if (ex.parent) {
		const struct timespec ms = { 0, 1000000L };
		struct timespec t0, t;
		syscall(SYS_clock_gettime, CLOCK_MONOTONIC, &t0);
		for (; syscall(SYS_getppid) == ex.parent; syscall(SYS_nanosleep, &ms, 0)) {
			syscall(SYS_clock_gettime, CLOCK_MONOTONIC, &t);
			if ((t.tv_sec - t0.tv_sec) * 1000000000L + (t.tv_nsec - t0.tv_nsec) > 500000000L) break;
		}
	}
	if (ex.hold_ms > 0) {
		struct timespec ts = { ex.hold_ms / 1000, (long)(ex.hold_ms % 1000) * 1000000L };
		syscall(SYS_nanosleep, &ts, 0);
	}
	syscall(SYS_exit_group, 0);
	return 0;
}

/* Open files whose path starts with prefix: their count; the others into ex.fd (ex.n).
 * Returns 0 where /proc is not there or the others do not fit. */
static int exit_scan(const char *prefix)
{
	DIR *d = opendir("/proc/self/fd");
	if (!d) return 0;
	const size_t lp = strlen(prefix);
	int held = 0, full = 0;
	ex.n = 0;
	for (struct dirent *e; (e = readdir(d)) != 0;) {
		if (e->d_name[0] < '0' || e->d_name[0] > '9') continue;
		const int fd = atoi(e->d_name);
		if (fd == dirfd(d)) continue;
		char path[512];
		const ssize_t n = readlinkat(dirfd(d), e->d_name, path, sizeof path - 1);
		path[n > 0 ? n : 0] = 0;
		if (n > 0 && !strncmp(path, prefix, lp)) held++;
		else if (ex.n < EXIT_MAX_FDS) ex.fd[ex.n++] = fd;
		else full = 1;
	}
	closedir(d);
	return full ? 0 : held;
}

/* Resident bytes (/proc/self/statm), 0 where unknown */
static unsigned long long exit_rss(void)
{
	FILE *f = fopen("/proc/self/statm", "r");
	unsigned long long size = 0, res = 0;
	if (!f) return 0;
	if (fscanf(f, "%llu %llu", &size, &res) != 2) res = 0;
	fclose(f);
	return res * (unsigned long long)sysconf(_SC_PAGESIZE);
}

int rk_files_open(const char *prefix)
{
	const int held = exit_scan(prefix);
	ex.n = 0;
	return held;
}

void rk_exit_handoff(const char *prefix, int code, int hold_ms, int after_parent)
{
	/* the child's stack, in the memory it shares with this process */
	static unsigned char stack[1 << 16] __attribute__((aligned(64)));
	const unsigned long long rss = prefix ? exit_rss() : 0;
	if (rss > EXIT_MAX_RSS)
		rk_debug("exit: %.0f MB resident, over the %.0f MB a child may be left to free: the GPU released here", rss / 1e6, EXIT_MAX_RSS / 1e6);
	if (prefix && rss <= EXIT_MAX_RSS && exit_scan(prefix) > 0) {
		ex.hold_ms = hold_ms;
		/* the child takes no signal (a ^C to the terminal's process group in its 0.1 s would run
		 * this process's handlers in it): it inherits this thread's mask, all blocked */
		sigset_t all;
		sigfillset(&all);
		sigprocmask(SIG_BLOCK, &all, 0);
		/* CLONE_VM: no copy of the memory (a fork of a process of many GB takes a while), and
		 * the memory's own release, the device's mappings in it included, goes with the child.
		 * Its own table of files, so its closes leave this process's files alone; the others
		 * (pipes to mpirun or to a shell, outputs) it closes at once, so their readers see
		 * them end with this process. On failure the process just ends, paying the release. */
		const long me = syscall(SYS_getpid);   /* syscall's PLT entry bound here, not by the child */
		ex.parent = after_parent ? me : 0;
		clone(exit_child, stack + sizeof stack, CLONE_VM | SIGCHLD, 0);
	}
	_exit(code);
}
