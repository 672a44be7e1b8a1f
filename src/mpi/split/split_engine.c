/* One rank's slab engine of a split pair (split_engine.h; moved from src/mpi/split_run.c): a
 * pass over its rows on the CPU or its GPU, the pipeline of passes between neighbours, its
 * piece of the path and the pieces' gather, and its speed on a sample. */
#include <stdlib.h>
#include <string.h>
#include "mpi/split/split_engine.h"
#include "algo/lev.h"
#include "algo/lcs.h"
#ifdef RKTLCS_HAVE_CUDA
#include "gpu/lev_gpu.h"
#include "gpu/lcs_gpu.h"
#endif

rk_status_t split_eng_init(split_eng_t *e, int kind, int simd, int nth, const rmpi_be_t *be, rgpu_stats_t *stats,
                           const char *a, int64_t la, const char *b, int64_t lb, int rev)
{
	memset(e, 0, sizeof *e);
	e->kind = kind; e->simd = simd; e->nth = nth; e->la = la; e->lb = lb; e->nw = (la + 63) / 64;
	e->use_gpu = be && be->use_gpu;
	e->g = be ? &be->g : 0;
	e->stats = stats;
	if (!e->use_gpu) return aln_prep_init(&e->p, a, la, rev, b, lb, rev, simd);
	e->a = a; e->b = b; e->rev = rev;
	return RK_OK;
}

void split_eng_free(split_eng_t *e)
{
	aln_prep_free(&e->p);
	memset(e, 0, sizeof *e);
}

rk_status_t split_eng_pass(split_eng_t *e, int64_t c0, int64_t c1, uint64_t *const *h, uint64_t *const *v)
{
	if (!e->use_gpu) { split_pass(e->kind, &e->p, e->simd, e->nth, c0, c1, h, v); return RK_OK; }
#ifdef RKTLCS_HAVE_CUDA
	rgpu_stats_t s;
	memset(&s, 0, sizeof s);
	/* reversed, the columns [c0, c1) of B are b[lb - c1, lb - c0) read backwards */
	const char *b = e->b + (e->rev ? e->lb - c1 : c0);
	rk_status_t st = e->kind == SPLIT_LEV
		? rgpu_lev_slab(e->g, e->a, e->la, b, c1 - c0, e->rev, 0, h[0] + c0 / 64, h[1] + c0 / 64, v[0], v[1], &s)
		: rgpu_lcs_slab(e->g, e->a, e->la, b, c1 - c0, e->rev, 0, h[0] + c0 / 64, v[0], &s);
	if (e->stats) { e->stats->kernel_s += s.kernel_s; e->stats->n_launch += s.n_launch; }
	return st;
#else
	(void)c0; (void)c1; (void)h; (void)v;
	rk_set_error("this rktlcs was built without CUDA");
	return RK_ERES;
#endif
}

/* A GPU rank's half of a pair meeting on column c (split_cols): only the band of a bound on the
 * pair's cost, found on the device first (each rank its own; a CPU half computes every cell).
 * The sums on column c stay exact on the optimal cells: every optimal path lies inside the band,
 * and the virtual values outside never undercut the true ones. So the cost, the cut and the
 * output are the one-rank ones. */
rk_status_t split_eng_half(split_eng_t *e, const char *a, int64_t la, const char *b, int64_t lb, int64_t c, int64_t k,
                           uint64_t *const *h, uint64_t *const *v)
{
#ifdef RKTLCS_HAVE_CUDA
	rgpu_stats_t s;
	int64_t band[2];   /* the half's band: rk_debug says it, nothing here needs it */
	memset(&s, 0, sizeof s);
	rk_status_t st = e->kind == SPLIT_LEV ? rgpu_lev_half(e->g, a, la, b, lb, c, e->rev, k, band, h[0], h[1], v[0], v[1], &s)
	                                      : rgpu_lcs_half(e->g, a, la, b, lb, c, e->rev, k, band, h[0], v[0], &s);
	if (e->stats) { e->stats->kernel_s += s.kernel_s; e->stats->n_launch += s.n_launch; }
	return st;
#else
	(void)e; (void)a; (void)la; (void)b; (void)lb; (void)c; (void)k; (void)h; (void)v;
	rk_set_error("this rktlcs was built without CUDA");
	return RK_ERES;
#endif
}

void split_edges_free(split_edges_t *e)
{
	for (int q = 0; q < 2; q++) { free(e->F[q]); free(e->H[q]); free(e->K[q]); }
}

/* The columns this rank would pass on at a time: a GPU wants larger launches. */
int64_t split_chunk_pref(int gpu)
{
	if (rk_tune.split_chunk > 0) return (rk_tune.split_chunk + 63) / 64 * 64;
	return gpu ? SPLIT_CHUNK_GPU : SPLIT_CHUNK;
}

