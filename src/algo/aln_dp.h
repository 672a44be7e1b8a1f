/* Internal to the lev and lcs modules: the strip sweep, Hirschberg and the traceback, written
 * once for both kinds over a common "cost": lev counts edits, lcs counts indels (a kept pair
 * costs 0, so cost = la + lb - 2 lcs, and the diagonal exists only on equal symbols). Both
 * have unit steps, the same boundary (cost i at (i, 0), j at (0, j)) and the same lower bound
 * |i - j| + |(la - i) - (lb - j)| on a path through (i, j). */
#ifndef ALN_DP_H
#define ALN_DP_H

#include <stdint.h>
#include "algo/aln.h"

#if defined(__x86_64__) && defined(__GNUC__)
#include <emmintrin.h>
#define ALN_SSE2 1
#endif

enum { ALN_LEV = 0, ALN_LCS = 1 };

#define ALN_PIECE 1024   /* columns per SIMD kernel call (multiple of 64) */

/* lev: h = (hp, hm), v = (pv, mv); lcs: h = (carry, unused), v = (V, unused); see lev_slab / lcs_slab */
typedef void (*aln_slab_fn)(const aln_prep_t *p, int simd, int64_t r0, int64_t r1, int64_t c0, int64_t c1,
                            uint64_t *h0, uint64_t *h1, uint64_t *v0, uint64_t *v1);

/* What the shared code needs of a mode; aln_lev is defined by lev_slab.c, aln_lcs by lcs_slab.c. */
typedef struct {
	int kind;                 /* ALN_LEV, ALN_LCS */
	aln_slab_fn slab;
	/* the state of columns j0 + 1 .. j1 (DP columns; 0 <= j0 < j1 <= lb) for aln_trace,
	 * column j at st + (j - j0 - 1) * nw * (4 lev, 2 lcs), the planes of a word consecutive;
	 * j0 > 0 reads column j0's vertical planes at st - nw * (4, 2) */
	void (*full_cols)(const aln_prep_t *p, int64_t j0, int64_t j1, uint64_t *st);
} aln_kind_t;
extern const aln_kind_t aln_lev, aln_lcs;

static inline uint64_t aln_rev64(uint64_t x)
{
	x = ((x >> 1) & 0x5555555555555555ull) | ((x & 0x5555555555555555ull) << 1);
	x = ((x >> 2) & 0x3333333333333333ull) | ((x & 0x3333333333333333ull) << 2);
	x = ((x >> 4) & 0x0f0f0f0f0f0f0f0full) | ((x & 0x0f0f0f0f0f0f0f0full) << 4);
	return __builtin_bswap64(x);
}

typedef struct {
	const aln_kind_t *K;
	int simd, n_threads;
	int64_t k;               /* >= 0: compute only cells that can lie on a path of cost <= k */
	int64_t w;               /* > 0 with k < 0: a static band of half-width w about the straight line
	                          * from (0, 0) to (la, lb); the cost is then an upper bound */
	int64_t la_end, lb_end;  /* where the paths the bound k is about end (>= the prep's la, lb) */
} aln_sweep_opt_t;

/* The bottom row of a sweep: cost at DP column c0 is v0, then deltas for columns c0+1..c1
 * (bit j - 1 of h for column j, lev +1/-1 in h[0]/h[1], lcs carry = lcs +1 = cost -1).
 * Outside [c0, c1] no path of cost <= k passes; inside, values are exact on every path of
 * cost <= k and never below the true cost elsewhere. */
typedef struct {
	int64_t c0, c1, v0;
	int dead;                /* no cell of the bottom row is within the bound */
	uint64_t *h[2];
} aln_edge_t;

void aln_edge_free(aln_edge_t *e);
/* Cost at (la, lb) into *cost, -1 when the end is outside the bound (cost > k). e: NULL, or
 * gets the bottom row (the caller frees it with aln_edge_free). */
rk_status_t aln_sweep(const aln_prep_t *p, const aln_sweep_opt_t *o, aln_edge_t *e, int64_t *cost);

/* Cost of the pair, exact; k >= 0: -1 when above k. Chooses full, banded or bounded sweeps.
 * a and b: the texts p was prepared from (forward), for aln_bound's cuts. */
