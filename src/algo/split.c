/* One pair cut into slabs of rows (split.h). */
#include <stdlib.h>
#include <string.h>
#include <stdatomic.h>
#include <sched.h>
#include <omp.h>
#include "algo/split.h"
#include "algo/aln_dp.h"

#define SPLIT_STRIP 32    /* word rows per thread strip */
#define SPLIT_CH 1024     /* columns per wavefront step (a multiple of 64) */

int split_planes(int kind) { return kind == SPLIT_LEV ? 2 : 1; }

void split_top(int kind, uint64_t *const *h, int64_t lb)
{
	size_t n = (size_t)((lb + 63) / 64 + 1);
	if (kind == SPLIT_LEV) { memset(h[0], 0xff, n * 8); memset(h[1], 0, n * 8); }
	else memset(h[0], 0, n * 8);  /* lcs: no carry along row 0 (L = 0): cost +1 per column */
}

void split_left(int kind, uint64_t *const *v, int64_t nw)
{
	if (kind == SPLIT_LEV) { memset(v[0], 0xff, (size_t)nw * 8); memset(v[1], 0, (size_t)nw * 8); }
	else memset(v[0], 0xff, (size_t)nw * 8);  /* lcs: every vertical delta 0 on column 0 */
}

void split_pass(int kind, const aln_prep_t *p, int simd, int n_threads, int64_t c0, int64_t c1, uint64_t *const *h,
                uint64_t *const *v)
{
	const aln_kind_t *K = kind == SPLIT_LEV ? &aln_lev : &aln_lcs;
	const int64_t nw = p->nw, ns = (nw + SPLIT_STRIP - 1) / SPLIT_STRIP, nq = (c1 - c0 + SPLIT_CH - 1) / SPLIT_CH;
	uint64_t *h0 = h[0] + c0 / 64, *h1 = kind == SPLIT_LEV ? h[1] + c0 / 64 : 0;
	uint64_t *v1 = kind == SPLIT_LEV ? v[1] : 0;
	int T = n_threads > 0 ? n_threads : 1;
	if (T > ns) T = (int)ns;
	if (T <= 1 || nq <= 1) {
		K->slab(p, simd, 0, nw, c0, c1, h0, h1, v[0], v1);
		return;
	}
	/* strips of word rows on T threads, a wavefront over column steps: strip s does step q
	 * once strip s - 1 has, and the edge array is handed down in place */
	_Atomic int64_t *prog = calloc((size_t)ns, sizeof *prog);
	if (!prog) { K->slab(p, simd, 0, nw, c0, c1, h0, h1, v[0], v1); return; }
#pragma omp parallel num_threads(T)
	{
		int t = omp_get_thread_num();
		for (int64_t s = t; s < ns; s += T) {
			int64_t r0 = s * SPLIT_STRIP, r1 = r0 + SPLIT_STRIP < nw ? r0 + SPLIT_STRIP : nw;
			for (int64_t q = 0; q < nq; q++) {
				int spins = 0;
				while (s > 0 && atomic_load_explicit(&prog[s - 1], memory_order_acquire) <= q)
					if (++spins > 256) sched_yield();
				int64_t a = c0 + q * SPLIT_CH, b = a + SPLIT_CH < c1 ? a + SPLIT_CH : c1;
				/* the kernels take column offsets relative to the edge pointer they are given */
				K->slab(p, simd, r0, r1, a, b, h[0] + a / 64, kind == SPLIT_LEV ? h[1] + a / 64 : 0, v[0] + r0,
				        kind == SPLIT_LEV ? v[1] + r0 : 0);
				atomic_store_explicit(&prog[s], q + 1, memory_order_release);
			}
		}
	}
	free(prog);
}

int64_t split_sum(int kind, uint64_t *const *h, int64_t q0, int64_t q1)
{
	int64_t s = 0;
	while (q0 < q1) {
		int64_t w = q0 >> 6, n = 64 - (q0 & 63) < q1 - q0 ? 64 - (q0 & 63) : q1 - q0;
		uint64_t m = (n == 64 ? ~0ull : ((1ull << n) - 1)) << (q0 & 63);
		if (kind == SPLIT_LEV) s += aln_pop64(h[0][w] & m) - aln_pop64(h[1][w] & m);
		else s += n - 2 * aln_pop64(h[0][w] & m);
		q0 += n;
	}
	return s;
}

