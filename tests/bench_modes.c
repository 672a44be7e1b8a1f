/* CPU benchmark of lev's alignment modes against edlib, same pairs (fixed seed), same run,
 * one thread each: global (edlib NW), prefix (SHW) and infix (HW), the distance with every
 * end location (EDLIB_TASK_DISTANCE), and with the start and path (EDLIB_TASK_PATH). The
 * check column compares the distance, the first end and, with the path, the start (ours
 * checks its path's cost against the distance itself). Also an edlib-based regression test:
 * bench_modes check runs small workloads and exits 1 on any difference.
 * Usage: bench_modes [SCALE] [REPS] [WORKLOAD] | bench_modes check   (WORKLOAD: 1.. runs that row alone) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <edlib.h>
#include "algo/lev.h"

static uint64_t rs = 0x9e3779b97f4a7c15ull;
static uint64_t rnd(void)
{
	rs ^= rs << 13; rs ^= rs >> 7; rs ^= rs << 17;
	return rs;
}

static void random_seq(char *s, int64_t n)
{
	for (int64_t i = 0; i < n; i++) s[i] = "ACGT"[rnd() & 3];
}

/* b gets a copy of a with pct percent of positions edited (substitutions, insertions,
 * deletions in equal shares); returns its length (<= 2 la) */
static int64_t mutate(const char *a, int64_t la, double pct, char *b)
{
	int64_t n = 0;
	uint64_t thr = (uint64_t)(pct / 100.0 * 1e6);
	for (int64_t i = 0; i < la; i++) {
		if (rnd() % 1000000 >= thr) { b[n++] = a[i]; continue; }
		int kind = (int)(rnd() % 3);
		if (kind == 0) { char c; do c = "ACGT"[rnd() & 3]; while (c == a[i]); b[n++] = c; }
		else if (kind == 1) { b[n++] = "ACGT"[rnd() & 3]; b[n++] = a[i]; }
	}
	return n;
}

typedef struct {
	const char *name;
	int64_t n, la, lb;   /* pairs; read length; reference length */
	double pct;          /* divergence of the read from its place in the reference; < 0: unrelated */
} work_t;

typedef struct { char *a, *b; int64_t la, lb; } pair_t;

/* the read A is a mutated piece of B (or unrelated to it) */
static pair_t *make(const work_t *w)
{
	pair_t *p = calloc((size_t)w->n, sizeof *p);
	for (int64_t q = 0; q < w->n; q++) {
		p[q].b = malloc((size_t)w->lb + 1);
		p[q].a = malloc(2 * (size_t)w->la + 1);
		random_seq(p[q].b, w->lb);
		if (w->pct < 0) { random_seq(p[q].a, w->la); p[q].la = w->la; }
		else {
			int64_t at = w->lb > w->la ? (int64_t)(rnd() % (uint64_t)(w->lb - w->la)) : 0;
			p[q].la = mutate(p[q].b + at, w->la < w->lb ? w->la : w->lb, w->pct, p[q].a);
		}
		p[q].lb = w->lb;
	}
	return p;
}

static const char *mode_name[] = { "global", "prefix", "infix" };
static const EdlibAlignMode edlib_mode[] = { EDLIB_MODE_NW, EDLIB_MODE_SHW, EDLIB_MODE_HW };

/* one pass of ours over the pairs: distances, first ends, starts, path costs */
static void ours(const pair_t *p, int64_t n, int mode, int path, int64_t *d, int64_t *e, int64_t *s)
{
	lev_opt_t o;
	lev_opt_init(&o);
	o.mode = mode; o.path = path;
	aln_path_t pa = { 0 };
	aln_ends_t en = { 0 };
	for (int64_t q = 0; q < n; q++) {
		if (lev_pair_mode(&o, p[q].a, p[q].la, p[q].b, p[q].lb, &d[q], path ? &pa : 0, &en)) { fprintf(stderr, "%s\n", rk_error()); exit(2); }
		e[q] = en.n ? en.end[0] : -1;
		s[q] = en.start;
	}
	aln_path_free(&pa);
	aln_ends_free(&en);
}