rk_status_t aln_cost(const aln_kind_t *K, const aln_prep_t *p, const char *a, const char *b, int64_t k, int simd, int n_threads,
                     int64_t *cost);
/* An upper bound of the cost of the pair prepared in g (forward, from a and b) into *ub: the
 * sum of the costs of pieces of 16384 rows of A, each in a static band of half-width 256 +
 * min(|d|, 4096) about its own straight line (d: its columns less its rows; no |d| when no cut
 * found A in B), B's cuts following the drift (corners.h); one piece when A has under 2
 * pieces' rows (aln_bound.c). Pieces on n_threads threads. */
rk_status_t aln_bound(const aln_kind_t *K, const aln_prep_t *g, const char *a, const char *b, int simd, int n_threads, int64_t *ub);

/* Canonical path of a[0, la) x b[0, lb), appended to path; *got = its cost. bound >= 0:
 * only costs <= bound are wanted (*got = -1 and nothing appended above it); < 0: exact
 * always (the first split is then pruned by an upper bound where that pays). n_threads > 1:
 * the two halves of large splits, and their sub-problems, run as OpenMP tasks. */
rk_status_t aln_hirsch(const aln_kind_t *K, const char *a, int64_t la, const char *b, int64_t lb, int64_t bound, int simd,
                       int n_threads, aln_path_t *path, int64_t *got);

/* The top level of aln_hirsch as two independent halves (one pair split across ranks): the
 * middle row is_ = aln_hirsch_row(la) (word-aligned); the top half is rows [0, is_) forward,
 * the bottom half rows [is_ + 1, la) on A and B reversed, each pruned to the cells of paths of
 * cost <= k (< 0: every cell) on n_threads. aln_hirsch_half gives a half's bottom row (the
 * caller frees e); aln_hirsch_cross the optimal crossing of row is_ from both, the canonical
 * one (x->best -1: none within k), exactly as aln_hirsch's first split. */
typedef struct {
	int64_t j, jn, op, cf, cb, best;   /* crossing (i*, j) -> (i* + 1, jn) by op, costs of both sides, total */
} aln_cross_t;
static inline int64_t aln_hirsch_row(int64_t la) { return 64 * (((la + 63) / 64) / 2); }
rk_status_t aln_hirsch_half(const aln_kind_t *K, const char *a, int64_t la, const char *b, int64_t lb, int bottom, int64_t k,
                            int simd, int n_threads, aln_edge_t *e);
void aln_hirsch_cross(int kind, const aln_edge_t *F, const aln_edge_t *B, const char *a, int64_t la, const char *b, int64_t lb,
                      aln_cross_t *x);

/* n pairs: cost[i] (lev distance or lcs indel cost, -1 above k >= 0) and paths[i] (NULL:
 * none), short pairs one per SIMD lane, n_threads OpenMP threads over pairs. */
rk_status_t aln_batch(const aln_kind_t *K, const aln_pair_t *p, int64_t n, int64_t k, int simd, int n_threads, int64_t *cost,
                      aln_path_t *paths);

/* Code planes of a set of reads under one alphabet (every symbol of the reads), for batches
 * whose pairs are drawn from them (--all): aln_batch_reads takes each lane's planes from here
 * instead of computing them for every pair (20% of lev --all's time on 150-bp reads, whose
 * 10,000 reads made 5e7 pairs). aln_rplanes_init leaves t empty (t->fw NULL, RK_OK) when the
 * table would pass max_bytes; the caller frees it with aln_rplanes_free. */
typedef struct {
	int nsym, nb;
	uint8_t sym[256];
	int64_t *off;        /* read r's planes: word w, plane k at off[r] + w nb + k */
	uint64_t *fw, *rv;   /* the planes (bit i: row 64 w + i), and bit-reversed (B's columns) */
} aln_rplanes_t;
rk_status_t aln_rplanes_init(aln_rplanes_t *t, int64_t n, const char *const *seq, const int64_t *len, uint64_t max_bytes,
                             int n_threads);
void aln_rplanes_free(aln_rplanes_t *t);
/* pair q of a batch is reads ai[q] (its A) and bi[q] (its B) of t */
typedef struct aln_rsrc_s {
	const aln_rplanes_t *t;
	const int64_t *ai, *bi;
} aln_rsrc_t;
/* aln_batch with the planes of each pair's reads from r->t (r NULL: aln_batch) */
rk_status_t aln_batch_reads(const aln_kind_t *K, const aln_pair_t *p, const aln_rsrc_t *r, int64_t n, int64_t k, int simd,
                            int n_threads, int64_t *cost, aln_path_t *paths);

