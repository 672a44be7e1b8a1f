/* Status, timing and size parsing shared by every layer. */
#define _GNU_SOURCE  /* syscall, SYS_gettid */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <ctype.h>
#include <math.h>
#include <pthread.h>
#include <unistd.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/resource.h>
#include <sys/mman.h>
#include "rktlcs.h"

/* One error for the whole process, not one per thread: an error raised on an OpenMP or
 * helper thread must reach the caller that returns the failed status, on another thread.
 * The process's first thread (main, and thread 0 of its OpenMP teams) always writes, so
 * that a caller can wrap a callee's message; any other thread writes only the first error
 * since the last rk_clear_error (the first failure, not the last of many threads). */
static pthread_mutex_t rk_err_mu = PTHREAD_MUTEX_INITIALIZER;
static char rk_errbuf[2][1024];
static int rk_err_cur, rk_err_pending;

static int rk_err_main_thread(void)
{
	return (pid_t)syscall(SYS_gettid) == getpid();
}

void rk_set_error(const char *fmt, ...)
{
	char msg[sizeof rk_errbuf[0]];
	va_list ap;
	va_start(ap, fmt);
	/* formatted apart: an argument may be rk_error() itself */
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	pthread_mutex_lock(&rk_err_mu);
	if (!rk_err_pending || rk_err_main_thread()) {
		/* the other buffer: a pointer rk_error() returned before stays readable */
		rk_err_cur ^= 1;
		memcpy(rk_errbuf[rk_err_cur], msg, sizeof msg);
		rk_err_pending = 1;
	}
	pthread_mutex_unlock(&rk_err_mu);
}

void rk_clear_error(void)
{
	pthread_mutex_lock(&rk_err_mu);
	rk_errbuf[rk_err_cur][0] = 0;
	rk_err_pending = 0;
	pthread_mutex_unlock(&rk_err_mu);
}

const char *rk_error(void)
{
	pthread_mutex_lock(&rk_err_mu);
	const char *e = rk_errbuf[rk_err_cur][0] ? rk_errbuf[rk_err_cur] : "unknown error";
	pthread_mutex_unlock(&rk_err_mu);
	return e;
}

double rk_realtime(void)
{
	struct timeval tv;
	gettimeofday(&tv, 0);
	return tv.tv_sec + tv.tv_usec * 1e-6;
}