/* One pipeline over my slab: the top edge from prev (or the boundary), the bottom edge to
 * next; keep_top: the top edge is kept in e->F; compute 0: only receive (and keep) it. Returns
 * the bottom edge in e->H. A rank alone in its pipeline passes all columns at once. */
rk_status_t split_pipeline(const rmpi_t *w, split_eng_t *g, int prev, int next, int tag, split_edges_t *e, int keep_top,
                           int compute, double *tm)
{
	const double t0 = rk_realtime();
	double busy = 0, fill = -1;
	const int P = split_planes(g->kind);
	int64_t ch = g->chunk > 0 ? g->chunk : split_chunk_pref(g->use_gpu);
	if (prev < 0 && next < 0) ch = g->lb > 0 ? g->lb : 1;
	uint64_t *v[2] = { 0, 0 };
	rk_status_t st = RK_OK;
	for (int q = 0; q < P && compute; q++) if (!(v[q] = malloc(sizeof(uint64_t) * (size_t)(g->nw + 1)))) st = RK_ERES;
	if (st) { rk_set_error("out of memory"); free(v[0]); free(v[1]); return st; }
	if (compute) split_left(g->kind, v, g->nw);
	if (prev < 0) split_top(g->kind, e->H, g->lb);
	for (int64_t c0 = 0; c0 < g->lb; c0 += ch) {
		int64_t c1 = c0 + ch < g->lb ? c0 + ch : g->lb, w0 = c0 / 64, nwc = (c1 - c0 + 63) / 64;
		for (int q = 0; q < P; q++) {
			if (prev >= 0) rmpi_recv(w, e->H[q] + w0, sizeof(uint64_t) * (size_t)nwc, prev, tag + 100 * q);
			if (keep_top) memcpy(e->F[q] + w0, e->H[q] + w0, sizeof(uint64_t) * (size_t)nwc);
		}
		/* a failed pass still sends its chunk on (the neighbours must not wait forever); the
		 * status is agreed after the pipeline */
		double tp = rk_realtime();
		if (fill < 0) fill = tp - t0;
		if (!st && compute) st = split_eng_pass(g, c0, c1, e->H, v);
		busy += rk_realtime() - tp;
		if (next >= 0)
			for (int q = 0; q < P; q++) rmpi_send(w, e->H[q] + w0, sizeof(uint64_t) * (size_t)nwc, next, tag + 100 * q);
	}
	for (int q = 0; q < P; q++) free(v[q]);
	if (tm) { tm[0] = rk_realtime() - t0; tm[1] = busy; tm[2] = fill > 0 ? fill : 0; }
	return st;
}

/* My piece of the path (rows a over columns b): on my GPU when the slab engine is one. */
static rk_status_t piece_path(int kind, const split_eng_t *e, int n_threads, const char *a, int64_t la, const char *b,
                              int64_t lb, int64_t *got, aln_path_t *piece)
{
#ifdef RKTLCS_HAVE_CUDA
	if (e->use_gpu) {
		aln_pair_t q = { a, b, la, lb };
		rgpu_stats_t s;
		memset(&s, 0, sizeof s);
		rk_status_t st;
		if (kind == SPLIT_LEV) { lev_opt_t o; lev_opt_init(&o); o.path = 1; st = rgpu_lev_batch(&o, &q, 1, e->g, got, piece, &s); }
		else { lcs_opt_t o; lcs_opt_init(&o); o.path = 1; st = rgpu_lcs_batch(&o, &q, 1, e->g, got, piece, &s); }
		if (e->stats) { e->stats->kernel_s += s.kernel_s; e->stats->n_launch += s.n_launch; }
		return st;
	}
#else
	(void)e;
#endif
	if (kind == SPLIT_LEV) {
		lev_opt_t o; lev_opt_init(&o); o.path = 1; o.n_threads = n_threads;
		return lev_pair(&o, a, la, b, lb, got, piece);
	}
	lcs_opt_t o; lcs_opt_init(&o); o.path = 1; o.n_threads = n_threads;
	return lcs_pair(&o, a, la, b, lb, got, piece);
}

rk_status_t split_piece(int kind, rmpi_be_t *be, int n_threads, const char *a, int64_t la, const char *b, int64_t lb,
                        int64_t *cost, aln_path_t *path)
{
	split_eng_t e;   /* piece_path reads the backend only */
	memset(&e, 0, sizeof e);
	e.kind = kind; e.use_gpu = be && be->use_gpu; e.g = be ? &be->g : 0; e.stats = be ? &be->stats : 0;
	rk_status_t st = piece_path(kind, &e, n_threads, a, la, b, lb, cost, path);
	if (!st && kind == SPLIT_LCS) *cost = la + lb - 2 * *cost;   /* as a cost */
	return st;
}

typedef struct { aln_path_t *path; int64_t cost; } split_gather_t;