/* Full-matrix bit-parallel DP and traceback of small problems (rows up to a few words). */
rk_status_t aln_base(const aln_kind_t *K, const char *a, int64_t la, const char *b, int64_t lb, aln_path_t *path,
                     int64_t *cost);

/* Traceback by rule (b) over stored column states: column j (1..lb), word w at
 * st + (j - 1) * cs + w * ws, its planes ps apart: lev pv, mv, raw ph, raw mh (bit r: the
 * horizontal delta at row 64 w + r + 1); lcs V, raw carry (the same for the lcs delta). Column
 * 0 is the boundary. Appends the path of a[0, la) x b[0, lb) to path. */
typedef struct {
	const uint64_t *st;
	int64_t cs, ws, ps;
} aln_cols_t;
rk_status_t aln_trace(int kind, const char *a, int64_t la, const char *b, int64_t lb, const aln_cols_t *c,
                      aln_path_t *path);
/* n (<= 16) tracebacks at once, taking steps in turn (their loads overlap) */
typedef struct {
	const char *a, *b;
	int64_t la, lb;
	aln_cols_t c;
} aln_trace_in_t;
rk_status_t aln_trace_n(int kind, int n, const aln_trace_in_t *in, aln_path_t *const *paths);

/* population count without a libgcc call where POPCNT is not enabled */
static inline int aln_pop64(uint64_t x)
{
#ifdef __POPCNT__
	return __builtin_popcountll(x);
#else
	x = x - ((x >> 1) & 0x5555555555555555ull);
	x = (x & 0x3333333333333333ull) + ((x >> 2) & 0x3333333333333333ull);
	x = (x + (x >> 4)) & 0x0f0f0f0f0f0f0f0full;
	return (int)((x * 0x0101010101010101ull) >> 56);
#endif
}

/* bit r set where c[r] == v (r < n <= 64); where bit k of c[r] is set (SSE2 compares) */
static inline uint64_t aln_bits_eq(const uint8_t *c, int n, uint8_t v)
{
	uint64_t m = 0;
	int r = 0;
#ifdef ALN_SSE2
	const __m128i x = _mm_set1_epi8((char)v);
	for (; r + 16 <= n; r += 16)
		m |= (uint64_t)(uint16_t)_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_loadu_si128((const __m128i *)(c + r)), x)) << r;
#endif
	for (; r < n; r++) m |= (uint64_t)(c[r] == v) << r;
	return m;
}

static inline uint64_t aln_bits_bit(const uint8_t *c, int n, int k)
{
	uint64_t m = 0;
	int r = 0;
#ifdef ALN_SSE2
	for (; r + 16 <= n; r += 16)   /* bit k to the sign bit of each byte */
		m |= (uint64_t)(uint16_t)_mm_movemask_epi8(_mm_slli_epi16(_mm_loadu_si128((const __m128i *)(c + r)), 7 - k)) << r;
#endif
	for (; r < n; r++) m |= (uint64_t)(c[r] >> k & 1) << r;
	return m;
}

/* Myers' step on one word of lev (Hyyro's horizontal input hp/hm in, the delta at bit ob out):
 * the scalar step of lev_slab.c and lev_mode.c */
static inline void aln_lev_word(uint64_t eq, uint64_t *pv, uint64_t *mv, uint64_t *hp, uint64_t *hm, int ob)
{
	uint64_t Pv = *pv, Mv = *mv, Xv = eq | Mv;
	eq |= *hm;
	uint64_t Xh = (((eq & Pv) + Pv) ^ Pv) | eq;
	uint64_t Ph = Mv | ~(Xh | Pv), Mh = Pv & Xh;
	uint64_t op = Ph >> ob & 1, om = Mh >> ob & 1;
	Ph = Ph << 1 | *hp;
	Mh = Mh << 1 | *hm;
	*pv = Mh | ~(Xv | Ph);
	*mv = Ph & Xv;
	*hp = op;
	*hm = om;
}

#endif
