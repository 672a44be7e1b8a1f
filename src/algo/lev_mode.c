/* lev --mode prefix|infix (lev.h, lev_pair_mode). The last row of A is found with the slab
 * kernels over chunks of columns, each chunk only down to the word rows that can hold a
 * value <= k (Ukkonen's cut-off, as edlib's): the last row within k can move down at most
 * one row a column, so a chunk of C columns needs the rows down to that of its left column
 * plus C. A word row that rejoins the computed ones starts from +1 deltas down its left
 * column (an upper bound of the true values, which it meets on every cell within k: a path
 * of cost <= k only crosses cells within k, all computed from exact ones). The start of the
 * first end comes from a prefix sweep of A and B[0, end) both reversed; the path from the
 * global Hirschberg on A and B[start, end). */
#include <stdlib.h>
#include <string.h>
#include <omp.h>
#include "algo/lev.h"
#include "algo/aln_dp.h"

#define LEV_MODE_CHUNK 256   /* columns per slab call (a multiple of 64) */
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
	for (int64_t c0 = 0; c0 < lb && !st; c0 += LEV_MODE_CHUNK) {
		const int64_t c1 = c0 + LEV_MODE_CHUNK < lb ? c0 + LEV_MODE_CHUNK : lb, top = infix ? 0 : c0;
		if (act == 0 && !infix) break;   /* prefix: no cell within k in a column, nor in any after it */
		int64_t R = act + (c1 - c0 + 63) / 64;
		if (R > nw) R = nw;
		for (int64_t x = valid; x < R; x++) pv[x] = ~0ull, mv[x] = 0;
		valid = R;
		const int64_t v0 = R == nw ? col_value(p, pv, mv, nw, top) : 0;
		for (int64_t x = 0; x < (c1 - c0 + 63) / 64; x++) hp[x] = infix ? 0 : ~0ull, hm[x] = 0;
		lev_slab(p, p->simd, 0, R, c0, c1, hp, hm, pv, mv);
		if (R == nw) {   /* the bottom edge is row la */
			int64_t v = v0;
			for (int64_t j = c0 + 1; j <= c1 && !st; j++) {
				int64_t q = j - 1 - c0;
				v += (int64_t)(hp[q >> 6] >> (q & 63) & 1) - (int64_t)(hm[q >> 6] >> (q & 63) & 1);
				if (v <= r->best) st = row_take(r, v, j);
			}
		}
		act = col_active(p, pv, mv, R, infix ? 0 : c1, k);
	}
	return st;
}

rk_status_t lev_row_best(const uint64_t *hp, const uint64_t *hm, int64_t lb, int64_t v0, int64_t *best, aln_ends_t *ends)
{
	lastrow_t r = { v0, ends };
	rk_status_t st = RK_OK;
	ends->n = 0;
	if ((st = aln_ends_push(ends, 0))) return st;
	int64_t v = v0;
	for (int64_t j = 1; j <= lb && !st; j++) {
		v += (int64_t)(hp[(j - 1) >> 6] >> ((j - 1) & 63) & 1) - (int64_t)(hm[(j - 1) >> 6] >> ((j - 1) & 63) & 1);
		if (v <= r.best) st = row_take(&r, v, j);
	}
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
	if ((st = aln_prep_init(&p, a, la, rev, b, lb, rev, simd))) return st;
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
