/* CPU benchmark of lev and lcs against edlib, WFA2 and a naive DP, same inputs (fixed seed),
 * same run. Prints one table: workload, tool, threads, seconds, ratio to ours, check.
 * Usage: bench_dp lev|lcs [THREADS] [SCALE] [REPS]
 *   SCALE < 1 shrinks the workloads for a smoke run; every timing is the best of REPS runs
 *   (default 1) except the naive DP's (once).
 * Baselines run single-threaded on one pair (they have no intra-pair threading); on batches
 * they get the same OpenMP thread count as ours, one aligner per thread. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <omp.h>
#include <edlib.h>
#include <stdint.h>
#include <stdbool.h>
#include <utils/commons.h>
#include <wavefront/wfa.h>
#include "algo/lev.h"
#include "algo/lev_wave.h"
#include "algo/lcs.h"
#include "naive_dp.h"

static uint64_t rs = 0x9e3779b97f4a7c15ull;
static uint64_t rnd(void)
{
	rs ^= rs << 13; rs ^= rs >> 7; rs ^= rs << 17;
	return rs;
}

static char *random_seq(int64_t n)
{
	char *s = malloc((size_t)n + 1);
	for (int64_t i = 0; i < n; i++) s[i] = "ACGT"[rnd() & 3];
	s[n] = 0;
	return s;
}

/* a copy of a with `pct` percent of positions edited (equal shares of substitution,
 * insertion, deletion) */
static char *mutate(const char *a, int64_t la, double pct, int64_t *lb)
{
	char *b = malloc((size_t)(2 * la + 2));
	int64_t n = 0;
	uint64_t thr = (uint64_t)(pct / 100.0 * 1e6);
	for (int64_t i = 0; i < la; i++) {
		uint64_t r = rnd() % 1000000;
		if (r < thr) {
			int kind = (int)(rnd() % 3);
			if (kind == 0) { char c; do c = "ACGT"[rnd() & 3]; while (c == a[i]); b[n++] = c; }
			else if (kind == 1) { b[n++] = "ACGT"[rnd() & 3]; b[n++] = a[i]; }
			/* kind 2: deletion */
		} else b[n++] = a[i];
	}
	b[n] = 0;
	*lb = n;
	return b;
}

static double now(void) { return omp_get_wtime(); }

static int n_threads = 2, reps = 1;

/* the best (shortest) of reps runs of the statement */
#define BEST(var, ...) do { \
	var = 1e300; \
	for (int r_ = 0; r_ < reps; r_++) { \
		double t_ = now(); \
		__VA_ARGS__; \
		t_ = now() - t_; \
		if (t_ < var) var = t_; \
	} \
} while (0)

static void row(const char *work, const char *tool, int th, double s, double ours, const char *check)
{
	char ratio[32];
	if (ours > 0 && s > 0) snprintf(ratio, sizeof ratio, "%.2f", s / ours);
	else snprintf(ratio, sizeof ratio, "-");
	printf("%-34s %-22s %3d %10.4f %9s  %s\n", work, tool, th, s, ratio, check);
	fflush(stdout);
}

static int64_t edlib_dist(const char *a, int64_t la, const char *b, int64_t lb, int path, char **cigar)
{
	EdlibAlignResult r = edlibAlign(a, (int)la, b, (int)lb,
	                                edlibNewAlignConfig(-1, EDLIB_MODE_NW, path ? EDLIB_TASK_PATH : EDLIB_TASK_DISTANCE, 0, 0));
	int64_t d = r.editDistance;
	if (path && cigar) *cigar = edlibAlignmentToCigar(r.alignment, r.alignmentLength, EDLIB_CIGAR_EXTENDED);
	edlibFreeAlignResult(r);
	return d;
}

static wavefront_aligner_t *wfa_new(int path, int indel, int ultralow)
{
	wavefront_aligner_attr_t at = wavefront_aligner_attr_default;
	at.distance_metric = indel ? indel : edit;
	if (!indel) at.distance_metric = edit;
	at.alignment_scope = path ? compute_alignment : compute_score;
	at.memory_mode = ultralow ? wavefront_memory_ultralow : wavefront_memory_high;
	at.heuristic.strategy = wf_heuristic_none;
	return wavefront_aligner_new(&at);
}

