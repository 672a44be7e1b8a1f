/* One pair across the ranks (split_run.h). */
#include <stdlib.h>
#include <string.h>
#include "mpi/split_run.h"
#include "algo/lev.h"
#include "algo/lcs.h"

#define SPLIT_CHUNK 65536  /* columns passed between ranks at a time (a multiple of 64) */
#define TAG_FWD 21
#define TAG_REV 22
#define TAG_J 23

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
	int64_t nwb;             /* 64-bit words of one edge plane */
} split_edges_t;

static void edges_free(split_edges_t *e)
{
	for (int q = 0; q < 2; q++) { free(e->F[q]); free(e->H[q]); }
}

/* One pipeline over my slab (prep p): the top edge from prev (or the global one), the bottom
 * edge to next; keep_top: the top edge is kept in e->F. Returns the bottom edge in e->H. */
static void split_pipeline(const rmpi_t *w, int kind, const aln_prep_t *p, int simd, int nth, int prev, int next, int tag,
                           split_edges_t *e, int keep_top)
{
	const int P = split_planes(kind);
	uint64_t *v[2] = { 0, 0 };
	for (int q = 0; q < P; q++) v[q] = malloc(sizeof(uint64_t) * (size_t)(p->nw + 1));
	split_left(kind, v, p->nw);
	if (prev < 0) split_top(kind, e->H, p->lb);
	for (int64_t c0 = 0; c0 < p->lb; c0 += SPLIT_CHUNK) {
		int64_t c1 = c0 + SPLIT_CHUNK < p->lb ? c0 + SPLIT_CHUNK : p->lb, w0 = c0 / 64, nwc = (c1 - c0 + 63) / 64;
		for (int q = 0; q < P; q++) {
			if (prev >= 0) rmpi_recv(w, e->H[q] + w0, sizeof(uint64_t) * (size_t)nwc, prev, tag + 100 * q);
			if (keep_top) memcpy(e->F[q] + w0, e->H[q] + w0, sizeof(uint64_t) * (size_t)nwc);
		}
		split_pass(kind, p, simd, nth, c0, c1, e->H, v);
		if (next >= 0)
			for (int q = 0; q < P; q++) rmpi_send(w, e->H[q] + w0, sizeof(uint64_t) * (size_t)nwc, next, tag + 100 * q);
	}
	for (int q = 0; q < P; q++) free(v[q]);
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

rk_status_t rmpi_split_pair(const rmpi_t *w, int kind, int64_t k, const char *a, int64_t la, const char *b, int64_t lb,
                            int want_path, int n_threads, int64_t *val, aln_path_t *path)
{
	const int simd = aln_simd_level(-1), P = split_planes(kind), R = w->size;
	const int64_t nw = (la + 63) / 64;
	double *speed = malloc(sizeof(double) * (size_t)R), mine = 1;
	int64_t *words = malloc(sizeof(int64_t) * (size_t)R);
	aln_prep_t p, pr;
	split_edges_t e;
	rk_status_t st = RK_OK;
	memset(&p, 0, sizeof p); memset(&pr, 0, sizeof pr); memset(&e, 0, sizeof e);
	*val = -1;
	if (!speed || !words) { rk_err("out of memory"); st = RK_ERES; }
	if ((st = rmpi_agree(w, st)) != RK_OK) goto done;

	/* this rank's speed on a sample of the pair, for the slab sizes */
	if (!rk_tune.split_words) {
		aln_prep_t s;
		int64_t sr = la < 8 * 64 ? la : 8 * 64, sc = lb < 65536 ? lb : 65536;
		if (aln_prep_init(&s, a, sr, 0, b, sc, 0, simd) == RK_OK) {
			split_edges_t t;
			memset(&t, 0, sizeof t);
			for (int q = 0; q < P; q++) t.H[q] = malloc(sizeof(uint64_t) * (size_t)(sc / 64 + 2));
			if (t.H[0] && (P == 1 || t.H[1])) {
				double t0 = rk_realtime();
				rmpi_t solo = { 0 };
				solo.size = 1;
				split_pipeline(&solo, kind, &s, simd, n_threads, -1, -1, 0, &t, 0);
				double dt = rk_realtime() - t0;
				mine = (double)sr * (double)sc / (dt > 1e-6 ? dt : 1e-6);
			}
			edges_free(&t);
			aln_prep_free(&s);
		}
	}
	rmpi_allgather(w, &mine, sizeof mine, speed);
	split_words(w, nw, speed, words);

	/* my rows, and my neighbours in the chain of ranks that have rows */
	int64_t s0 = 0;
	for (int r = 0; r < w->rank; r++) s0 += words[r] * 64;
	int64_t s1 = s0 + words[w->rank] * 64;
	if (s0 > la) s0 = la;
	if (s1 > la) s1 = la;
	int prev = -1, next = -1, last = -1;
	for (int r = 0; r < R; r++) if (words[r] > 0) last = r;
	for (int r = w->rank - 1; r >= 0 && prev < 0; r--) if (words[r] > 0) prev = r;
	for (int r = w->rank + 1; r < R && next < 0; r++) if (words[r] > 0) next = r;
	const int have = s1 > s0;
	e.nwb = (lb + 63) / 64 + 1;
	if (have) {
		st = aln_prep_init(&p, a + s0, s1 - s0, 0, b, lb, 0, simd);
		if (!st && want_path) st = aln_prep_init(&pr, a + s0, s1 - s0, 1, b, lb, 1, simd);
		for (int q = 0; q < P && !st; q++)
			if (!(e.F[q] = calloc((size_t)e.nwb, 8)) || !(e.H[q] = calloc((size_t)e.nwb, 8))) st = RK_ERES;
		if (st) rk_err("rank %d: out of memory for a slab of %lld rows x %lld columns", w->rank, (long long)(s1 - s0), (long long)lb);
	}
	if ((st = rmpi_agree(w, st)) != RK_OK) goto done;

	/* forward: the cost at (la, lb) comes out of the last slab */
	int64_t total = 0;
	if (have) split_pipeline(w, kind, &p, simd, n_threads, prev, next, TAG_FWD, &e, 1);
	if (w->rank == last) total = la + split_sum(kind, e.H, 0, lb);
	rmpi_bcast_i64(w, last, &total);
	int64_t value = kind == SPLIT_LEV ? total : (la + lb - total) / 2;
	if (!want_path || (kind == SPLIT_LEV && k >= 0 && total > k)) {
		*val = kind == SPLIT_LEV && k >= 0 && total > k ? -1 : value;
		goto done;
	}

	/* reverse: the chain runs the other way, and each rank keeps the edge at its top row */
	if (have) {
		split_edges_t r = { { 0, 0 }, { e.H[0], e.H[1] }, e.nwb };  /* the working edge again */
		split_pipeline(w, kind, &pr, simd, n_threads, next, prev, TAG_REV, &r, 0);
	}
	/* where the path crosses my top row, and where it leaves my slab (the next rank's point) */
	int64_t j0 = 0, j1 = lb;
	if (have && w->rank != 0 && s0 > 0) {
		j0 = split_cross(kind, e.F, s0, e.H, la, lb, total);
		if (j0 < 0) { rk_err("rank %d: no optimal cell on row %lld (inconsistent edges)", w->rank, (long long)s0); st = RK_ERES; }
	}
	if ((st = rmpi_agree(w, st)) != RK_OK) goto done;
	if (have && prev >= 0) rmpi_send(w, &j0, sizeof j0, prev, TAG_J);
	if (have && next >= 0) rmpi_recv(w, &j1, sizeof j1, next, TAG_J);

	/* my piece, in linear memory on my threads; rank 0 concatenates the pieces in order */
	aln_path_t piece = { 0 };
	int64_t got = 0;
	uint64_t *msg = 0;
	size_t msg_n = 0;
	if (have) {
		if (kind == SPLIT_LEV) {
			lev_opt_t o; lev_opt_init(&o); o.path = 1; o.n_threads = n_threads;
			st = lev_pair(&o, a + s0, s1 - s0, b + j0, j1 - j0, &got, &piece);
		} else {
			lcs_opt_t o; lcs_opt_init(&o); o.path = 1; o.n_threads = n_threads;
			st = lcs_pair(&o, a + s0, s1 - s0, b + j0, j1 - j0, &got, &piece);
			got = (s1 - s0) + (j1 - j0) - 2 * got;  /* as a cost */
		}
		if (!st && (msg = malloc(8 * (size_t)(piece.n + 1)))) {
			msg[0] = (uint64_t)got;
			memcpy(msg + 1, piece.run, 8 * (size_t)piece.n);
			msg_n = 8 * (size_t)(piece.n + 1);
		} else if (!st) st = RK_ERES;
		if (st) rk_err("rank %d: %s", w->rank, rk_error());
	}
	aln_path_free(&piece);
	if ((st = rmpi_agree(w, st)) != RK_OK) { free(msg); goto done; }
	split_gather_t g = { path, 0 };
	if (w->rank == 0) path->n = 0;
	st = rmpi_gather_each(w, msg, msg_n, split_take, &g);
	free(msg);
	if (!st && w->rank == 0 && g.cost != total) {
		rk_err("the pieces of the split path cost %lld, not %lld", (long long)g.cost, (long long)total);
		st = RK_ERES;
	}
	*val = value;
	st = rmpi_agree(w, st);
done:
	edges_free(&e);
	aln_prep_free(&p); aln_prep_free(&pr);
	free(speed); free(words);
	return st;
}