static rk_status_t split_take(void *ctx, int rank, const void *data, uint64_t n)
{
	split_gather_t *g = ctx;
	(void)rank;
	aln_path_t piece = { (uint64_t *)data + 1, (int64_t)(n / 8) - 1, 0 };  /* borrowed */
	if (n < 8) return RK_OK;
	g->cost += (int64_t)((const uint64_t *)data)[0];
	return aln_path_cat(g->path, &piece);
}

/* Collective: my piece of the path, rows a[0, ni) over columns b[0, nj) (have: I have one; e:
 * my engine, for its GPU), in linear memory on my threads; rank 0 concatenates the pieces in
 * rank order into *path and checks that they cost total. */
rk_status_t split_pieces(const rmpi_t *w, int kind, int have, const split_eng_t *e, int n_threads, const char *a,
                         int64_t ni, const char *b, int64_t nj, int64_t total, aln_path_t *path, rmpi_split_prof_t *prof)
{
	aln_path_t piece = { 0 };
	int64_t got = 0;
	uint64_t *msg = 0;
	size_t msg_n = 0;
	rk_status_t st = RK_OK;
	const double t0 = rk_realtime();
	if (have) {
		st = piece_path(kind, e, n_threads, a, ni, b, nj, &got, &piece);
		if (kind == SPLIT_LCS) got = ni + nj - 2 * got;   /* as a cost */
		if (!st && (msg = malloc(8 * (size_t)(piece.n + 1)))) {
			msg[0] = (uint64_t)got;
			memcpy(msg + 1, piece.run, 8 * (size_t)piece.n);
			msg_n = 8 * (size_t)(piece.n + 1);
		} else if (!st) {
			rk_set_error("out of memory");
			st = RK_ERES;
		}
		if (st) rk_err("rank %d: %s", w->rank, rk_error());
	}
	aln_path_free(&piece);
	if (prof) prof->trace_s = rk_realtime() - t0;
	if ((st = rmpi_agree(w, st)) != RK_OK) { free(msg); return st; }
	split_gather_t gt = { path, 0 };
	if (w->rank == 0) path->n = 0;
	st = rmpi_gather_each(w, msg, msg_n, split_take, &gt);
	free(msg);
	if (!st && w->rank == 0 && gt.cost != total) {
		rk_err("the pieces of the split path cost %lld, not %lld", (long long)gt.cost, (long long)total);
		st = RK_ERES;
	}
	return rmpi_agree(w, st);
}

/* This rank's speed (cells/s) on a sample of the pair, for the slab sizes (a GPU wants a
 * larger one); 1 when it cannot be measured. The fastest of runs timed runs (0: two on a GPU,
 * its first launch loads its module; three on a CPU, its timer is noisy at a few ms), each
 * passing over the sample again until it has lasted min_run seconds. */
double split_sample(int kind, int simd, int n_threads, rmpi_be_t *be, const char *a, int64_t la, const char *b,
                    int64_t lb, rmpi_split_prof_t *prof, int runs, double min_run)
{
	const int P = split_planes(kind), gpu = be && be->use_gpu;
	int64_t sr = la < (gpu ? 65536 : 2048) ? la : (gpu ? 65536 : 2048), sc = lb < (gpu ? SPLIT_CHUNK_GPU : SPLIT_CHUNK) ? lb : (gpu ? SPLIT_CHUNK_GPU : SPLIT_CHUNK);
	double mine = 1;
	split_eng_t g;
	split_edges_t t;
	memset(&g, 0, sizeof g);
	memset(&t, 0, sizeof t);
	for (int q = 0; q < P; q++) t.H[q] = malloc(sizeof(uint64_t) * (size_t)(sc / 64 + 2));
	if (t.H[0] && (P == 1 || t.H[1]) && split_eng_init(&g, kind, simd, n_threads, be, 0, a, sr, b, sc, 0) == RK_OK) {
		rmpi_t solo = { 0 };
		solo.size = 1;
		double ts = rk_realtime(), best = 0;
		for (int it = 0; it < (runs > 0 ? runs : gpu ? 2 : 3); it++) {
			const double t0 = rk_realtime();
			double n = 0, dt = 0;  /* read only where n > 0; gcc 13 cannot see it */
			do {
				if (split_pipeline(&solo, &g, -1, -1, 0, &t, 0, 1, 0) != RK_OK) break;
				n++;
			} while ((dt = rk_realtime() - t0) < min_run);
			if (n > 0 && n / (dt > 1e-6 ? dt : 1e-6) > best) best = n / (dt > 1e-6 ? dt : 1e-6);
		}
		if (best > 0) mine = (double)sr * (double)sc * best;
		if (prof) prof->sample_s = rk_realtime() - ts;
	}
	split_eng_free(&g);
	split_edges_free(&t);
	return mine;
}
