/* One pair across the ranks (split_run.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "mpi/split_run.h"
#include "mpi/split_int.h"
#include "algo/lev.h"
#include "algo/lcs.h"
#ifdef RKTLCS_HAVE_CUDA
#include "gpu/lev_gpu.h"
#include "gpu/lcs_gpu.h"
#endif


/* One rank's slab engine: the CPU (a prep of its rows and of B) or its GPU (the rows and B as
 * text, reversed on the device for the reverse pass); the pass contract is split_pass's. */
typedef struct {
	int kind, simd, nth, use_gpu, rev;
	int64_t chunk;           /* columns per transfer: the same on every rank (0: this rank's own) */
	const rgpu_opt_t *g;
	rgpu_stats_t *stats;
	aln_prep_t p;            /* CPU */
	const char *a, *b;       /* GPU: the texts as given (borrowed) */
	int64_t la, lb, nw;
} split_eng_t;

static rk_status_t eng_init(split_eng_t *e, int kind, int simd, int nth, const rmpi_be_t *be, rgpu_stats_t *stats,
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

static void eng_free(split_eng_t *e)
{
	aln_prep_free(&e->p);
	memset(e, 0, sizeof *e);
}

static rk_status_t eng_pass(split_eng_t *e, int64_t c0, int64_t c1, uint64_t *const *h, uint64_t *const *v)
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
static rk_status_t eng_half(split_eng_t *e, const char *a, int64_t la, const char *b, int64_t lb, int64_t c, int64_t k,
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

#define TAG_FWD 21
#define TAG_REV 22
#define TAG_J 23
#define TAG_MID 24      /* + plane */
#define TAG_FWD2 26
#define TAG_REV2 27
#define TAG_BAND 31     /* .. 35: two banded halves */
#define TAG_READY 36    /* rank 0 or 1 to rank 2 or 3: its half's set-up is done */

/* Ranks 0 and 1 tell ranks 2 and 3 once (split_all), when their halves' codes are on their GPUs. */
typedef struct { const rmpi_t *w; int sent; } split_ready_t;
static void split_ready(void *arg)
{
	split_ready_t *r = arg;
	const int64_t go = 1;
	if (r->sent) return;
	r->sent = 1;
	rmpi_send(r->w, &go, sizeof go, r->w->rank + 2, TAG_READY);
}

/* Words of rows per rank: RKTLCS_SPLIT_WORDS, else proportional to the measured speeds. */
static void split_words(const rmpi_t *w, int64_t nw, const double *speed, int64_t *words)
{
	int64_t given = 0;
	if (rk_tune.split_words) {
		const char *s = rk_tune.split_words;
		for (int r = 0; r < w->size; r++) {
			words[r] = *s ? strtoll(s, (char **)&s, 10) : 0;
			if (*s == ',') s++;
			if (words[r] < 0) words[r] = 0;
			given += words[r];
		}
		/* the last rank with rows takes what is left (or gives back the excess) */
		for (int r = w->size - 1; r >= 0 && given != nw; r--) {
			int64_t d = nw - given;
			if (words[r] + d < 0) d = -words[r];
			words[r] += d; given += d;
		}
		return;
	}
	double tot = 0;
	for (int r = 0; r < w->size; r++) tot += speed[r];
	int64_t acc = 0;
	double cum = 0;
	for (int r = 0; r < w->size; r++) {
		cum += speed[r];
		int64_t end = r == w->size - 1 ? nw : (int64_t)(nw * cum / tot + 0.5);
		if (end < acc) end = acc;
		words[r] = end - acc;
		acc = end;
	}
}

typedef struct {
	uint64_t *F[2], *H[2];   /* the top edge kept (F), the working edge (H) */
	uint64_t *K[2];          /* the bottom half's reverse edge at my top row */
	int64_t nwb;             /* 64-bit words of one edge plane */
} split_edges_t;

static void edges_free(split_edges_t *e)
{
	for (int q = 0; q < 2; q++) { free(e->F[q]); free(e->H[q]); free(e->K[q]); }
}

/* The columns this rank would pass on at a time: a GPU wants larger launches. */
static int64_t split_chunk_pref(int gpu)
{
	if (rk_tune.split_chunk > 0) return (rk_tune.split_chunk + 63) / 64 * 64;
	return gpu ? SPLIT_CHUNK_GPU : SPLIT_CHUNK;
}

/* One pipeline over my slab: the top edge from prev (or the boundary), the bottom edge to
 * next; keep_top: the top edge is kept in e->F; compute 0: only receive (and keep) it. Returns
 * the bottom edge in e->H. A rank alone in its pipeline passes all columns at once. */
static rk_status_t split_pipeline(const rmpi_t *w, split_eng_t *g, int prev, int next, int tag, split_edges_t *e, int keep_top,
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
		if (!st && compute) st = eng_pass(g, c0, c1, e->H, v);
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
static rk_status_t split_pieces(const rmpi_t *w, int kind, int have, const split_eng_t *e, int n_threads, const char *a,
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

/* Two ranks meet on a column instead of a row: rank 0 runs forward over every row and the
 * columns [0, c), rank 1 on A and B reversed over the columns [c, lb), c by their speeds. Each
 * GPU thus runs all of the pair's strips at once: a slab of half the rows leaves half of every
 * SM's warp slots empty (H200, 10 Mb: 66% of the whole pair's time for half of its cells).
 * The cost is the smallest sum of the two vertical edges on column c; the cut is its last row
 * (split_meet_col), and each rank's piece is the canonical path of its own rectangle. */
static rk_status_t split_cols(const rmpi_t *w, int kind, int64_t k, const char *a, int64_t la, const char *b, int64_t lb,
                              int want_path, int n_threads, rmpi_be_t *be, const double *speed, split_colcut_t *defer,
                              int64_t *val, aln_path_t *path, rmpi_split_prof_t *prof)
{
	const int P = split_planes(kind), me = w->rank;
	const int64_t nw = (la + 63) / 64;
	int64_t c = (int64_t)((double)lb * speed[0] / (speed[0] + speed[1]) / 64 + 0.5) * 64;
	if (c > lb) c = lb;
	const int64_t c0 = me == 0 ? 0 : c, nc = me == 0 ? c : lb - c;
	split_eng_t g;
	uint64_t *h[2] = { 0, 0 }, *v[2] = { 0, 0 }, *rv[2] = { 0, 0 };   /* rv: rank 1's edge, on rank 0 */
	memset(&g, 0, sizeof g);
	const double t0 = rk_realtime();
	rk_status_t st = eng_init(&g, kind, aln_simd_level(-1), n_threads, be, be ? &be->stats : 0, a, la, b + c0, nc, me == 1);
	for (int q = 0; q < P && !st; q++)
		if (!(h[q] = malloc(8 * (size_t)(nc / 64 + 2))) || !(v[q] = malloc(8 * (size_t)(nw + 1))) ||
		    (me == 0 && !(rv[q] = malloc(8 * (size_t)(nw + 1))))) {
			rk_set_error("out of memory for the edges of %lld rows x %lld columns", (long long)la, (long long)nc);
			st = RK_ERES;
		}
	if (!st) {
		split_top(kind, h, nc);
		split_left(kind, v, nw);
		const double tp = rk_realtime();
		if (nc > 0) st = g.use_gpu ? eng_half(&g, a, la, b, lb, c, k, h, v) : eng_pass(&g, 0, nc, h, v);
		if (prof) { prof->rows = la; prof->fwd[0] = rk_realtime() - t0; prof->fwd[1] = rk_realtime() - tp; }
	}
	if (st) rk_err("rank %d: %s", me, rk_error());
	const double t1 = rk_realtime();
	if ((st = rmpi_agree(w, st)) != RK_OK) goto done;
	const double t2 = rk_realtime();
	/* rank 1's edge to rank 0, which meets them */
	int64_t mt[2] = { 0, 0 }, fat = 0;   /* the pair's cost, the row of the cut; F(cut, c) */
	if (me == 1) for (int q = 0; q < P; q++) rmpi_send(w, v[q], 8 * (size_t)nw, 0, TAG_MID + q);
	if (me == 0) {
		for (int q = 0; q < P; q++) rmpi_recv(w, rv[q], 8 * (size_t)nw, 1, TAG_MID + q);
		mt[1] = split_meet_col(kind, v, rv, la, lb, c, &mt[0], &fat);
	}
	if ((st = rmpi_agree(w, st)) != RK_OK) goto done;
	for (int i = 0; i < 2; i++) rmpi_bcast_i64(w, 0, &mt[i]);
	rk_debug("split: rank %d: columns [%lld, %lld): half %.3f s, waits %.3f s for the other, meeting %.3f s", me, (long long)c0,
	         (long long)(c0 + nc), t1 - t0, t2 - t1, rk_realtime() - t2);
	const int64_t total = mt[0], cut = mt[1], value = kind == SPLIT_LEV ? total : (la + lb - total) / 2;
	if (!want_path || (kind == SPLIT_LEV && k >= 0 && total > k)) {
		*val = kind == SPLIT_LEV && k >= 0 && total > k ? -1 : value;
		if (defer) *defer = (split_colcut_t){ total, -1, c, 0 };
		goto done;
	}
	if (defer) {   /* the pieces on pairs of ranks (split_pairs) */
		*defer = (split_colcut_t){ total, cut, c, fat };
		goto done;
	}
	/* the pieces: (0, 0) to (cut, c) on rank 0, (cut, c) to (la, lb) on rank 1 */
	const int64_t i0 = me == 0 ? 0 : cut, ni = me == 0 ? cut : la - cut;
	if ((st = split_pieces(w, kind, 1, &g, n_threads, a + i0, ni, b + c0, nc, total, path, prof)) == RK_OK) *val = value;
done:
	for (int q = 0; q < 2; q++) { free(h[q]); free(v[q]); free(rv[q]); }
	eng_free(&g);
	return st;
}

/* Ranks alike (each on a GPU of one model, as many ranks on each): equal speeds, no sample.
 * (A GPU's sample cost 0.25 s of a 2.8 s split of 10 Mb on two H200.) Collective. */
static int split_alike(const rmpi_t *w, const rmpi_be_t *be)
{
	const int R = w->size;
	char sig[128] = "", *sigs = malloc(sizeof sig * (size_t)R);
	int alike = 0;
	if (be && be->use_gpu) {
		const int nd = rgpu_visible_index() >= 0 ? rgpu_node_devices() : rgpu_device_count() > 0 ? rgpu_device_count() : 1;
		int share = 0;
		for (int l = 0; l < w->local_size; l++) share += l % nd == w->local_rank % nd;
		snprintf(sig, sizeof sig, "gpu %d %.100s", share, be->name);
	}
	if (sigs) {
		rmpi_allgather(w, sig, sizeof sig, sigs);
		alike = sig[0] != 0;
		for (int r = 0; r < R; r++) if (strcmp(sigs + sizeof sig * (size_t)r, sig)) alike = 0;
		free(sigs);
	}
	return alike;
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
	if (t.H[0] && (P == 1 || t.H[1]) && eng_init(&g, kind, simd, n_threads, be, 0, a, sr, b, sc, 0) == RK_OK) {
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
	eng_free(&g);
	edges_free(&t);
	return mine;
}

/* The chunk of columns every transfer carries must be the same on both ends: the largest
 * any rank wants (a CPU rank next to a GPU rank sent 64k columns where the GPU waited for
 * 1M: a job of CPU and GPU ranks hung on a pair wider than 64k). Collective. */
static int64_t split_chunk_agree(const rmpi_t *w, const rmpi_be_t *be, int64_t *chunks)
{
	int64_t chunk = split_chunk_pref(be && be->use_gpu);
	rmpi_allgather(w, &chunk, sizeof chunk, chunks);
	for (int r = 0; r < w->size; r++) if (chunks[r] > chunk) chunk = chunks[r];
	return chunk;
}

/* A split in slabs of rows: the pair, the options, and this rank's place among the slabs. */
typedef struct {
	const rmpi_t *w;
	int kind, want_path, n_threads, simd, P;
	int64_t k, la, lb, chunk;
	const char *a, *b;
	rmpi_be_t *be;
	rmpi_split_prof_t *prof;
	int64_t *S;              /* S[r]: rank r's first row, S[R] = la */
	int h;                   /* ranks [0, h) form the top half */
	int64_t s0, s1, m;       /* my rows [s0, s1); the middle row */
	int have, top;           /* I have rows; I am in the top half */
	/* the ranks with rows: in rank order (prev, next: the path's pieces), the first and last of
	 * all, the last of the top half (ftop) and the first of the bottom half (rbot); my
	 * neighbours inside my half (hprev, hnext) */
	int prev, next, first, last, ftop, rbot, hprev, hnext;
} split_rows_t;

/* The slabs' first rows from the words of each rank, and my neighbours among them. */
static void split_layout(split_rows_t *s, const int64_t *words)
{
	const int R = s->w->size, me = s->w->rank;
	s->S[0] = 0;
	for (int r = 0; r < R; r++) s->S[r + 1] = s->S[r] + words[r] * 64 < s->la ? s->S[r] + words[r] * 64 : s->la;
	s->h = R / 2;
	s->s0 = s->S[me]; s->s1 = s->S[me + 1]; s->m = s->S[s->h];
	s->have = s->s1 > s->s0; s->top = me < s->h;
	s->prev = s->next = s->first = s->last = s->ftop = s->rbot = -1;
	for (int r = 0; r < R; r++) {
		if (s->S[r + 1] <= s->S[r]) continue;
		if (s->first < 0) s->first = r;
		s->last = r;
		if (r < s->h) s->ftop = r;
		else if (s->rbot < 0) s->rbot = r;
		if (r < me) s->prev = r;
		if (r > me && s->next < 0) s->next = r;
	}
	s->hprev = s->prev >= 0 && (s->prev < s->h) == s->top ? s->prev : -1;
	s->hnext = s->next >= 0 && (s->next < s->h) == s->top ? s->next : -1;
}

/* The halves: the top one keeps its forward edge at each rank's top row (F) and ends with
 * F(m) in H; the bottom one works in K and ends with each rank's reverse edge at its top
 * row there, R(m) at rank rbot. Collective (agreed). */
static rk_status_t split_halves(const split_rows_t *s, split_eng_t *p, split_edges_t *e)
{
	rk_status_t st = RK_OK;
	if (s->have) {
		split_edges_t x = { { e->F[0], e->F[1] }, { e->H[0], e->H[1] }, { 0, 0 }, e->nwb };
		double *tm = s->prof ? s->prof->fwd : 0;
		if (!s->top) { x.H[0] = e->K[0]; x.H[1] = e->K[1]; }
		st = s->top ? split_pipeline(s->w, p, s->hprev, s->hnext, TAG_FWD, &x, s->want_path, 1, tm)
		            : split_pipeline(s->w, p, s->hnext, s->hprev, TAG_REV, &x, 0, 1, tm);
		if (st) rk_err("rank %d: %s", s->w->rank, rk_error());
	}
	return rmpi_agree(s->w, st);
}

/* The meeting, on ftop (else rbot): F(m) there (the boundary without a top half), R(m) from
 * rbot (the boundary without a bottom half). mt, on every rank: the pair's cost, the column
 * jm where the path reaches row m, F(m, jm). Collective. */
static void split_meet_row(const split_rows_t *s, split_edges_t *e, int64_t *mt)
{
	const rmpi_t *w = s->w;
	const int meet = s->ftop >= 0 ? s->ftop : s->rbot;
	mt[0] = mt[1] = mt[2] = 0;
	if (s->ftop >= 0 && s->rbot >= 0 && w->rank == s->rbot)
		for (int q = 0; q < s->P; q++) rmpi_send(w, e->K[q], 8 * (size_t)e->nwb, s->ftop, TAG_MID + q);
	if (w->rank == meet) {
		uint64_t *fm[2] = { e->H[0], e->H[1] }, *rm[2] = { e->K[0], e->K[1] };
		if (s->ftop < 0) split_top(s->kind, fm, s->lb);
		if (s->rbot < 0) split_top(s->kind, rm, s->lb);
		else if (s->ftop >= 0) for (int q = 0; q < s->P; q++) rmpi_recv(w, e->K[q], 8 * (size_t)e->nwb, s->rbot, TAG_MID + q);
		mt[1] = split_meet(s->kind, fm, s->m, rm, s->la, s->lb, &mt[0], &mt[2]);
	}
	for (int i = 0; i < 3; i++) rmpi_bcast_i64(w, meet, &mt[i]);
}

/* Each half is now a problem of its own, cut at (m, jm): the top one [0, m] x [0, jm], the
 * bottom one [m, la] x [jm, lb]. For the crossings of its inner rows the top half needs
 * the reverse edges from (m, jm): a reverse pipeline over its ranks but the first (which
 * crosses at column 0); the bottom half the forward edges from (m, jm): a forward one over
 * its ranks, the last only receiving (nothing is below it). A half with one rank skips it.
 * Collective (agreed). */
static rk_status_t split_sub(const split_rows_t *s, split_edges_t *e, int64_t jm)
{
	const rmpi_t *w = s->w;
	const int sub = s->have && (s->top ? w->rank != s->first : s->rbot != s->last);
	rk_status_t st = RK_OK;
	if (sub) {
		split_eng_t g;
		split_edges_t x = { { e->F[0], e->F[1] }, { e->H[0], e->H[1] }, { 0, 0 }, e->nwb };
		rgpu_stats_t *gs = s->be ? &s->be->stats : 0;
		double *tm = s->prof ? s->prof->rev : 0;
		st = s->top ? eng_init(&g, s->kind, s->simd, s->n_threads, s->be, gs, s->a + s->s0, s->s1 - s->s0, s->b, jm, 1)
		            : eng_init(&g, s->kind, s->simd, s->n_threads, s->be, gs, s->a + s->s0, s->s1 - s->s0, s->b + jm, s->lb - jm, 0);
		g.chunk = s->chunk;
		/* the top half's chain runs up to the second rank with rows; the bottom half's down to the last */
		if (!st && s->top) st = split_pipeline(w, &g, s->hnext, s->hprev == s->first ? -1 : s->hprev, TAG_REV2, &x, 0, 1, tm);
		else if (!st) st = split_pipeline(w, &g, s->hprev, s->hnext, TAG_FWD2, &x, 1, w->rank != s->last, tm);
		eng_free(&g);
		if (st) rk_err("rank %d: %s", w->rank, rk_error());
	}
	return rmpi_agree(w, st);
}

/* Where the path first reaches my top row (j0; 0 on the first rank with rows). Collective
 * (agreed). */
static rk_status_t split_crossing(const split_rows_t *s, const split_edges_t *e, int64_t total, int64_t jm, int64_t fm,
                                  int64_t *j0)
{
	rk_status_t st = RK_OK;
	*j0 = 0;
	if (s->have && s->w->rank != s->first) {
		if (s->w->rank == s->rbot) *j0 = jm;
		else if (s->top) *j0 = split_cross(s->kind, e->F, s->s0, e->H, s->m, jm, fm);
		else {
			*j0 = split_cross(s->kind, e->F, s->s0 - s->m, e->K, s->la - s->m, s->lb - jm, total - fm);
			if (*j0 >= 0) *j0 += jm;
		}
		if (*j0 < 0) {
			rk_err("rank %d: no optimal cell on row %lld (inconsistent edges)", s->w->rank, (long long)s->s0);
			st = RK_ERES;
		}
	}
	return rmpi_agree(s->w, st);
}

/* Two halves meet in the middle (docs/lev.md, "One pair on many ranks"): ranks [0, h) own
 * the rows above m and run the forward pipeline down to row m, ranks [h, R) own the rows
 * below and run the reverse one (A and B reversed) up to row m, both at once; the pair's
 * cost is the smallest sum of the two edges on row m. Two ranks thus compute at once from
 * the first column, with no pipeline between them. Collective. */
static rk_status_t split_rows(split_rows_t *s, const int64_t *words, int64_t *val, aln_path_t *path)
{
	const rmpi_t *w = s->w;
	split_eng_t p;
	split_edges_t e;
	rk_status_t st = RK_OK;
	memset(&p, 0, sizeof p); memset(&e, 0, sizeof e);
	if (!(s->S = malloc(sizeof(int64_t) * (size_t)(w->size + 1)))) { rk_err("out of memory"); st = RK_ERES; }
	if ((st = rmpi_agree(w, st)) != RK_OK) goto done;
	split_layout(s, words);
	if (s->prof) s->prof->rows = s->s1 - s->s0;
	e.nwb = (s->lb + 63) / 64 + 1;
	if (s->have) {
		st = eng_init(&p, s->kind, s->simd, s->n_threads, s->be, s->be ? &s->be->stats : 0, s->a + s->s0, s->s1 - s->s0, s->b,
		              s->lb, !s->top);
		p.chunk = s->chunk;
		for (int q = 0; q < s->P && !st; q++)
			if (!(e.F[q] = calloc((size_t)e.nwb, 8)) || !(e.H[q] = calloc((size_t)e.nwb, 8)) || !(e.K[q] = calloc((size_t)e.nwb, 8)))
				st = RK_ERES;
		if (st)
			rk_err("rank %d: out of memory for a slab of %lld rows x %lld columns", w->rank, (long long)(s->s1 - s->s0),
			       (long long)s->lb);
	}
	if ((st = rmpi_agree(w, st)) != RK_OK) goto done;
	if ((st = split_halves(s, &p, &e)) != RK_OK) goto done;
	int64_t mt[3];
	split_meet_row(s, &e, mt);
	const int64_t total = mt[0], jm = mt[1], fm = mt[2];
	const int64_t value = s->kind == SPLIT_LEV ? total : (s->la + s->lb - total) / 2;
	if (!s->want_path || (s->kind == SPLIT_LEV && s->k >= 0 && total > s->k)) {
		*val = s->kind == SPLIT_LEV && s->k >= 0 && total > s->k ? -1 : value;
		goto done;
	}
	if ((st = split_sub(s, &e, jm)) != RK_OK) goto done;
	/* where the path first reaches my top row, and where it reaches the next rank's (its j0) */
	int64_t j0, j1 = s->lb;
	if ((st = split_crossing(s, &e, total, jm, fm, &j0)) != RK_OK) goto done;
	if (s->have && s->prev >= 0) rmpi_send(w, &j0, sizeof j0, s->prev, TAG_J);
	if (s->have && s->next >= 0) rmpi_recv(w, &j1, sizeof j1, s->next, TAG_J);
	/* my piece, from where the path reaches my top row to where it reaches the next one's */
	st = split_pieces(w, s->kind, s->have, &p, s->n_threads, s->a + s->s0, s->s1 - s->s0, s->b + j0, j1 - j0, total, path, s->prof);
	if (st == RK_OK) *val = value;
done:
	edges_free(&e);
	eng_free(&p);
	free(s->S);
	s->S = 0;
	return st;
}

/* Every rank over every cell: slabs of rows, or two ranks meeting on a column, sized by each
 * rank's fastest short run, as before the plan (the plan's one run of 10 ms, for the share
 * side by side, gave unequal speeds beside other work: a random 1 Mb pair's halves took 8.3
 * and 6.3 s). Collective. */
rk_status_t split_all(const rmpi_t *w, int kind, int64_t k, const char *a, int64_t la, const char *b, int64_t lb,
                      int want_path, int n_threads, rmpi_be_t *be, int two, split_colcut_t *defer, int64_t *val,
                      aln_path_t *path, rmpi_split_prof_t *prof)
{
	double mine = 1;
	const int simd = aln_simd_level(-1), R = w->size;
	const int64_t nw = (la + 63) / 64;
	if (two && R > 2) {  /* ranks 0 and 1 alone, in a world of their own; the others wait asleep
	                      * and touch no GPU (they may have started no context: modes.c), but
	                      * for ranks 2 and 3 when the path's pieces are theirs too (split_pairs):
	                      * they start their GPUs once ranks 0 and 1 have their codes on theirs
	                      * (10 Mb, lev --path at np 4: 2.60 s; 3.30 s when started at once) */
		const int pay = split_pairs_pay(want_path, R, la, lb), pairs = pay && split_gpus_apart(w, be, 4);
		if (pay && w->rank == 0)
			rk_debug("split: %s", pairs ? "the path's two pieces on ranks 0 and 2, 1 and 3, each split on a column again"
			                            : "the path's two pieces on ranks 0 and 1 alone: ranks 2 and 3 would share their GPUs");
		rmpi_t sub;
		rmpi_sub(w, 2, &sub);
		rk_status_t st = RK_OK;
		split_colcut_t x = { 0, -1, 0, 0 };
		split_ready_t ready = { w, 0 };
		if (pairs && (w->rank == 2 || w->rank == 3)) {
			int64_t go = 0;
			rmpi_recv_idle(w, &go, sizeof go, w->rank - 2, TAG_READY);
			if (be && be->use_gpu) rgpu_warm_start(w->local_rank);
		}
		if (pairs && w->rank < 2 && be) { be->g.ready = split_ready; be->g.ready_arg = &ready; }
		if (w->rank < 2) st = split_all(&sub, kind, k, a, la, b, lb, want_path, n_threads, be, 0, pairs ? &x : 0, val, path, prof);
		if (pairs && w->rank < 2) {   /* exactly one message, whatever happened */
			if (be) { be->g.ready = 0; be->g.ready_arg = 0; }
			split_ready(&ready);
		}
		rmpi_sub_free(&sub);
		st = rmpi_agree_idle(w, st);
		return st || !pairs ? st : split_pairs(w, kind, a, la, b, lb, n_threads, be, &x, val, path, prof);
	}
	double *speed = malloc(sizeof(double) * (size_t)R);
	int64_t *words = malloc(sizeof(int64_t) * (size_t)R), *chunks = malloc(sizeof(int64_t) * (size_t)R);
	rk_status_t st = RK_OK;
	if (!speed || !words || !chunks) { rk_err("out of memory"); st = RK_ERES; }
	if ((st = rmpi_agree(w, st)) != RK_OK) goto done;
	const int alike = split_alike(w, be);
	if (!rk_tune.split_words && !alike) mine = split_sample(kind, simd, n_threads, be, a, la, b, lb, prof, 0, 0);
	rmpi_allgather(w, &mine, sizeof mine, speed);
	split_words(w, nw, speed, words);
	const int64_t chunk = split_chunk_agree(w, be, chunks);
	if (R == 2 && !rk_tune.split_words) {
		st = split_cols(w, kind, k, a, la, b, lb, want_path, n_threads, be, speed, defer, val, path, prof);
		goto done;
	}
	if (prof) prof->speed = mine;
	split_rows_t s = { .w = w, .kind = kind, .want_path = want_path, .n_threads = n_threads, .simd = simd, .P = split_planes(kind),
	                   .k = k, .la = la, .lb = lb, .chunk = chunk, .a = a, .b = b, .be = be, .prof = prof };
	st = split_rows(&s, words, val, path);
done:
	free(speed); free(words); free(chunks);
	return st;
}


int rmpi_split_shared(const rmpi_t *w, const rmpi_be_t *be)
{
	return w->size >= 2 && rmpi_any(w, be && be->use_gpu) && !split_gpus_apart(w, be, 2);
}

/* Rank 0 alone (pre: the plan's prep of the pair, or none), the others asleep. Collective. */
static rk_status_t split_one(const rmpi_t *w, int kind, int64_t k, int64_t bound, const aln_prep_t *pre, const char *a, int64_t la,
                             const char *b, int64_t lb, int want_path, int n_threads, int64_t *val, aln_path_t *path,
                             rmpi_split_prof_t *prof)
{
	rk_status_t st = RK_OK;
	if (w->rank == 0) {
		const double t0 = rk_realtime();
		int64_t cost;
		st = split_solo(kind, a, la, b, lb, bound, aln_simd_level(-1), n_threads, pre, &cost, want_path ? path : 0);
		if (st) rk_err("%s", rk_error());
		else *val = split_value(kind, k, la, lb, cost);
		if (prof) { prof->rows = la; prof->fwd[0] = prof->fwd[1] = rk_realtime() - t0; }
	}
	return rmpi_agree_idle(w, st);
}

/* Rank 1's piece of the path to rank 0, which appends it to its own (ending in the crossing
 * step). *cost: the pieces' sum, on rank 0. */
static rk_status_t band_gather(const rmpi_t *w, rk_status_t st, int64_t got, aln_path_t *piece, aln_path_t *path, int64_t *cost)
{
	int64_t other = 0;
	if (w->rank == 1) return split_path_join(w, 0, 1, TAG_BAND + 2, st, got, piece, 0, 0);
	path->n = 0;
	if (!st && (st = aln_path_cat(path, piece)) != RK_OK) rk_err("rank 0: %s", rk_error());
	st = split_path_join(w, 0, 1, TAG_BAND + 2, st, 0, 0, path, &other);
	*cost = got + other;
	return st;
}

/* Two banded halves: ranks 0 and 1 as the first split of the one-rank Hirschberg (split.h),
 * the others asleep. Rank 1's half's last row goes to rank 0, which finds the crossing and
 * sends it back; with the path each rank then computes its side's, pruned by its known cost.
 * Collective. */
static rk_status_t split_band(const rmpi_t *w, int kind, int64_t k, int64_t bound, const char *a, int64_t la, const char *b,
                              int64_t lb, int want_path, int n_threads, int64_t *val, aln_path_t *path, rmpi_split_prof_t *prof)
{
	const int me = w->rank, simd = aln_simd_level(-1);
	const int64_t room = 6 + 2 * ((lb + 63) / 64 + 1);   /* the largest message of a half */
	uint64_t *msg = 0, *other = me == 0 ? malloc(8 * (size_t)room) : 0;
	int64_t n = 0, no = 0, cut[8] = { 0 };   /* status, then split_cut_t */
	split_cut_t x = { 0 };
	aln_path_t piece = { 0 };
	rk_status_t st = me == 0 && !other ? RK_ERES : RK_OK;
	if (st) rk_err("rank 0: out of memory");
	if ((st = rmpi_agree_idle(w, st)) != RK_OK) return st;
	const double t0 = rk_realtime();
	if (me <= 1) {
		st = split_band_half(kind, a, la, b, lb, me, bound, simd, n_threads, &msg, &n);
		if (st) { rk_err("rank %d: %s", me, rk_error()); n = -1; }
		if (prof) { prof->rows = me ? la - split_band_rows(la) - 1 : split_band_rows(la); prof->fwd[0] = prof->fwd[1] = rk_realtime() - t0; }
	}
	double t1 = rk_realtime(), t2 = t1;
	if (me == 1) {
		rmpi_send(w, &n, sizeof n, 0, TAG_BAND);
		if (n > 0) rmpi_send(w, msg, 8 * (size_t)n, 0, TAG_BAND + 1);
		rmpi_recv_idle(w, cut, sizeof cut, 0, TAG_BAND);
		st = (rk_status_t)cut[0];
		x = (split_cut_t){ cut[1], cut[2], cut[3], cut[4], cut[5], cut[6], cut[7] };
	} else if (me == 0) {
		rmpi_recv_idle(w, &no, sizeof no, 1, TAG_BAND);
		if (no > room) no = -1;   /* never: the edge of a half */
		if (no > 0) rmpi_recv_idle(w, other, 8 * (size_t)no, 1, TAG_BAND + 1);
		t2 = rk_realtime();
		if (!st && no < 0) st = RK_ERES;   /* rank 1 said why */
		if (!st && (st = split_band_meet(kind, msg, n, other, no, a, la, b, lb, &x)) != RK_OK) rk_err("%s", rk_error());
		if (!st && bound >= 0 && x.best > bound) x.best = -1;
		if (!st && x.best < 0 && kind == SPLIT_LCS) {
			rk_err("the banded halves of an LCS found no crossing within its own bound %lld", (long long)bound);
			st = RK_ERES;
		}
		const int64_t c[8] = { st, x.s, x.j, x.jn, x.op, x.cf, x.cb, x.best };
		rmpi_send(w, c, sizeof c, 1, TAG_BAND);
		rk_debug("split: two banded halves: rank 0's %.3f s, waits %.3f s for rank 1's, meeting %.3f s", t1 - t0, t2 - t1,
		         rk_realtime() - t2);
	}
	free(msg);
	free(other);
	if (me <= 1 && !st) {
		*val = split_value(kind, k, la, lb, x.best);
		if (want_path && *val >= 0) {
			t2 = rk_realtime();
			int64_t got = -1, sum = 0;
			st = me == 0 ? split_solo(kind, a, x.s, b, x.j, x.cf, simd, n_threads, 0, &got, &piece)
			             : split_solo(kind, a + x.s + 1, la - x.s - 1, b + x.jn, lb - x.jn, x.cb, simd, n_threads, 0, &got, &piece);
			if (!st && me == 0) { st = aln_path_push(&piece, (int)x.op, 1); got += x.best - x.cf - x.cb; }
			if (st && me == 1) rk_err("rank 1: %s", rk_error());
			st = band_gather(w, st, got, &piece, path, &sum);
			if (!st && me == 0 && sum != x.best) {
				rk_err("the pieces of the banded split's path cost %lld, not %lld", (long long)sum, (long long)x.best);
				st = RK_ERES;
			}
			if (prof) prof->trace_s = rk_realtime() - t2;
		}
	}
	aln_path_free(&piece);
	if (me != 0) *val = -1;
	return rmpi_agree_idle(w, st);
}

rk_status_t rmpi_split_pair(const rmpi_t *w, int kind, int64_t k, const char *a, int64_t la, const char *b, int64_t lb,
                            int want_path, int n_threads, int n_alone, rmpi_be_t *be, int64_t *val, aln_path_t *path,
                            rmpi_split_prof_t *prof)
{
	split_plan_t p;
	*val = -1;
	if (prof) memset(prof, 0, sizeof *prof);
	if (n_alone < n_threads) n_alone = n_threads;
	rk_status_t st = split_plan(w, kind, k, a, la, b, lb, want_path, n_threads, n_alone, be, &p, prof);
	if (!st && p.how == PLAN_ONE) st = split_one(w, kind, k, p.bound, &p.pre, a, la, b, lb, want_path, n_alone, val, path, prof);
	aln_prep_free(&p.pre);
	if (st || p.how == PLAN_ONE) return st;
	if (p.how == PLAN_BAND && want_path && p.tree > 2) {
		int64_t cost = -1;
		st = split_tree(w, kind, p.bound, a, la, b, lb, p.tree, n_threads, &cost, path, prof);
		if (!st && w->rank == 0) {
			if (kind == SPLIT_LCS && cost < 0) {
				rk_err("the banded halves of an LCS found no crossing within its own bound %lld", (long long)p.bound);
				st = RK_ERES;
			}
			*val = split_value(kind, k, la, lb, cost);
			if (*val < 0) path->n = 0;
		}
		return rmpi_agree_idle(w, st);
	}
	if (p.how == PLAN_BAND) return split_band(w, kind, k, p.bound, a, la, b, lb, want_path, n_threads, val, path, prof);
	return split_all(w, kind, k, a, la, b, lb, want_path, n_threads, be, p.gpu_two, 0, val, path, prof);
}

void rmpi_split_prof_add(rmpi_split_prof_t *a, const rmpi_split_prof_t *b)
{
	for (int i = 0; i < 3; i++) { a->fwd[i] += b->fwd[i]; a->rev[i] += b->rev[i]; }
	a->trace_s += b->trace_s; a->sample_s += b->sample_s; a->speed = b->speed; a->rows += b->rows;
}

rk_status_t rmpi_split_prof_json(const rmpi_t *w, int64_t n_pairs, const rmpi_split_prof_t *mine, rio_buf_t *out)
{
	rmpi_split_prof_t *all = malloc(sizeof *all * (size_t)w->size);
	if (!all) { rk_err("out of memory"); return rmpi_agree(w, RK_ERES); }
	rmpi_allgather(w, mine, sizeof *mine, all);
	if (w->rank == 0) {
		static const char *const name[] = { "rows", "speed", "sample", "meet_wall", "meet_busy", "meet_fill", "sub_wall", "sub_busy",
		                                    "sub_fill", "trace" };
		rio_buf_printf(out, ",\"split\":{\"pairs\":%lld", (long long)n_pairs);
		for (int f = 0; f < 10; f++) {
			rio_buf_printf(out, ",\"%s\":[", name[f]);
			for (int r = 0; r < w->size; r++) {
				const rmpi_split_prof_t *q = &all[r];
				double v = f == 0 ? (double)q->rows : f == 1 ? q->speed : f == 2 ? q->sample_s : f < 6 ? q->fwd[f - 3]
				         : f < 9 ? q->rev[f - 6] : q->trace_s;
				rio_buf_printf(out, f == 0 ? "%s%.0f" : f == 1 ? "%s%.4g" : "%s%.6f", r ? "," : "", v);
			}
			rio_buf_chr(out, ']');
		}
		rio_buf_chr(out, '}');
		rio_buf_cstr(out);  /* the caller reads out->s as a string */
	}
	free(all);
	return RK_OK;
}
