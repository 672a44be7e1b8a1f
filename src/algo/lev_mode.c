/* lev --mode prefix|infix (lev.h, lev_pair_mode). The last row of A is found with the slab
 * kernels over chunks of columns (A of up to 4 words: column by column, lastrow_small), each
 * chunk only down to the word rows that can hold a value <= k (Ukkonen's cut-off, as
 * edlib's): the last row within k can move down at most one row a column, so a chunk of C
 * columns needs the rows down to that of its left column plus C. k is also lowered to the
 * best end found so far: values never decrease along a path, so no cell above it leads to an
 * end as good. A word row that rejoins the computed ones starts from +1 deltas down its left
 * column (an upper bound of the true values, which it meets on every cell within k: a path
 * of cost <= k only crosses cells within k, all computed from exact ones). The start of the
 * first end comes from a prefix sweep of A and B[0, end) both reversed; the path from the
 * global Hirschberg on A and B[start, end). */
#include <stdlib.h>
#include <string.h>
#include <omp.h>
#include "algo/lev.h"
#include "algo/aln_dp.h"

#define LEV_MODE_CHUNK 256   /* columns per slab call (a multiple of 64), SIMD kernels; the scalar ones
                              * take 64 (the rows a chunk may add are as many as its columns) */
#define LEV_MODE_SCALAR_W 4  /* word rows up to which the scalar kernels are faster */
#define LEV_MODE_K0 64       /* the first bound, doubled until the best is within it */

/* value of column c (top value top) at the bottom of word row w - 1, i.e. row min(64 w, la) */
static int64_t col_value(const aln_prep_t *p, const uint64_t *pv, const uint64_t *mv, int64_t w, int64_t top)
{
	int64_t v = top;
	for (int64_t x = 0; x < w; x++) {
		uint64_t m = x == p->nw - 1 && (p->la & 63) ? (1ull << (p->la & 63)) - 1 : ~0ull;
		v += aln_pop64(pv[x] & m) - aln_pop64(mv[x] & m);
	}
	return v;
}

/* the word rows (a count) that hold a cell <= k in column c, from its vertical deltas over
 * the first w valid word rows: a word is counted when its top value less its -1 deltas is <= k */
static int64_t col_active(const aln_prep_t *p, const uint64_t *pv, const uint64_t *mv, int64_t w, int64_t top, int64_t k)
{
	int64_t v = top, last = top <= k ? 0 : -1;
	for (int64_t x = 0; x < w; x++) {
		uint64_t m = x == p->nw - 1 && (p->la & 63) ? (1ull << (p->la & 63)) - 1 : ~0ull;
		if (v - aln_pop64(mv[x] & m) <= k) last = x;
		v += aln_pop64(pv[x] & m) - aln_pop64(mv[x] & m);
	}
	return last + 1;
}

typedef struct {
	int64_t best;
	aln_ends_t *ends;
} lastrow_t;

static rk_status_t row_take(lastrow_t *r, int64_t v, int64_t j)
{
	if (v > r->best) return RK_OK;
	if (v < r->best) { r->best = v; r->ends->n = 0; }
	return aln_ends_push(r->ends, j);
}

/* columns c0 + 1 .. c0 + n of the last row, from v0 at c0 and the deltas hp / hm; a word of
 * 64 columns that cannot reach the best so far (its value less its -1 steps) is skipped */
static rk_status_t row_scan(lastrow_t *r, const uint64_t *hp, const uint64_t *hm, int64_t n, int64_t v0, int64_t c0)
{
	rk_status_t st = RK_OK;
	int64_t v = v0;
	for (int64_t x = 0; x < (n + 63) / 64 && !st; x++) {
		const int w = n - 64 * x < 64 ? (int)(n - 64 * x) : 64;
		const uint64_t m = w == 64 ? ~0ull : (1ull << w) - 1, p = hp[x] & m, q = hm[x] & m;
		if (v - aln_pop64(q) > r->best) { v += aln_pop64(p) - aln_pop64(q); continue; }
		for (int b = 0; b < w && !st; b++) {
			v += (int64_t)(p >> b & 1) - (int64_t)(q >> b & 1);
			if (v <= r->best) st = row_take(r, v, c0 + 64 * x + b + 1);
		}
	}
	return st;
}

/* columns [c0, c1) over N (1..LEV_MODE_SCALAR_W) word rows, column by column, the state in
 * registers; with last (N = nw) the values of row la go to r from v at column c0 */