static int64_t wfa_score(wavefront_aligner_t *w, const char *a, int64_t la, const char *b, int64_t lb)
{
	wavefront_align(w, a, (int)la, b, (int)lb);
	int s = w->cigar->score;
	return s < 0 ? -s : s;
}

/* cost of a path replayed on a, b; -1 if it does not consume both exactly */
static int64_t replay_cost(const aln_path_t *p, const char *a, int64_t la, const char *b, int64_t lb)
{
	int64_t i = 0, j = 0, c = 0;
	for (int64_t q = 0; q < p->n; q++) {
		int op = (int)(p->run[q] & 7);
		int64_t l = (int64_t)(p->run[q] >> 3);
		for (int64_t t = 0; t < l; t++) {
			if (op == ALN_I) { i++; c++; continue; }
			if (op == ALN_D) { j++; c++; continue; }
			if (i >= la || j >= lb) return -1;
			if ((op == ALN_EQ || op == ALN_M) != (a[i] == b[j])) return -1;
			c += op == ALN_X;
			i++, j++;
		}
	}
	return i == la && j == lb ? c : -1;
}

static void bench_lev_pair(const char *work, const char *a, int64_t la, const char *b, int64_t lb, int edl)
{
	lev_opt_t o;
	lev_opt_init(&o);
	char chk[128], w2[96];
	for (int path = 0; path <= 1; path++) {
		snprintf(w2, sizeof w2, "%s %s", work, path ? "path" : "dist");
		aln_path_t p = { 0 };
		int64_t d = -1, d1 = -1;
		o.path = path;
		o.n_threads = n_threads;
		double ours, s;
		BEST(ours, lev_pair(&o, a, la, b, lb, &d, path ? &p : 0));
		snprintf(chk, sizeof chk, "d=%lld%s", (long long)d, path ? (replay_cost(&p, a, la, b, lb) == d ? " path ok" : " PATH BAD") : "");
		row(w2, "rktlcs", n_threads, ours, ours, chk);
		aln_path_free(&p);
		if (n_threads != 1) {
			o.n_threads = 1;
			BEST(s, lev_pair(&o, a, la, b, lb, &d1, path ? &p : 0));
			row(w2, "rktlcs", 1, s, ours, d1 == d ? "same" : "DIFFERENT");
			aln_path_free(&p);
		}
		if (edl) {
			char *cg = 0;
			int64_t e = -1;
			BEST(s, free(cg); cg = 0; e = edlib_dist(a, la, b, lb, path, &cg));
			row(w2, "edlib 1.2.7", 1, s, ours, e == d ? "same" : "DIFFERENT");
			free(cg);
		}
		wavefront_aligner_t *w = wfa_new(path, 0, path);
		int64_t e = -1;
		BEST(s, e = wfa_score(w, a, la, b, lb));
		row(w2, path ? "WFA2 edit (BiWFA)" : "WFA2 edit score", 1, s, ours, e == d ? "same" : "DIFFERENT");
		wavefront_aligner_delete(w);
	}
}

/* the baselines on a batch: OpenMP over pairs, one aligner per thread */
static void wfa_batch(const aln_pair_t *pr, int64_t n, int path, int64_t *e)
{
	#pragma omp parallel num_threads(n_threads)
	{
		wavefront_aligner_t *w = wfa_new(path, 0, 0);
		#pragma omp for schedule(dynamic, 64)
		for (int64_t i = 0; i < n; i++) e[i] = wfa_score(w, pr[i].a, pr[i].la, pr[i].b, pr[i].lb);
		wavefront_aligner_delete(w);
	}
}

static void edlib_batch(const aln_pair_t *pr, int64_t n, int path, int64_t *e)
{
	#pragma omp parallel for schedule(dynamic, 64) num_threads(n_threads)
	for (int64_t i = 0; i < n; i++) {
		char *cg = 0;
		e[i] = edlib_dist(pr[i].a, pr[i].la, pr[i].b, pr[i].lb, path, &cg);
		free(cg);
	}
}

