/* lev batches: the short pairs' wavefront cap from this machine's rates (lev_tune.h). Two
 * groups of pairs, few and many edits, give the wavefronts' fixed and d^2 parts; the sweep's
 * lanes run both groups for their rate a word step. Each timing is the least of TUNE_REPS. */
#include <limits.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <omp.h>
#include "algo/lev_tune.h"
#include "algo/lev_wave.h"
#include "algo/aln_dp.h"

#define TUNE_LEN 150
#define TUNE_LOW 3      /* percent: pairs whose wavefronts are mostly a pair's fixed cost */
#define TUNE_HIGH 18    /* ... mostly their d^2 cells, about the distances a cap decides */
#define TUNE_REPS 2
#define TUNE_FORCED INT_MAX

static pthread_mutex_t tune_lock = PTHREAD_MUTEX_INITIALIZER;
static lev_cap_t tune[2];
static _Atomic int tune_at[2];       /* threads the rates were measured at; TUNE_FORCED; 0 none */
static _Atomic int tune_failed[2];   /* threads a measurement gave no fit at */
static lev_cap_t tune_next_c[2];     /* lev_cap_force_next's, under tune_lock */
static int tune_has_next[2];

const lev_cap_t *lev_cap_get(int path, int T)
{
	const int at = atomic_load(&tune_at[path != 0]);
	return at && (at == T || at == TUNE_FORCED) ? &tune[path != 0] : 0;
}

const lev_cap_t *lev_cap_measured(int path, int *T)
{
	const int at = atomic_load(&tune_at[path != 0]);
	*T = at;
	return at && at != TUNE_FORCED ? &tune[path != 0] : 0;
}

void lev_cap_force(int path, const lev_cap_t *c)
{
	pthread_mutex_lock(&tune_lock);
	if (c) tune[path != 0] = *c;
	atomic_store(&tune_at[path != 0], c ? TUNE_FORCED : 0);
	atomic_store(&tune_failed[path != 0], 0);
	pthread_mutex_unlock(&tune_lock);
}

void lev_cap_force_next(int path, const lev_cap_t *c)
{
	pthread_mutex_lock(&tune_lock);
	if (c) tune_next_c[path != 0] = *c;
	tune_has_next[path != 0] = c != 0;
	pthread_mutex_unlock(&tune_lock);
}

static uint64_t tune_next(uint64_t *x)
{
	*x ^= *x << 13, *x ^= *x >> 7, *x ^= *x << 17;
	return *x;
}

/* b[] from a[] with about pct% of its bases substituted, inserted or deleted; returns lb */
static int64_t tune_mutate(const char *a, char *b, int pct, uint64_t *x)
{
	int64_t j = 0;
	for (int64_t i = 0; i < TUNE_LEN; i++) {
		const uint64_t r = tune_next(x);
		const int op = (int)(r % 1000) < 10 * pct ? (int)((r >> 20) % 3) : 3;
		if (op == 0) {
			int k = (int)((r >> 24) & 3);
			if ("ACGT"[k] == a[i]) k = (k + 1) & 3;
			b[j++] = "ACGT"[k];
		} else if (op == 1) b[j++] = "ACGT"[(r >> 30) & 3], b[j++] = a[i];
		else if (op == 3) b[j++] = a[i];
	}
	return j;
}

/* the least wall of TUNE_REPS wavefront passes, no cap, over p[0, m); *d2: the sum of d^2 */
static double tune_wave(const aln_pair_t *p, int64_t m, int path, int T, double *d2)
{
	double best = 1e30, sum = 0;
	int err = 0;
	for (int rep = 0; rep < TUNE_REPS && !err; rep++) {
		sum = 0;
		const double t0 = omp_get_wtime();
		#pragma omp parallel num_threads(T) reduction(+:sum, err)
		{
			lev_wave_t w = { 0 };
			aln_path_t pa = { 0 };
			#pragma omp for schedule(dynamic, 16)
			for (int64_t i = 0; i < m; i++) {
				int64_t d = 0;
				const int r = lev_wave(&w, p[i].a, p[i].la, p[i].b, p[i].lb, p[i].la + p[i].lb, path, &d, path ? &pa : 0);
				if (r == 1) sum += (double)d * (double)d;
				else err++;
			}
			aln_path_free(&pa);
			lev_wave_free(&w);
		}
		const double t = omp_get_wtime() - t0;
		if (t < best) best = t;
	}
	*d2 = sum;
	return err ? -1 : best;
}

/* the least wall of TUNE_REPS sweeps (the lanes alone) over p[0, m) */
static double tune_sweep(const aln_pair_t *p, int64_t m, int path, int T, int simd)
{
	int64_t *d = malloc(sizeof(int64_t) * (size_t)m);
	aln_path_t *pa = path ? calloc((size_t)m, sizeof(aln_path_t)) : 0;
	double best = d && (pa || !path) ? 1e30 : -1;
	for (int rep = 0; rep < TUNE_REPS && best > 0; rep++) {
		const double t0 = omp_get_wtime();
		if (aln_batch_reads(&aln_lev, p, 0, m, -1, simd, T, d, pa) != RK_OK) best = -1;
		const double t = omp_get_wtime() - t0;
		if (best > 0 && t < best) best = t;
	}
	if (pa) for (int64_t i = 0; i < m; i++) aln_path_free(&pa[i]);
	free(pa);
	free(d);
	return best;
}