static inline __attribute__((always_inline)) rk_status_t small_cols(const aln_prep_t *p, const int N, int infix, int64_t c0,
	int64_t c1, uint64_t *pv, uint64_t *mv, int last, int64_t v, lastrow_t *r)
{
	uint64_t P[LEV_MODE_SCALAR_W], M[LEV_MODE_SCALAR_W];
	const int64_t nw = p->nw;
	const int obl = last && (p->la & 63) ? (int)((p->la - 1) & 63) : 63;
	rk_status_t st = RK_OK;
	for (int x = 0; x < N; x++) P[x] = pv[x], M[x] = mv[x];
	for (int64_t j = c0; j < c1 && !st; j++) {
		const uint64_t *e = p->peq + (int64_t)p->bc[j] * nw;
		uint64_t hp = infix ? 0 : 1, hm = 0;
		#pragma GCC unroll 4
		for (int x = 0; x < N; x++) aln_lev_word(e[x], &P[x], &M[x], &hp, &hm, x == N - 1 ? obl : 63);
		if (last) {
			v += (int64_t)hp - (int64_t)hm;
			if (v <= r->best) st = row_take(r, v, j + 1);
		}
	}
	for (int x = 0; x < N; x++) pv[x] = P[x], mv[x] = M[x];
	return st;
}

/* lastrow_k for A of at most LEV_MODE_SCALAR_W words: 64 columns a step, each over the word
 * rows that can hold a value within k (edlib's loop; the slab kernels' skew and edges cost more
 * than they save on so few rows) */
static rk_status_t lastrow_small(const aln_prep_t *p, int infix, int64_t k, lastrow_t *r)
{
	const int64_t nw = p->nw, lb = p->lb;
	uint64_t pv[LEV_MODE_SCALAR_W], mv[LEV_MODE_SCALAR_W];
	rk_status_t st = RK_OK;
	for (int64_t x = 0; x < nw; x++) pv[x] = ~0ull, mv[x] = 0;
	int64_t valid = nw, act = col_active(p, pv, mv, nw, 0, k);
	for (int64_t c0 = 0; c0 < lb && !st; c0 += 64) {
		const int64_t c1 = c0 + 64 < lb ? c0 + 64 : lb;
		if (act == 0 && !infix) break;
		const int64_t R = act + 1 < nw ? act + 1 : nw;
		for (int64_t x = valid; x < R; x++) pv[x] = ~0ull, mv[x] = 0;
		valid = R;
		const int last = R == nw;
		const int64_t v0 = last ? col_value(p, pv, mv, nw, infix ? 0 : c0) : 0;
		switch (R) {
		case 1: st = small_cols(p, 1, infix, c0, c1, pv, mv, last, v0, r); break;
		case 2: st = small_cols(p, 2, infix, c0, c1, pv, mv, last, v0, r); break;
		case 3: st = small_cols(p, 3, infix, c0, c1, pv, mv, last, v0, r); break;
		default: st = small_cols(p, 4, infix, c0, c1, pv, mv, last, v0, r); break;
		}
		act = col_active(p, pv, mv, R, infix ? 0 : c1, r->best < k ? r->best : k);
	}
	return st;
}

/* one sweep within k (k >= la: every cell); r->best is the smallest computed value of row la */
static rk_status_t lastrow_k(const aln_prep_t *p, int infix, int64_t k, uint64_t *pv, uint64_t *mv, lastrow_t *r)
{
	const int64_t nw = p->nw, la = p->la, lb = p->lb;
	uint64_t hp[LEV_MODE_CHUNK / 64], hm[LEV_MODE_CHUNK / 64];
	rk_status_t st = RK_OK;
	for (int64_t x = 0; x < nw; x++) pv[x] = ~0ull, mv[x] = 0;
	int64_t valid = nw, act = col_active(p, pv, mv, nw, 0, k);
	r->best = la;
	r->ends->n = 0;
	if ((st = aln_ends_push(r->ends, 0))) return st;
	if (nw <= LEV_MODE_SCALAR_W) return lastrow_small(p, infix, k, r);
	const int64_t C = p->simd ? LEV_MODE_CHUNK : 64;
	for (int64_t c0 = 0; c0 < lb && !st; c0 += C) {
		const int64_t c1 = c0 + C < lb ? c0 + C : lb, top = infix ? 0 : c0;
		if (act == 0 && !infix) break;   /* prefix: no cell within k in a column, nor in any after it */
		int64_t R = act + (c1 - c0 + 63) / 64;
		if (R > nw) R = nw;
		for (int64_t x = valid; x < R; x++) pv[x] = ~0ull, mv[x] = 0;
		valid = R;
		const int64_t v0 = R == nw ? col_value(p, pv, mv, nw, top) : 0;
		for (int64_t x = 0; x < (c1 - c0 + 63) / 64; x++) hp[x] = infix ? 0 : ~0ull, hm[x] = 0;
		lev_slab(p, p->simd, 0, R, c0, c1, hp, hm, pv, mv);
		if (R == nw) st = row_scan(r, hp, hm, c1 - c0, v0, c0);   /* the bottom edge is row la */
		/* no cell above the best end so far leads to one as good: the cut-off tightens to it */
		act = col_active(p, pv, mv, R, infix ? 0 : c1, r->best < k ? r->best : k);
	}
	return st;
}