static void bench_lev_batch(int64_t n, int64_t len, double pct)
{
	char **a = malloc(sizeof(char *) * (size_t)n), **b = malloc(sizeof(char *) * (size_t)n);
	aln_pair_t *pr = malloc(sizeof(aln_pair_t) * (size_t)n);
	int64_t *d = malloc(sizeof(int64_t) * (size_t)n), *e = malloc(sizeof(int64_t) * (size_t)n);
	for (int64_t i = 0; i < n; i++) {
		int64_t lb;
		a[i] = random_seq(len);
		b[i] = mutate(a[i], len, pct, &lb);
		pr[i] = (aln_pair_t){ a[i], b[i], len, lb };
	}
	char work[96];
	for (int path = 0; path <= 1; path++) {
		snprintf(work, sizeof work, "%lld x %lldbp %.0f%% %s", (long long)n, (long long)len, pct, path ? "path" : "dist");
		lev_opt_t o;
		lev_opt_init(&o);
		o.n_threads = n_threads;
		aln_path_t *paths = path ? calloc((size_t)n, sizeof(aln_path_t)) : 0;
		double ours, s;
		/* the cap's rates, measured anew here so that their cost shows (a batch measures them
		 * once per process, when the built-in rule leaves it many short pairs) */
		lev_cap_force(path, 0);
		double t = now();
		const lev_cap_t *cr = len <= 512 ? lev_cap_measure(path, n_threads, -1) : 0;
		t = now() - t;
		if (len <= 512)
			printf("# the cap's rates, %s, %d threads: %s a = %.3g s, b = %.3g s, s = %.3g s; cap at %lld bp: %lld (built-in %lld); measured in %.4f s\n",
			       path ? "path" : "distance", n_threads, cr ? "" : "(no fit)", cr ? cr->a : 0, cr ? cr->b : 0, cr ? cr->s : 0,
			       (long long)len, (long long)lev_wave_cap(len, len, path, cr, 1), (long long)lev_wave_cap(len, len, path, 0, 0), t);
		BEST(ours, lev_batch(&o, pr, n, d, paths));
		int64_t bad = 0;
		if (paths)
			for (int64_t i = 0; i < n; i++) {
				bad += replay_cost(&paths[i], pr[i].a, pr[i].la, pr[i].b, pr[i].lb) != d[i];
				aln_path_free(&paths[i]);
			}
		row(work, "rktlcs", n_threads, ours, ours, bad ? "PATH BAD" : path ? "paths ok" : "-");
		/* the bit-parallel lanes alone: the batch before the wavefronts (RKTLCS_LEV_WAVE=0) */
		rk_tune.lev_wave = -1;
		BEST(s, lev_batch(&o, pr, n, e, paths));
		rk_tune.lev_wave = 0;
		if (paths) for (int64_t i = 0; i < n; i++) aln_path_free(&paths[i]);
		free(paths);
		row(work, "rktlcs, sweep only", n_threads, s, ours, !memcmp(d, e, sizeof(int64_t) * (size_t)n) ? "same" : "DIFFERENT");
		rk_tune.lev_wave = 1;
		paths = path ? calloc((size_t)n, sizeof(aln_path_t)) : 0;
		BEST(s, lev_batch(&o, pr, n, e, paths));
		rk_tune.lev_wave = 0;
		if (paths) for (int64_t i = 0; i < n; i++) aln_path_free(&paths[i]);
		free(paths);
		row(work, "rktlcs, wavefronts only", n_threads, s, ours, !memcmp(d, e, sizeof(int64_t) * (size_t)n) ? "same" : "DIFFERENT");
		BEST(s, wfa_batch(pr, n, path, e));
		int same = !memcmp(d, e, sizeof(int64_t) * (size_t)n);
		row(work, path ? "WFA2 edit (high mem)" : "WFA2 edit score", n_threads, s, ours, same ? "same" : "DIFFERENT");
		BEST(s, edlib_batch(pr, n, path, e));
		same = !memcmp(d, e, sizeof(int64_t) * (size_t)n);
		row(work, "edlib 1.2.7", n_threads, s, ours, same ? "same" : "DIFFERENT");
	}
	for (int64_t i = 0; i < n; i++) free(a[i]), free(b[i]);
	free(a); free(b); free(pr); free(d); free(e);
}