static inline int split_delta(int kind, uint64_t *const *h, int64_t q)
{
	int b0 = (int)(h[0][q >> 6] >> (q & 63) & 1);
	return kind == SPLIT_LEV ? b0 - (int)(h[1][q >> 6] >> (q & 63) & 1) : 1 - 2 * b0;
}

int64_t split_cross(int kind, uint64_t *const *F, int64_t s, uint64_t *const *R, int64_t la, int64_t lb, int64_t total)
{
	/* F(s, j) = s + sum of F's deltas 1..j; R(s, j) = (la - s) + sum of R's deltas 1..lb - j */
	int64_t f = s, r = (la - s) + split_sum(kind, R, 0, lb);
	for (int64_t j = 0; j <= lb; j++) {
		if (f + r == total) return j;
		if (j == lb) break;
		f += split_delta(kind, F, j);          /* column j + 1 */
		r -= split_delta(kind, R, lb - j - 1);  /* reverse column lb - j leaves the sum */
	}
	return -1;
}

/* Bits [q, q + m) of a bit array as the low m bits of a word (0 < m <= 64; reads no word
 * past bit q + m - 1). */
static inline uint64_t split_bits(const uint64_t *v, int64_t q, int m)
{
	const int64_t w = q >> 6;
	const int o = (int)(q & 63);
	uint64_t x = v[w] >> o;
	if (o && o + m > 64) x |= v[w + 1] << (64 - o);
	return m == 64 ? x : x & ((1ull << m) - 1);
}

static inline uint64_t split_rev64(uint64_t x)
{
	x = (x >> 1 & 0x5555555555555555ull) | (x & 0x5555555555555555ull) << 1;
	x = (x >> 2 & 0x3333333333333333ull) | (x & 0x3333333333333333ull) << 2;
	x = (x >> 4 & 0x0f0f0f0f0f0f0f0full) | (x & 0x0f0f0f0f0f0f0f0full) << 4;
	return __builtin_bswap64(x);
}

/* One block of up to 64 steps of the walk below, from step i0 + 1: bit t of fp / fm and rp /
 * rm is step i0 + 1 + t (R's bits n - i0 - 1 - t, reversed); df, dr the sums of F's and R's
 * deltas over the block; down the most that f + r can fall inside it. */
typedef struct {
	uint64_t fp, fm, rp, rm;
	int64_t df, dr, down;
	int m;
} split_blk_t;

static inline void split_block(int lev, int sgn, uint64_t *const *F, uint64_t *const *R, int64_t n, int64_t i0, split_blk_t *b)
{
	const int m = b->m = n - i0 < 64 ? (int)(n - i0) : 64;
	b->fp = split_bits(F[0], i0, m);
	b->fm = lev ? split_bits(F[1], i0, m) : 0;
	b->rp = split_rev64(split_bits(R[0], n - i0 - m, m)) >> (64 - m);
	b->rm = lev ? split_rev64(split_bits(R[1], n - i0 - m, m)) >> (64 - m) : 0;
	if (lev) {
		b->df = aln_pop64(b->fp) - aln_pop64(b->fm);
		b->dr = aln_pop64(b->rp) - aln_pop64(b->rm);
		b->down = aln_pop64(b->fm) + aln_pop64(b->rp);
	} else {
		b->df = sgn * (2 * aln_pop64(b->fp) - m);
		b->dr = sgn * (2 * aln_pop64(b->rp) - m);
		b->down = 2 * aln_pop64(sgn > 0 ? b->rp : b->fp);   /* the steps where f + r falls (by 2) */
	}
}

/* The walk of both meetings, over steps 1..n: step i adds F's delta of bit i - 1 and takes off
 * R's delta of bit n - i (R runs the other way), starting from f = f0, r = r0; it keeps the
 * first (last: the last) smallest f + r, and f there. A step's delta of an edge is
 * p0 - p1 of its two planes (lev), or +-(2 b - 1) (lcs: sgn). Steps go 64 at a time. A first
 * sweep takes the smallest sum at the blocks' ends, ub, an upper bound of the minimum, with
 * popcounts; the second walks bit by bit only the blocks whose lowest possible sum (every
 * step down taken first) reaches ub and the best so far, and adds up the others: every cell
 * of the minimum sum is in a walked block. (Bit by bit, a 10M-row column took 34 ms of the
 * meeting of two H200; the blocks after the best, 15 ms.) */