static void theirs(const pair_t *p, int64_t n, int mode, int path, int64_t *d, int64_t *e, int64_t *s)
{
	EdlibAlignTask task = path ? EDLIB_TASK_PATH : EDLIB_TASK_DISTANCE;
	for (int64_t q = 0; q < n; q++) {
		EdlibAlignResult r = edlibAlign(p[q].a, (int)p[q].la, p[q].b, (int)p[q].lb, edlibNewAlignConfig(-1, edlib_mode[mode], task, 0, 0));
		d[q] = r.editDistance;
		e[q] = r.numLocations ? r.endLocations[0] + 1 : -1;   /* edlib: the last symbol, ours: one past it */
		s[q] = r.startLocations ? r.startLocations[0] : 0;
		edlibFreeAlignResult(r);
	}
}

static int reps = 3;

/* the thread's CPU time: both tools run single-threaded, and the machine may be shared */
static double cpu_now(void)
{
	struct timespec t;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
	return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static double best_of(void (*f)(const pair_t *, int64_t, int, int, int64_t *, int64_t *, int64_t *), const pair_t *p, int64_t n,
                      int mode, int path, int64_t *d, int64_t *e, int64_t *s)
{
	double best = 1e300;
	for (int r = 0; r < reps; r++) {
		double t = cpu_now();
		f(p, n, mode, path, d, e, s);
		t = cpu_now() - t;
		if (t < best) best = t;
	}
	return best;
}

static int run(const work_t *w, int check_only)
{
	pair_t *p = make(w);
	int64_t *v = malloc(6 * sizeof *v * (size_t)w->n), bad = 0;
	for (int mode = 0; mode < 3; mode++)
		for (int path = 0; path < 2; path++) {
			int64_t *d = v, *e = v + w->n, *s = v + 2 * w->n, *D = v + 3 * w->n, *E = v + 4 * w->n, *S = v + 5 * w->n;
			double to = best_of(ours, p, w->n, mode, path, d, e, s), te = best_of(theirs, p, w->n, mode, path, D, E, S);
			int64_t diff = 0;
			for (int64_t q = 0; q < w->n; q++)
				diff += d[q] != D[q] || e[q] != E[q] || (path && s[q] != S[q]);
			bad += diff;
			if (!check_only || diff)
				printf("%-28s %-7s %-9s %10.4f %10.4f %7.2f  %s\n", w->name, mode_name[mode], path ? "path" : "distance", to, te,
				       te / (to > 0 ? to : 1e-9), diff ? "DIFFERENT" : "same");
			fflush(stdout);
		}
	for (int64_t q = 0; q < w->n; q++) { free(p[q].a); free(p[q].b); }
	free(p); free(v);
	return bad != 0;
}

int main(int argc, char **argv)
{
	const int check = argc > 1 && !strcmp(argv[1], "check");
	const double scale = !check && argc > 1 ? atof(argv[1]) : 1;
	if (argc > 2) reps = atoi(argv[2]);
	if (check) reps = 1;
	const work_t W[] = {
		{ "150 bp in 1 kb, 5%", 20000, 150, 1000, 5 },
		{ "1 kb in 10 kb, 5%", 1000, 1000, 10000, 5 },
		{ "1 kb in 10 kb, unrelated", 300, 1000, 10000, -1 },
		{ "10 kb in 100 kb, 10%", 10, 10000, 100000, 10 },
		{ "10 kb in 100 kb, unrelated", 2, 10000, 100000, -1 },
		{ "50 kb in 500 kb, 2%", 1, 50000, 500000, 2 },
	};
	int bad = 0;
	if (!check) printf("%-28s %-7s %-9s %10s %10s %7s  %s\n", "workload", "mode", "task", "rktlcs_s", "edlib_s", "ratio", "check");
	const size_t only = argc > 3 ? (size_t)atoi(argv[3]) : 0;
	for (size_t i = 0; i < sizeof W / sizeof *W; i++) {
		if (only && i + 1 != only) continue;
		work_t w = W[i];
		if (check) { w.n = w.n / 50 + 1; if (w.lb > 20000) continue; }
		else w.n = (int64_t)(w.n * scale) > 0 ? (int64_t)(w.n * scale) : 1;
		bad |= run(&w, check);
	}
	if (check) fprintf(stderr, "bench_modes check: %s\n", bad ? "rktlcs and edlib DIFFER" : "rktlcs and edlib agree");
	return bad;
}