/* the fit from m pairs of each group (low first): 0, or -1 when it is unusable */
static int tune_fit(const aln_pair_t *p, int64_t m, int path, int T, int simd, lev_cap_t *c)
{
	double d2l, d2h, words = 0;
	const double tl = tune_wave(p, m, path, T, &d2l), th = tune_wave(p + m, m, path, T, &d2h);
	const double ts = tune_sweep(p, 2 * m, path, T, simd);
	for (int64_t i = 0; i < 2 * m; i++) words += (double)((p[i].la + 63) / 64) * (double)p[i].lb;
	if (tl <= 0 || th <= 0 || ts <= 0 || d2h <= d2l) return -1;
	c->b = (th - tl) / (d2h - d2l);
	c->a = (tl - c->b * d2l) / (double)m;
	if (c->a < 0) c->a = 0;
	c->s = ts / words;
	/* a pair's fixed cost above its whole sweep, or a break-even beyond twice or half the
	 * built-in cap (4x its d^2: the machines measured lie within 0.6-1.7x), is a stall timed */
	const double c0 = (double)lev_wave_cap(TUNE_LEN, TUNE_LEN, path, 0, 0), wp = words / (double)(2 * m);
	const double e = c->b > 0 ? lev_cap_even(c, wp) : 0;
	return c->b > 0 && c->s > 0 && c->a < c->s * wp && e <= 4 * c0 * c0 && e >= c0 * c0 / 4 ? 0 : -1;
}

const lev_cap_t *lev_cap_measure(int path, int T, int simd)
{
	const lev_cap_t *got = lev_cap_get(path, T);
	simd = aln_simd_level(simd);   /* the lanes the batch will run, not the scalar fallback of -1 */
	if (got || atomic_load(&tune_failed[path != 0]) == T) return got;
	pthread_mutex_lock(&tune_lock);
	if (!(got = lev_cap_get(path, T)) && atomic_load(&tune_failed[path != 0]) != T) {
		/* enough pairs that each thread's share outlasts its start in the parallel loop */
		const int64_t m = T < 4 ? 1024 : T > 32 ? 8192 : 256 * (int64_t)T;
		aln_pair_t *p = malloc(sizeof(aln_pair_t) * (size_t)(2 * m));
		char *buf = malloc((size_t)(2 * m) * (3 * TUNE_LEN + 2));
		lev_cap_t c = tune_next_c[path != 0];
		const int forced = tune_has_next[path != 0];
		tune_has_next[path != 0] = 0;
		if (p && buf && !forced) {
			uint64_t x = 0x243f6a8885a308d3ull;
			for (int64_t i = 0; i < 2 * m; i++) {
				char *a = buf + i * (3 * TUNE_LEN + 2), *b = a + TUNE_LEN + 1;
				for (int j = 0; j < TUNE_LEN; j++) a[j] = "ACGT"[tune_next(&x) & 3];
				p[i] = (aln_pair_t){ a, b, TUNE_LEN, tune_mutate(a, b, i < m ? TUNE_LOW : TUNE_HIGH, &x) };
			}
		}
		/* a first untimed pass starts the threads and their scratch; a stall timed gets one more try */
		double d2;
		int ok = forced;
		if (!forced && p && buf && tune_wave(p, m, path, T, &d2) > 0)
			for (int t = 0; t < 2 && !ok; t++) ok = tune_fit(p, m, path, T, simd, &c) == 0;
		if (ok) {
			tune[path != 0] = c;
			atomic_store(&tune_at[path != 0], T);
			got = &tune[path != 0];
		} else atomic_store(&tune_failed[path != 0], T);
		free(p);
		free(buf);
	}
	pthread_mutex_unlock(&tune_lock);
	return got;
}

typedef struct { double r, d2, e, sw; } tune_pt_t;

static int tune_cmp(const void *x, const void *y)
{
	const double a = ((const tune_pt_t *)x)->r, b = ((const tune_pt_t *)y)->r;
	return a < b ? -1 : a > b;
}

double lev_cap_choose(const lev_cap_t *m, const double *d2, const double *w, int64_t k, double tmax)
{
	tune_pt_t *v = malloc(sizeof(tune_pt_t) * (size_t)(k > 0 ? k : 1));
	if (!v) return 1;
	double after = 0, e_after = 0;   /* sums over the pairs past the candidate: a + sweep, their e */
	for (int64_t j = 0; j < k; j++) {
		const double e = lev_cap_even(m, w[j]);
		v[j].e = e > 16 ? e : 16;   /* no cap is below 4 */
		v[j].d2 = d2[j];
		v[j].r = d2[j] < 0 ? 1e300 : d2[j] / v[j].e;
		v[j].sw = m->s * w[j];
		after += m->a + v[j].sw, e_after += v[j].e;
	}
	qsort(v, (size_t)k, sizeof *v, tune_cmp);
	double best = 0, theta = 0, done = 0;
	for (int64_t j = 0; j < k; j++) best += v[j].sw;   /* no wavefronts */
	for (int64_t j = 0; j < k && v[j].r <= tmax; j++) {
		done += m->a + m->b * v[j].d2;
		after -= m->a + v[j].sw, e_after -= v[j].e;
		/* a pair past theta costs a try up to its cap and then the sweep */
		const double t = v[j].r > 1e-9 ? v[j].r : 1e-9, cost = done + after + m->b * t * e_after;
		if (cost < best) best = cost, theta = t;
	}
	free(v);
	return theta;
}
