/* The meeting of a split pair (src/algo/split.c: split_meet on a row, split_meet_col on a
 * column) against a naive evaluation: every cell's F + R summed one delta at a time from the
 * edges' bits, then the first (row) or last (column) smallest sum. Edges: random deltas, runs
 * of one delta, and adversarial ones where F + R ties on every cell (the tie rule decides) or
 * ties after a deep dip; lengths 1-700, multiples of 64 and one off.
 * Then the banded split (split_bound, split_solo, split_band_half, split_band_meet) against
 * the naive DP of naive_dp.c: the cost and the canonical path of rank 0 alone, and of two
 * banded halves met and their pieces concatenated, on random and related pairs of 1-3000 bp,
 * lev with and without -k, lcs.
 * Usage: test_split [SETS] [SEED] */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "testutil.h"
#include "algo/split.h"
#include "naive_dp.h"

/* the delta of bit q: lev +1 / -1 planes; lcs sign sg times 2 b - 1 */
static long dlt(int lev, int sg, uint64_t *const *e, long q)
{
	const long b0 = (long)(e[0][q >> 6] >> (q & 63) & 1);
	return lev ? b0 - (long)(e[1][q >> 6] >> (q & 63) & 1) : sg * (2 * b0 - 1);
}

static void put(int lev, uint64_t *const *e, long q, int d)
{
	/* d in -1..1 (lev), 0/1 the bit (lcs) */
	if (lev) {
		if (d > 0) e[0][q >> 6] |= 1ull << (q & 63);
		if (d < 0) e[1][q >> 6] |= 1ull << (q & 63);
	} else if (d) e[0][q >> 6] |= 1ull << (q & 63);
}

/* naive: cells 0..n on the line; F(x) = f0 + deltas of F's bits 0..x-1, R(x) = r0 + deltas of
 * R's bits 0..n-x-1 */
static long naive(int lev, int sg, uint64_t *const *F, uint64_t *const *R, long n, long f0, long r0, int last, long *total,
                  long *fat)
{
	/* cell by cell, with running sums: cell x + 1 has F's delta x more and R's delta n - 1 - x less */
	long best = 0, at = -1, fb = 0, f = f0, r = r0;
	for (long q = 0; q < n; q++) r += dlt(lev, sg, R, q);
	for (long x = 0; x <= n; x++) {
		if (x > 0) { f += dlt(lev, sg, F, x - 1); r -= dlt(lev, sg, R, n - x); }
		if (at < 0 || (last ? f + r <= best : f + r < best)) { best = f + r; at = x; fb = f; }
	}
	*total = best; *fat = fb;
	return at;
}

static char *cigar(const aln_path_t *p)
{
	int64_t n = aln_path_cigar(p, 0, 0);
	char *s = malloc((size_t)n + 1);
	aln_path_cigar(p, s, n + 1);
	return s;
}

/* One pair: rank 0 alone and two banded halves against the naive DP. */
static void band_case(int it)
{
	const int lev = it & 1, kind = lev ? SPLIT_LEV : SPLIT_LCS, simd = aln_simd_level(-1);
	long la = tu_range(1, 3000), lb;
	if (it % 5 == 0) la = 64 * tu_range(1, 40) + tu_range(-1, 1);
	const int alpha = (int)tu_range(2, 4), rate = it % 4 == 3 ? -1 : (int)tu_range(0, 40);
	char *a = malloc((size_t)la + 1), *b = malloc(2 * (size_t)la + 8);
	for (long i = 0; i < la; i++) a[i] = "ACGT"[tu_range(0, alpha - 1)];
	lb = 0;
	for (long i = 0; i < la; i++) {   /* rate % point edits, or an unrelated B */
		long r = tu_range(0, 99);
		if (rate < 0) b[lb++] = "ACGT"[tu_range(0, alpha - 1)];
		else if (r >= rate) b[lb++] = a[i];
		else if (r % 3 == 0) b[lb++] = "ACGTN"[tu_range(0, 4)];
		else if (r % 3 == 1) { b[lb++] = a[i]; b[lb++] = "ACGT"[tu_range(0, 3)]; }
	}
	if (lb == 0) b[lb++] = 'A';
	char *ops = 0;
	const int64_t nv = lev ? naive_lev(a, la, b, lb, &ops) : naive_lcs(a, la, b, lb, &ops);
	const int64_t ncost = lev ? nv : la + lb - 2 * nv;
	char *want = naive_cigar(ops);
	const int64_t k = lev && it % 3 == 0 ? tu_range(0, ncost + ncost / 4 + 2) : -1;
	const int64_t expect = k >= 0 && ncost > k ? -1 : ncost;
	int64_t bound, ub, cost;
	aln_prep_t pre;
	aln_path_t one = { 0 }, top = { 0 }, bot = { 0 };
	CHECK(!split_bound(kind, a, la, b, lb, k, simd, 1, &bound, &ub, &pre) && (k < 0 ? ub >= ncost && (bound < 0 || bound == ub) : bound == k && ub < 0),
	      "band set %d: bound %lld ub %lld, cost %lld k %lld", it, (long long)bound, (long long)ub, (long long)ncost, (long long)k);
	/* rank 0 alone */
	CHECK(!split_solo(kind, a, la, b, lb, bound, simd, 2, it % 2 ? &pre : 0, &cost, 0) && cost == expect, "band set %d (lev %d, %ld x %ld, k %lld): solo cost %lld, want %lld",
	      it, lev, la, lb, (long long)k, (long long)cost, (long long)expect);
	CHECK(!split_solo(kind, a, la, b, lb, bound, simd, 1, 0, &cost, &one) && cost == expect, "band set %d: solo path cost %lld, want %lld", it,
	      (long long)cost, (long long)expect);
	char *got = cigar(&one);
	CHECK(expect < 0 ? one.n == 0 : !strcmp(got, want), "band set %d (lev %d, %ld x %ld): solo path %.80s, want %.80s", it, lev, la, lb, got, want);
	free(got);
	/* two banded halves, their meeting and pieces */
	if (la > 128) {
		uint64_t *m0 = 0, *m1 = 0;
		int64_t n0, n1, g0 = -1, g1 = -1;
		split_cut_t x;
		CHECK(!split_band_half(kind, a, la, b, lb, 0, bound, simd, 1, &m0, &n0) && !split_band_half(kind, a, la, b, lb, 1, bound, simd, 2, &m1, &n1) &&
		      !split_band_meet(kind, m0, n0, m1, n1, a, la, b, lb, &x), "band set %d: the halves failed", it);
		if (bound >= 0 && x.best > bound) x.best = -1;
		CHECK(x.best == expect && x.s == split_band_rows(la), "band set %d (lev %d, %ld x %ld, bound %lld): halves meet at cost %lld, want %lld", it, lev, la,
		      lb, (long long)bound, (long long)x.best, (long long)expect);
		if (x.best >= 0 && x.best == expect) {
			CHECK(!split_solo(kind, a, x.s, b, x.j, x.cf, simd, 1, 0, &g0, &top) && !aln_path_push(&top, (int)x.op, 1) &&
			      !split_solo(kind, a + x.s + 1, la - x.s - 1, b + x.jn, lb - x.jn, x.cb, simd, 1, 0, &g1, &bot) && !aln_path_cat(&top, &bot) &&
			      g0 == x.cf && g1 == x.cb, "band set %d: pieces cost %lld + %lld, want %lld + %lld", it, (long long)g0, (long long)g1,
			      (long long)x.cf, (long long)x.cb);
			got = cigar(&top);
			CHECK(!strcmp(got, want), "band set %d (lev %d, %ld x %ld): halves' path %.80s, want %.80s", it, lev, la, lb, got, want);
			free(got);
		}
		free(m0); free(m1);
	}
	aln_prep_free(&pre);
	aln_path_free(&one); aln_path_free(&top); aln_path_free(&bot);
	free(ops); free(want); free(a); free(b);
}

