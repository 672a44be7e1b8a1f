/* The static band's upper bound of a long pair's cost, in pieces whose cuts follow the
 * alignment's drift (corners.h): one band of half-width 256 about the straight line from
 * (0, 0) to (la, lb) lost the alignment wherever indels had moved it further than that (a 10
 * Mb pair 1% apart drifts ~340 columns), and every row there cost about half a column. */
#include <stdlib.h>
#include <omp.h>
#include "algo/aln_dp.h"
#include "algo/corners.h"

#define BOUND_W 256          /* a piece's band: half-width about its own straight line */
#define BOUND_ROWS 16384     /* rows of a piece */
#define BOUND_DMAX 4096      /* the band widens by a piece's |d| up to this (unrelated pairs of
                              * unequal lengths: every piece's d is large, no indel to hold) */

/* the cost of the pair prepared in p in a band about its straight line: half-width 256, and
 * (wide) its |d| (columns less rows) more, so that the band holds both corner diagonals (0 and
 * d) whole: an indel inside moves the path from one to the other anywhere along it. Only pairs
 * where the cuts found A in B widen: an unrelated pair has no indel to hold, and on 25 kb x 60
 * kb the |d| of 4096 took 15% of the matrix where 256 took 2% (the whole job 5-13% slower). */
static rk_status_t band_cost(const aln_kind_t *K, const aln_prep_t *p, int wide, int simd, int n_threads, int64_t *cost)
{
	const int64_t d = p->lb - p->la, ad = d < 0 ? -d : d, extra = wide ? (ad < BOUND_DMAX ? ad : BOUND_DMAX) : 0;
	aln_sweep_opt_t o = { .K = K, .simd = simd, .n_threads = n_threads, .k = -1, .w = BOUND_W + extra,
	                      .la_end = p->la, .lb_end = p->lb };
	return aln_sweep(p, &o, 0, cost);
}

/* piece q's cost: A[a0, a1) against B[b0, b1), a view of g's B */
static rk_status_t piece_cost(const aln_kind_t *K, const aln_prep_t *g, const char *a, int64_t a0, int64_t a1, int64_t b0,
                              int64_t b1, int wide, int simd, int64_t *cost)
{
	if (a1 == a0 || b1 == b0) {
		*cost = (a1 - a0) + (b1 - b0);   /* all gaps, in either kind's cost */
		return RK_OK;
	}
	aln_prep_t p;
	rk_status_t st = aln_prep_view(&p, g, b0, b1 - b0, a + a0, a1 - a0, 0);
	if (st) return st;
	st = band_cost(K, &p, wide, simd, 1, cost);
	aln_prep_free(&p);
	return st;
}

rk_status_t aln_bound(const aln_kind_t *K, const aln_prep_t *g, const char *a, const char *b, int simd, int n_threads, int64_t *ub)
{
	const int64_t la = g->la, lb = g->lb, P = BOUND_ROWS, Q = la / P > 1 ? la / P : 1;
	if (Q == 1) {   /* one piece, the pair's own prep; widened when A's middle is found in B (d = 0: nothing to widen) */
		int64_t mid[3];
		return band_cost(K, g, la != lb && aln_corners(a, la, b, lb, 2, mid) > 0, simd, n_threads, ub);
	}
	int64_t *bq = malloc(sizeof(int64_t) * (size_t)(Q + 1));
	if (!bq) {
		rk_set_error("out of memory for the cuts of a %lld x %lld pair", (long long)la, (long long)lb);
		return RK_ERES;
	}
	const int wide = aln_corners(a, la, b, lb, Q, bq) > 0;
	int64_t sum = 0;
	int bad = 0;
	rk_status_t st = RK_OK;
	/* pieces on threads, one thread each; the sum does not depend on the order */
	#pragma omp parallel for num_threads(n_threads > 0 ? n_threads : 1) schedule(dynamic, 1) reduction(+ : sum) if (n_threads > 1)
	for (int64_t q = 0; q < Q; q++) {
		int64_t c = 0;
		const rk_status_t s = piece_cost(K, g, a, q * la / Q, (q + 1) * la / Q, bq[q], bq[q + 1], wide, simd, &c);
		if (s) {
			#pragma omp critical(aln_bound_err)
			if (!bad) { bad = 1; st = s; }
		}
		sum += c;
	}
	free(bq);
	*ub = sum;
	return st;
}