static void bench_lcs_pair(const char *work, const char *a, int64_t la, const char *b, int64_t lb, int naive)
{
	lcs_opt_t o;
	lcs_opt_init(&o);
	o.n_threads = n_threads;
	int64_t l = -1, l1 = -1;
	double ours, s;
	BEST(ours, lcs_pair(&o, a, la, b, lb, &l, 0));
	char chk[64];
	snprintf(chk, sizeof chk, "lcs=%lld", (long long)l);
	row(work, "rktlcs", n_threads, ours, ours, chk);
	if (n_threads != 1) {
		o.n_threads = 1;
		BEST(s, lcs_pair(&o, a, la, b, lb, &l1, 0));
		row(work, "rktlcs", 1, s, ours, l1 == l ? "same" : "DIFFERENT");
	}
	if (naive) {
		double t = now();
		int64_t w = naive_lcs_len(a, la, b, lb);
		row(work, "naive DP (2 rows)", 1, now() - t, ours, w == l ? "same" : "DIFFERENT");
	}
}

int main(int argc, char **argv)
{
	if (argc >= 6 && !strcmp(argv[1], "batch")) {   /* batch THREADS PAIRS LENGTH REPS PCT... */
		n_threads = atoi(argv[2]);
		reps = atoi(argv[5]) > 0 ? atoi(argv[5]) : 1;
		printf("%-34s %-22s %3s %10s %9s  %s\n", "workload", "tool", "thr", "seconds", "x ours", "check");
		for (int i = 6; i < argc; i++) bench_lev_batch(atoll(argv[3]), atoll(argv[4]), atof(argv[i]));
		return 0;
	}
	if (argc < 2 || (strcmp(argv[1], "lev") && strcmp(argv[1], "lcs"))) {
		fprintf(stderr, "usage: bench_dp lev|lcs [THREADS] [SCALE] [REPS]\n       bench_dp batch THREADS PAIRS LENGTH REPS PCT...\n");
		return 1;
	}
	if (argc > 2) n_threads = atoi(argv[2]);
	double scale = argc > 3 ? atof(argv[3]) : 1.0;
	if (argc > 4) reps = atoi(argv[4]) > 0 ? atoi(argv[4]) : 1;
	printf("%-34s %-22s %3s %10s %9s  %s\n", "workload", "tool", "thr", "seconds", "x ours", "check");
	char work[64];
	if (!strcmp(argv[1], "lev")) {
		int64_t n = (int64_t)(40000 * scale), lb;
		char *a = random_seq(n), *b = random_seq(n);
		snprintf(work, sizeof work, "random %lldkb", (long long)(n / 1000));
		bench_lev_pair(work, a, n, b, n, 1);
		free(a); free(b);
		n = (int64_t)(1000000 * scale);
		a = random_seq(n);
		b = mutate(a, n, 1.0, &lb);
		snprintf(work, sizeof work, "%lldkb 1%% divergent", (long long)(n / 1000));
		bench_lev_pair(work, a, n, b, lb, 1);
		free(a); free(b);
		bench_lev_batch((int64_t)(100000 * scale), 150, 5.0);
	} else {
		int64_t n = (int64_t)(40000 * scale);
		char *a = random_seq(n), *b = random_seq(n);
		snprintf(work, sizeof work, "random %lldkb length", (long long)(n / 1000));
		bench_lcs_pair(work, a, n, b, n, 1);
		free(a); free(b);
		n = (int64_t)(1000000 * scale);
		a = random_seq(n), b = random_seq(n);
		snprintf(work, sizeof work, "random %lldkb length", (long long)(n / 1000));
		bench_lcs_pair(work, a, n, b, n, 0);
		free(a); free(b);
	}
	return 0;
}
