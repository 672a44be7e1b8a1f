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

int64_t split_meet(int kind, uint64_t *const *F, int64_t s, uint64_t *const *R, int64_t la, int64_t lb, int64_t *total,
                   int64_t *fat)
{
	/* the same walk as split_cross, keeping the first smallest sum */
	int64_t f = s, r = (la - s) + split_sum(kind, R, 0, lb), best = f + r, at = 0, fb = f;
	for (int64_t j = 0; j < lb; j++) {
		f += split_delta(kind, F, j);
		r -= split_delta(kind, R, lb - j - 1);
		if (f + r < best) { best = f + r; at = j + 1; fb = f; }
	}
	*total = best;
	if (fat) *fat = fb;
	return at;
}

/* the cost delta at row q + 1 of a column edge (bit q): lev the +1 / -1 planes; lcs a set V
 * bit is no LCS increment, a cost of +1, a clear one an increment, -1 */
static inline int split_vdelta(int kind, uint64_t *const *v, int64_t q)
{
	const int b0 = (int)(v[0][q >> 6] >> (q & 63) & 1);
	return kind == SPLIT_LEV ? b0 - (int)(v[1][q >> 6] >> (q & 63) & 1) : 2 * b0 - 1;
}

int64_t split_meet_col(int kind, uint64_t *const *F, uint64_t *const *R, int64_t la, int64_t lb, int64_t c, int64_t *total,
                       int64_t *fat)
{
	/* F(i, c) = c + deltas 1..i; R(i, c) = (lb - c) + reverse deltas 1..la - i */
	int64_t f = c, r = lb - c;
	for (int64_t q = 0; q < la; q++) r += split_vdelta(kind, R, q);
	int64_t best = f + r, at = 0, fb = f;
	for (int64_t i = 1; i <= la; i++) {
		f += split_vdelta(kind, F, i - 1);
		r -= split_vdelta(kind, R, la - i);
		if (f + r <= best) { best = f + r; at = i; fb = f; }
	}
	*total = best;
	if (fat) *fat = fb;
	return at;
}