rk_status_t lev_row_best(const uint64_t *hp, const uint64_t *hm, int64_t lb, int64_t v0, int64_t *best, aln_ends_t *ends)
{
	lastrow_t r = { v0, ends };
	rk_status_t st;
	ends->n = 0;
	if (!(st = aln_ends_push(ends, 0))) st = row_scan(&r, hp, hm, lb, v0, 0);
	*best = r.best;
	return st;
}

rk_status_t lev_lastrow(int infix, const char *a, int64_t la, const char *b, int64_t lb, int rev, int64_t k, int simd,
                        int64_t *best, aln_ends_t *ends)
{
	rk_status_t st = RK_OK;
	ends->n = 0;
	*best = -1;
	if (la == 0) {   /* row 0: 0 everywhere (infix), j (prefix) */
		for (int64_t j = 0; j <= (infix ? lb : 0) && !st; j++) st = aln_ends_push(ends, j);
		if (!st) *best = 0;
		return st;
	}
	aln_prep_t p;
	/* a few word rows: the scalar kernels (the SIMD ones fill lanes with more rows) */
	if ((st = aln_prep_init(&p, a, la, rev, b, lb, rev, (la + 63) / 64 <= LEV_MODE_SCALAR_W ? 0 : simd))) return st;
	uint64_t *v = malloc(2 * (size_t)p.nw * sizeof *v);
	lastrow_t r = { la, ends };
	if (!v) { rk_set_error("out of memory for a %lld bp query", (long long)la); st = RK_ERES; }
	for (int64_t kk = k >= 0 ? k : LEV_MODE_K0; !st; kk *= 2) {
		if (kk > la) kk = la;
		st = lastrow_k(&p, infix, kk, v, v + p.nw, &r);
		if (st || r.best <= kk) { if (!st) *best = r.best <= kk ? r.best : -1; break; }
		if (k >= 0 || kk >= la) break;   /* not within the bound asked for */
	}
	if (*best < 0) ends->n = 0;
	free(v);
	aln_prep_free(&p);
	return st;
}

rk_status_t lev_pair_mode(const lev_opt_t *o, const char *a, int64_t la, const char *b, int64_t lb, int64_t *dist,
                          aln_path_t *path, aln_ends_t *ends)
{
	rk_status_t st;
	ends->n = 0;
	ends->start = 0;
	if (o->mode == LEV_GLOBAL) {
		if ((st = lev_pair(o, a, la, b, lb, dist, path))) return st;
		return *dist >= 0 ? aln_ends_push(ends, lb) : RK_OK;
	}
	*dist = -1;
	if (la < 0 || lb < 0 || (la && !a) || (lb && !b) || (o->path && !path)) {
		rk_set_error("lev_pair_mode: bad arguments");
		return RK_EINPUT;
	}
	const int simd = aln_simd_level(o->simd);
	if (path) path->n = 0;
	if ((st = lev_lastrow(o->mode == LEV_INFIX, a, la, b, lb, 0, o->k, simd, dist, ends)) || *dist < 0 || !o->path) return st;
	const int64_t e = ends->end[0];
	if (o->mode == LEV_INFIX && *dist > 0) {
		/* the longest piece ending at e: the last end of A and B[0, e) reversed, prefix mode */
		aln_ends_t rv = { 0 };
		int64_t best;
		st = lev_lastrow(0, a, la, b, e, 1, *dist, simd, &best, &rv);
		if (!st && (best != *dist || !rv.n)) { rk_set_error("lev_pair_mode: the reverse pass disagrees"); st = RK_EINPUT; }
		if (!st) ends->start = e - rv.end[rv.n - 1];
		aln_ends_free(&rv);
		if (st) return st;
	} else if (o->mode == LEV_INFIX)
		ends->start = e - la;   /* an exact copy: the piece is as long as A */
	lev_opt_t g = *o;
	g.mode = LEV_GLOBAL;
	g.k = *dist;
	int64_t d;
	if ((st = lev_pair(&g, a, la, b + ends->start, e - ends->start, &d, path))) return st;
	if (d != *dist) { rk_set_error("lev_pair_mode: the path's cost %lld is not the distance %lld", (long long)d, (long long)*dist); return RK_EINPUT; }
	return RK_OK;
}

rk_status_t lev_batch_mode(const lev_opt_t *o, const aln_pair_t *p, int64_t n, int64_t *dist, aln_path_t *paths,
                           aln_ends_t *ends)
{
	const int T = o->n_threads > 0 ? o->n_threads : omp_get_max_threads();
	rk_status_t st = RK_OK;   /* the first error's message stays (rk_set_error keeps it) */
	lev_opt_t one = *o;
	one.n_threads = 1;
	#pragma omp parallel for schedule(dynamic, 1) num_threads(T)
	for (int64_t q = 0; q < n; q++) {
		rk_status_t s = lev_pair_mode(&one, p[q].a, p[q].la, p[q].b, p[q].lb, &dist[q], paths ? &paths[q] : 0, &ends[q]);
		if (s) {
			#pragma omp critical(lev_mode_err)
			if (!st) st = s;
		}
	}
	return st;
}