double rk_process_age(void)
{
	/* /proc/self/stat field 22: the start in clock ticks since boot; /proc/uptime: now */
	char buf[1024];
	double up = -1;
	unsigned long long start = 0;
	FILE *fp = fopen("/proc/uptime", "r");
	if (!fp) return -1;
	if (fscanf(fp, "%lf", &up) != 1) up = -1;
	fclose(fp);
	if (up < 0 || !(fp = fopen("/proc/self/stat", "r"))) return -1;
	size_t n = fread(buf, 1, sizeof buf - 1, fp);
	fclose(fp);
	buf[n] = 0;
	const char *p = strrchr(buf, ')');  /* the command name may hold spaces */
	if (!p || sscanf(p + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %*u %*u %*d %*d %*d %*d %*d %*d %llu", &start) != 1)
		return -1;
	const long hz = sysconf(_SC_CLK_TCK);
	return hz > 0 ? up - (double)start / (double)hz : -1;
}

size_t rk_peak_rss_kb(void)
{
	struct rusage r;
	getrusage(RUSAGE_SELF, &r);
	return (size_t)r.ru_maxrss;
}

/* the whole pages under [p, p + n): for a mapping of malloc's own that is the mapping, so the hint
 * never splits it (a split mapping could not be grown in place by realloc's mremap) */
void rk_huge(void *p, size_t n)
{
#ifdef MADV_HUGEPAGE
	if (!p || n < RK_HUGE_MIN || rk_tune.no_huge) return;
	const uintptr_t pg = (uintptr_t)sysconf(_SC_PAGESIZE), a = (uintptr_t)p & ~(pg - 1), b = ((uintptr_t)p + n + pg - 1) & ~(pg - 1);
	(void)madvise((void *)a, b - a, MADV_HUGEPAGE);
#else
	(void)p; (void)n;
#endif
}

void *rk_malloc_huge(size_t n)
{
	void *p = malloc(n);
	rk_huge(p, n);
	return p;
}

void *rk_realloc_huge(void *p, size_t n)
{
	void *q = realloc(p, n);
	rk_huge(q, n);
	return q;
}

uint64_t rk_parse_size(const char *s)
{
	char *end;
	double v;
	if (!s || !*s || isspace((unsigned char)*s)) return 0;
	v = strtod(s, &end);
	/* strtod takes "nan" and "inf": neither is a size, and casting them is undefined */
	if (end == s || !isfinite(v) || v <= 0) return 0;
	switch (toupper((unsigned char)*end)) {
	case 'K': v *= 1024.0; end++; break;
	case 'M': v *= 1048576.0; end++; break;
	case 'G': v *= 1073741824.0; end++; break;
	case 'T': v *= 1099511627776.0; end++; break;
	default: break;
	}
	if (*end == 'B' || *end == 'b') end++;
	if (*end || v >= 9.2e18 || v < 1) return 0;
	return (uint64_t)v;
}

void rk_common_init(rk_common_t *c)
{
	memset(c, 0, sizeof *c);
	c->format = RK_FMT_TSV;
	c->backend = RK_BACKEND_AUTO;
}

rk_tune_t rk_tune = { .simd = -1, .gpu_carveout = -1, .split_cells = 4294967296.0, .gpu_once_minb = 4, .start_timeout = 120,
                     .progress_first = 5, .progress_every = 60 };

/* RKTLCS_START_TIMEOUT: seconds; 0 or less, or more than ~30 years (inf too), no limit */
static rk_status_t rk_tune_timeout(const char *v)
{
	char *end;
	double t = strtod(v, &end);
	if (end == v || *end || isspace((unsigned char)*v) || isnan(t)) {
		rk_set_error("RKTLCS_START_TIMEOUT='%s': not a number of seconds (0: no limit)", v);
		return RK_EINPUT;
	}
	rk_tune.start_timeout = t > 1e9 ? 0 : t;
	return RK_OK;
}

rk_status_t rk_tune_init(void)
{
	const char *v;
	rk_status_t st = RK_OK;
	if ((v = getenv("RKTLCS_SIMD")) && *v) rk_tune.simd = atoi(v);
	if ((v = getenv("RKTLCS_SIMD_NOPOPCNT")) && *v) rk_tune.no_vpopcnt = 1;
	if ((v = getenv("RKTLCS_GPU_CARVEOUT")) && *v) rk_tune.gpu_carveout = atoi(v);
	if ((v = getenv("RKTLCS_FORCE_MPI")) && *v) rk_tune.force_mpi = 1;
	if ((v = getenv("RKTLCS_SPLIT_CELLS")) && *v) rk_tune.split_cells = atof(v);
	if ((v = getenv("RKTLCS_SPLIT_WORDS")) && *v) rk_tune.split_words = v;
	if ((v = getenv("RKTLCS_SPLIT_CHUNK")) && *v) rk_tune.split_chunk = atoll(v);
	if ((v = getenv("RKTLCS_SPLIT_PLAN")) && *v)
		rk_tune.split_plan = !strcmp(v, "one") ? 1 : !strcmp(v, "band") ? 2 : !strcmp(v, "all") ? 3 : !strcmp(v, "cols") ? 6 : !strcmp(v, "tree") ? 7 : !strcmp(v, "spread") ? 8 : 0;
	if ((v = getenv("RKTLCS_READ_EACH")) && *v) rk_tune.read_each = atoi(v);
	if ((v = getenv("RKTLCS_HUGE")) && *v) rk_tune.no_huge = !atoi(v);
	if ((v = getenv("RKTLCS_RKT_GPU_TWICE")) && *v) rk_tune.rkt_gpu_twice = atoi(v);
	if ((v = getenv("RKTLCS_GPU_ONCE_MINB")) && *v) rk_tune.gpu_once_minb = atoi(v);
	if ((v = getenv("RKTLCS_GPU_LONG_RW")) && *v) rk_tune.gpu_long_rw = atoi(v);
	if ((v = getenv("RKTLCS_RKT_HOST_SUM")) && *v) rk_tune.rkt_host_sum = atoi(v);
	if ((v = getenv("RKTLCS_RKT_HYBRID")) && *v) rk_tune.rkt_hybrid = !strcmp(v, "standin") ? 2 : atoi(v) > 0 ? 1 : -1;
	if ((v = getenv("RKTLCS_GPU_RANKS")) && *v) rk_tune.gpu_ranks = !strcmp(v, "one") ? 1 : !strcmp(v, "all") ? -1 : 0;
	if ((v = getenv("RKTLCS_ALL_NOFILTER")) && *v) rk_tune.all_nofilter = atoi(v);
	/* "G" or "G,alone": ranks of local rank below G are weighed as GPU ranks on the CPU (plan/share.c) */
	if ((v = getenv("RKTLCS_GPU_STANDIN")) && *v) {
		rk_tune.standin_gpus = atoi(v);
		rk_tune.standin_alone = strstr(v, ",alone") != 0;
	}
	if ((v = getenv("RKTLCS_SOLO")) && *v) rk_tune.no_solo = !strcmp(v, "0");
	if ((v = getenv("RKTLCS_LEV_WAVE")) && *v) rk_tune.lev_wave = !strcmp(v, "all") ? 1 : !strcmp(v, "0") ? -1 : 0;
	if ((v = getenv("RKTLCS_NEAR_PLAN")) && *v) rk_tune.near_plan = !strcmp(v, "exact") ? -1 : atoi(v);
	if ((v = getenv("RKTLCS_START_TIMEOUT")) && *v) st = rk_tune_timeout(v);
	if ((v = getenv("RKTLCS_READ_THREADS")) && *v) rk_tune.read_threads = atoi(v);
	if ((v = getenv("RKTLCS_READ_WINDOW")) && *v) rk_tune.read_window = (int64_t)rk_parse_size(v);
	if ((v = getenv("RKTLCS_RKT_LANES32")) && *v) rk_tune.rkt_lanes32 = atoi(v);
	if ((v = getenv("RKTLCS_NO_SHARE")) && *v) rk_tune.no_share = atoi(v);
	if ((v = getenv("RKTLCS_HAM_BATCH")) && *v) rk_tune.ham_batch = (int64_t)rk_parse_size(v);
	if ((v = getenv("RKTLCS_HAM_PIECE")) && *v) rk_tune.ham_piece = (int64_t)rk_parse_size(v);
	if ((v = getenv("RKTLCS_PROGRESS_FIRST")) && *v) rk_tune.progress_first = atof(v);
	if ((v = getenv("RKTLCS_PROGRESS_EVERY")) && *v) rk_tune.progress_every = atof(v);
	return st;
}