static int64_t split_walk(int kind, int sgn, uint64_t *const *F, uint64_t *const *R, int64_t n, int64_t f0, int64_t r0, int last,
                          int64_t *total, int64_t *fat)
{
	const int lev = kind == SPLIT_LEV;
	split_blk_t k;
	int64_t f = f0, r = r0, ub = f + r;
	for (int64_t i0 = 0; i0 < n; i0 += 64) {
		split_block(lev, sgn, F, R, n, i0, &k);
		f += k.df; r -= k.dr;
		if (f + r < ub) ub = f + r;
	}
	f = f0; r = r0;
	int64_t best = f + r, at = 0, fb = f;
	for (int64_t i0 = 0; i0 < n; i0 += 64) {
		split_block(lev, sgn, F, R, n, i0, &k);
		const int64_t low = f + r - k.down;
		if (low > ub || (last ? low > best : low >= best)) { f += k.df; r -= k.dr; continue; }
		for (int t = 0; t < k.m; t++) {
			const int a = (int)(k.fp >> t & 1), b = (int)(k.rp >> t & 1);
			f += lev ? a - (int)(k.fm >> t & 1) : sgn * (2 * a - 1);
			r -= lev ? b - (int)(k.rm >> t & 1) : sgn * (2 * b - 1);
			if (last ? f + r <= best : f + r < best) { best = f + r; at = i0 + t + 1; fb = f; }
		}
	}
	*total = best;
	if (fat) *fat = fb;
	return at;
}

int64_t split_meet(int kind, uint64_t *const *F, int64_t s, uint64_t *const *R, int64_t la, int64_t lb, int64_t *total,
                   int64_t *fat)
{
	/* F(s, j) = s + F's deltas 1..j, R(s, j) = (la - s) + R's deltas 1..lb - j; lcs row
	 * deltas are 1 - 2 b */
	return split_walk(kind, -1, F, R, lb, s, (la - s) + split_sum(kind, R, 0, lb), 0, total, fat);
}

/* the cost delta at row q + 1 of a column edge (bit q): lev the +1 / -1 planes; lcs a set V
 * bit is no LCS increment, a cost of +1, a clear one an increment, -1 */
static int64_t split_vsum(int kind, uint64_t *const *v, int64_t n)
{
	int64_t s = 0;
	for (int64_t q = 0; q < n; q += 64) {
		const int m = n - q < 64 ? (int)(n - q) : 64;
		s += kind == SPLIT_LEV ? aln_pop64(split_bits(v[0], q, m)) - aln_pop64(split_bits(v[1], q, m))
		                       : 2 * aln_pop64(split_bits(v[0], q, m)) - m;
	}
	return s;
}

int64_t split_meet_col(int kind, uint64_t *const *F, uint64_t *const *R, int64_t la, int64_t lb, int64_t c, int64_t *total,
                       int64_t *fat)
{
	/* F(i, c) = c + deltas 1..i; R(i, c) = (lb - c) + reverse deltas 1..la - i */
	return split_walk(kind, 1, F, R, la, c, (lb - c) + split_vsum(kind, R, la), 1, total, fat);
}

static const aln_kind_t *split_K(int kind) { return kind == SPLIT_LEV ? &aln_lev : &aln_lcs; }

rk_status_t split_bound(int kind, const char *a, int64_t la, const char *b, int64_t lb, int64_t k, int simd, int n_threads,
                        int64_t *bound, int64_t *ub, aln_prep_t *keep)
{
	aln_prep_t p;
	*bound = k;
	*ub = -1;
	if (keep) memset(keep, 0, sizeof *keep);
	if (k >= 0 || la <= 0 || lb <= 0) return RK_OK;
	rk_status_t st = aln_prep_init(&p, a, la, 0, b, lb, 0, simd);
	if (st) return st;
	/* the static band of aln_cost and aln_hirsch */
	st = aln_bound(split_K(kind), &p, a, b, simd, n_threads, ub);
	if (!st && keep) *keep = p;
	else aln_prep_free(&p);
	if (!st && (double)*ub * (double)(la < lb ? la : lb) < 0.5 * (double)la * (double)lb) *bound = *ub;
	return st;
}

