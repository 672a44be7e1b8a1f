/* How much of its CPU threads a process gets now, and how many it can run without sharing
 * cores (plan.h: rmpi_cpu_share, rmpi_cpu_free): auto's rates are a
 * healthy host's, and a host whose cores other work keeps busy gives less. Round 13 met one:
 * a 4 x H200 node two minutes after boot (load 24 on 64 cores) took 4.63 s for a long pair on
 * 64 threads that 32 threads did in 0.54 s, and auto, counting 64 threads, took the CPU at 3.2x
 * the GPU's wall. The threads here spin as the CPU kernels would and read their own CPU clocks:
 * what they were given of the wall is what the kernels would be given. */
#define _GNU_SOURCE
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <omp.h>
#include "mpi/plan/plan.h"

static double clock_s(clockid_t id)
{
	struct timespec ts;
	clock_gettime(id, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* this thread's share of ms of wall spent spinning */
static double probe_spin(double ms)
{
	const double w0 = clock_s(CLOCK_MONOTONIC), c0 = clock_s(CLOCK_THREAD_CPUTIME_ID);
	double w = w0;
	volatile uint64_t x = 1;
	while ((w = clock_s(CLOCK_MONOTONIC)) - w0 < ms * 1e-3)
		for (int i = 0; i < 2000; i++) x = x * 6364136223846793005ULL + 1442695040888963407ULL;
	const double s = (clock_s(CLOCK_THREAD_CPUTIME_ID) - c0) / (w - w0);
	return s < 0 ? 0 : s > 1 ? 1 : s;
}

double rmpi_cpu_share(int threads, double ms, double *least)
{
	if (least) *least = 1;
	if (threads < 1 || ms <= 0) return 1;
	double sum = 0, lo = 1;
	int n = 0;
	/* the OpenMP team the kernels use: its idle threads would otherwise spin beside the probe's
	 * (libgomp's wait after a parallel region) and count as a busy host */
	#pragma omp parallel num_threads(threads) reduction(+ : sum, n) reduction(min : lo)
	{
		#pragma omp barrier
		const double s = probe_spin(ms);
		sum += s;
		n++;
		if (s < lo) lo = s;
	}
	if (least) *least = lo;
	return n > 0 ? sum / n : 1;
}

int rmpi_cpu_free(int threads, double ms, double share)
{
	int t = threads < 1 ? 1 : threads;
	/* halving: beside L busy threads on C cores, t threads get about C / (t + L) each, so the
	 * first t given nearly all of the wall is at most the free cores and at least half of them */
	while (share < RMPI_SHARE_FREE && t > 1) {
		t /= 2;
		share = rmpi_cpu_share(t, ms, 0);
	}
	return t;
}

/* tasks the host can run now: /proc/loadavg's fourth field, "runnable/all" (Linux; -1 else) */
static int host_runnable(void)
{
	FILE *fp = fopen("/proc/loadavg", "r");
	if (!fp) return -1;
	double l1, l5, l15;
	int r = -1, all;
	if (fscanf(fp, "%lf %lf %lf %d/%d", &l1, &l5, &l15, &r, &all) != 5) r = -1;
	fclose(fp);
	return r;
}

/* the threads of process pid (0: this one) that can run now (state R), -1 if unreadable: its
 * OpenMP team may still spin after a parallel region (libgomp's wait), and ranks of the job
 * poll in MPI's collectives; all are in the host's count */
static int proc_runnable(long pid)
{
	char dir[64];
	if (pid) snprintf(dir, sizeof dir, "/proc/%ld/task", pid);
	else snprintf(dir, sizeof dir, "/proc/self/task");
	DIR *d = opendir(dir);
	if (!d) return -1;
	int n = 0;
	struct dirent *e;
	while ((e = readdir(d)) != NULL) {
		if (e->d_name[0] == '.') continue;
		char path[384], buf[512];
		snprintf(path, sizeof path, "%s/%s/stat", dir, e->d_name);
		FILE *fp = fopen(path, "r");
		if (!fp) continue;   /* a thread that ended since readdir */
		const size_t k = fread(buf, 1, sizeof buf - 1, fp);
		fclose(fp);
		buf[k] = 0;
		const char *p = strrchr(buf, ')');   /* the name may hold spaces and parentheses */
		if (p && p[1] == ' ' && p[2] == 'R') n++;
	}
	closedir(d);
	return n;
}

int rmpi_host_others(const long *pids, int n)
{
	int o[3];
	/* the middle of three looks 0.2 ms apart: a daemon's passing wake-up is gone by the next,
	 * and a task moved between CPUs' queues is missing from one look (a spinning process in
	 * about one look of twenty on the CI VM); an idle host's first look, 0, is taken as it is */
	for (int i = 0; i < 3; i++) {
		if (i) nanosleep(&(struct timespec){ 0, 200000 }, NULL);
		const int r0 = host_runnable();
		int s = proc_runnable(0);
		for (int k = 0; k < n && s >= 0; k++) {
			const int x = proc_runnable(pids[k]);
			s += x > 0 ? x : 0;   /* a rank's process gone or not this user's: none of its threads */
		}
		/* the host's count on both sides of the scan, the lesser: a thread of this job that
		 * stopped during the scan is then missed from both counts, not taken for another's */
		const int r1 = host_runnable(), r = r0 < r1 ? r0 : r1;
		if (r < 0 || s < 0) return -1;
		o[i] = r > s ? r - s : 0;
		if (i == 0 && o[0] == 0) return 0;
	}
	const int lo = o[0] < o[1] ? o[0] : o[1], hi = o[0] < o[1] ? o[1] : o[0];
	return o[2] < lo ? lo : o[2] > hi ? hi : o[2];
}
