/* Status, timing and size parsing shared by every layer. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <ctype.h>
#include <math.h>
#include <sys/time.h>
#include <sys/resource.h>
#include "rktlcs.h"

static _Thread_local char rk_errbuf[1024];

void rk_set_error(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(rk_errbuf, sizeof rk_errbuf, fmt, ap);
	va_end(ap);
}

const char *rk_error(void)
{
	return rk_errbuf[0] ? rk_errbuf : "unknown error";
}

double rk_realtime(void)
{
	struct timeval tv;
	gettimeofday(&tv, 0);
	return tv.tv_sec + tv.tv_usec * 1e-6;
}

size_t rk_peak_rss_kb(void)
{
	struct rusage r;
	getrusage(RUSAGE_SELF, &r);
	return (size_t)r.ru_maxrss;
}

uint64_t rk_parse_size(const char *s)
{
	char *end;
	double v;
	if (!s || !*s) return 0;
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

rk_tune_t rk_tune = { -1, 0, -1, 0, 0, 0, 0, 4294967296.0, 0, 0, 0, 0, 4, 0, 0, 0 };

void rk_tune_init(void)
{
	const char *v;
	if ((v = getenv("RKTLCS_SIMD")) && *v) rk_tune.simd = atoi(v);
	if ((v = getenv("RKTLCS_SIMD_NOPOPCNT")) && *v) rk_tune.no_vpopcnt = 1;
	if ((v = getenv("RKTLCS_GPU_CARVEOUT")) && *v) rk_tune.gpu_carveout = atoi(v);
	if ((v = getenv("RKTLCS_FORCE_MPI")) && *v) rk_tune.force_mpi = 1;
	if ((v = getenv("RKTLCS_SPLIT_CELLS")) && *v) rk_tune.split_cells = atof(v);
	if ((v = getenv("RKTLCS_SPLIT_WORDS")) && *v) rk_tune.split_words = v;
	if ((v = getenv("RKTLCS_SPLIT_CHUNK")) && *v) rk_tune.split_chunk = atoll(v);
	if ((v = getenv("RKTLCS_READ_EACH")) && *v) rk_tune.read_each = atoi(v);
	if ((v = getenv("RKTLCS_RKT_GPU_TWICE")) && *v) rk_tune.rkt_gpu_twice = atoi(v);
	if ((v = getenv("RKTLCS_GPU_ONCE_MINB")) && *v) rk_tune.gpu_once_minb = atoi(v);
	if ((v = getenv("RKTLCS_RKT_HOST_SUM")) && *v) rk_tune.rkt_host_sum = atoi(v);
	if ((v = getenv("RKTLCS_ALL_NOFILTER")) && *v) rk_tune.all_nofilter = atoi(v);
	if ((v = getenv("RKTLCS_RKT_LANES32")) && *v) rk_tune.rkt_lanes32 = atoi(v);
}