rk_status_t split_solo(int kind, const char *a, int64_t la, const char *b, int64_t lb, int64_t bound, int simd, int n_threads,
                       const aln_prep_t *pre, int64_t *cost, aln_path_t *path)
{
	*cost = -1;
	if (path) {
		path->n = 0;
		rk_status_t st = aln_hirsch(split_K(kind), a, la, b, lb, bound, simd, n_threads, path, cost);
		if (!st && *cost < 0) path->n = 0;
		return st;
	}
	if (la == 0 || lb == 0) {
		*cost = bound >= 0 && la + lb > bound ? -1 : la + lb;
		return RK_OK;
	}
	if (pre && pre->bc) return aln_cost(split_K(kind), pre, a, b, bound, simd, n_threads, cost);
	aln_prep_t p;
	rk_status_t st = aln_prep_init(&p, a, la, 0, b, lb, 0, simd);
	if (st) return st;
	st = aln_cost(split_K(kind), &p, a, b, bound, simd, n_threads, cost);
	aln_prep_free(&p);
	return st;
}

/* a half's message: c0, c1, v0, dead, the first word w0 of the bits [c0, c1), their count nw,
 * then nw words of each plane */
enum { BAND_HEAD = 6 };

rk_status_t split_band_half(int kind, const char *a, int64_t la, const char *b, int64_t lb, int bottom, int64_t bound, int simd,
                            int n_threads, uint64_t **msg, int64_t *n)
{
	aln_edge_t e = { 0 };
	*msg = 0;
	*n = 0;
	rk_status_t st = aln_hirsch_half(split_K(kind), a, la, b, lb, bottom, bound, simd, n_threads, &e);
	if (st) return st;
	const int P = split_planes(kind);
	const int64_t w0 = e.c0 >> 6, nw = e.c1 > e.c0 ? (e.c1 + 63) / 64 - w0 : 0;
	uint64_t *m = malloc(8 * (size_t)(BAND_HEAD + P * nw));
	if (!m) {
		aln_edge_free(&e);
		rk_set_error("out of memory for the edge of a banded half");
		return RK_ERES;
	}
	m[0] = (uint64_t)e.c0; m[1] = (uint64_t)e.c1; m[2] = (uint64_t)e.v0; m[3] = (uint64_t)e.dead;
	m[4] = (uint64_t)w0; m[5] = (uint64_t)nw;
	for (int q = 0; q < P; q++) if (nw) memcpy(m + BAND_HEAD + q * nw, e.h[q] + w0, 8 * (size_t)nw);
	aln_edge_free(&e);
	*msg = m;
	*n = BAND_HEAD + P * nw;
	return RK_OK;
}

/* A message back into an edge over lb columns (bits outside [c0, c1) zero: never read). */
static rk_status_t band_edge(int kind, const uint64_t *m, int64_t n, int64_t lb, aln_edge_t *e)
{
	const int P = split_planes(kind);
	const int64_t nh = (lb + 63) / 64 + 1;
	memset(e, 0, sizeof *e);
	if (n < BAND_HEAD || n != BAND_HEAD + P * (int64_t)m[5] || (int64_t)(m[4] + m[5]) > nh) {
		rk_set_error("a banded half's edge is malformed (%lld words)", (long long)n);
		return RK_EINPUT;
	}
	e->c0 = (int64_t)m[0]; e->c1 = (int64_t)m[1]; e->v0 = (int64_t)m[2]; e->dead = (int)m[3];
	for (int q = 0; q < P; q++) {
		if (!(e->h[q] = calloc((size_t)nh, 8))) { aln_edge_free(e); rk_set_error("out of memory"); return RK_ERES; }
		if (m[5]) memcpy(e->h[q] + m[4], m + BAND_HEAD + q * (int64_t)m[5], 8 * (size_t)m[5]);
	}
	return RK_OK;
}

rk_status_t split_band_meet(int kind, const uint64_t *top, int64_t ntop, const uint64_t *bot, int64_t nbot, const char *a,
                            int64_t la, const char *b, int64_t lb, split_cut_t *x)
{
	aln_edge_t F, B;
	aln_cross_t c;
	rk_status_t st = band_edge(kind, top, ntop, lb, &F);
	if (!st) st = band_edge(kind, bot, nbot, lb, &B);
	else memset(&B, 0, sizeof B);
	if (!st) {
		aln_hirsch_cross(kind == SPLIT_LEV ? ALN_LEV : ALN_LCS, &F, &B, a, la, b, lb, &c);
		*x = (split_cut_t){ aln_hirsch_row(la), c.j, c.jn, c.op, c.cf, c.cb, c.best };
	}
	aln_edge_free(&F);
	aln_edge_free(&B);
	return st;
}

int64_t split_band_rows(int64_t la) { return aln_hirsch_row(la); }