int main(int argc, char **argv)
{
	const int sets = argc > 1 ? atoi(argv[1]) : 400;
	if (argc > 2) tu_state = strtoull(argv[2], 0, 10) | 1;
	for (int it = 0; it < sets; it++) {
		const int lev = it & 1, shape = (it >> 1) % 5;
		long n = tu_range(1, 700);
		if (it % 7 == 0) n = 64 * tu_range(1, 8) + tu_range(-1, 1);
		if (it % 40 == 39) n = (1 << 20) + tu_range(0, 100000);   /* a million rows and more: the blocks go to threads */
		const size_t nw = (size_t)(n + 64) / 64 + 1;
		uint64_t *b[4];
		for (int q = 0; q < 4; q++) b[q] = calloc(nw, 8);
		uint64_t *F[2] = { b[0], b[1] }, *R[2] = { b[2], b[3] };
		for (long q = 0; q < n; q++) {
			int df, dr;
			if (shape == 0) { df = (int)tu_range(lev ? -1 : 0, 1); dr = (int)tu_range(lev ? -1 : 0, 1); }
			else if (shape == 1) { df = lev ? (q / 97 % 3) - 1 : (int)(q / 97 & 1); dr = lev ? 0 : (int)(q / 61 & 1); }
			else { df = (int)tu_range(lev ? -1 : 0, 1); dr = df; }   /* ties: R's bit n - 1 - q below */
			put(lev, F, q, df);
			if (shape >= 2) {
				/* step x adds F's delta x - 1 and takes off R's delta n - x: equal, so every
				 * cell ties; shape 3 breaks one tie deep inside, shape 4 one near each end */
				long rq = n - 1 - q;
				int d = dr;
				if ((shape == 3 && q == n / 2) || (shape == 4 && (q == 0 || q == n - 1))) d = lev ? (dr > 0 ? 0 : dr + 1) : !dr;
				put(lev, R, rq, d);
			} else put(lev, R, q, dr);
		}
		const long c = tu_range(0, 1000), s = tu_range(0, 1000), other = tu_range(0, 1000);
		long tot = 0, fat = 0;
		int64_t gt = 0, gf = 0;
		/* on a column: F(i, c) = c + ..., R(i, c) = (lb - c) + ...; the last smallest */
		long want = naive(lev, 1, F, R, n, c, other - c, 1, &tot, &fat);
		int64_t got = split_meet_col(lev ? SPLIT_LEV : SPLIT_LCS, F, R, n, other, c, &gt, &gf);
		CHECK(got == want && gt == tot && gf == fat, "col set %d lev %d shape %d n %ld: cut %lld total %lld f %lld, want %ld %ld %ld", it, lev,
		      shape, n, (long long)got, (long long)gt, (long long)gf, want, tot, fat);
		/* on a row: F(s, j) = s + ..., R(s, j) = (la - s) + ...; the first smallest (lcs row
		 * deltas are 1 - 2 b) */
		want = naive(lev, -1, F, R, n, s, other, 0, &tot, &fat);
		got = split_meet(lev ? SPLIT_LEV : SPLIT_LCS, F, s, R, other + s, n, &gt, &gf);
		CHECK(got == want && gt == tot && gf == fat, "row set %d lev %d shape %d n %ld: cut %lld total %lld f %lld, want %ld %ld %ld", it, lev,
		      shape, n, (long long)got, (long long)gt, (long long)gf, want, tot, fat);
		for (int q = 0; q < 4; q++) free(b[q]);
	}
	for (int it = 0; it < sets / 5; it++) band_case(it);
	return tu_done("test_split");
}
