/* aln_corners (src/algo/corners.h): B's cut points follow the alignment's drift. Pairs are
 * made from A by edits whose place in B is known (pos[i]: where A[i] went), so every cut can
 * be checked against the true alignment; and the bound the cuts give (the sum of the pieces'
 * distances) against the pair's distance, with the proportional cuts as the control. */
#include "testutil.h"
#include "algo/corners.h"
#include "algo/lev.h"
#include "algo/aln_dp.h"

/* B from A: per mille edits (a third each substitutions, insertions, deletions), and an
 * insertion of ins random bytes before A[at] (ins 0: none); pos[i] = B's index of A[i]'s
 * place. Returns lb. */
static int64_t mutate(const char *a, int64_t la, char *b, int64_t *pos, int permil, int64_t at, int64_t ins)
{
	int64_t m = 0;
	for (int64_t i = 0; i <= la; i++) {
		if (i == at)
			for (int64_t q = 0; q < ins; q++) b[m++] = "ACGT"[tu_range(0, 3)];
		pos[i] = m;
		if (i == la) break;
		const long r = tu_range(0, 999);
		if (r >= permil) { b[m++] = a[i]; continue; }
		switch (r % 3) {
		case 0: b[m++] = "ACGT"[(strchr("ACGT", a[i]) - "ACGT" + tu_range(1, 3)) & 3]; break;
		case 1: b[m++] = "ACGT"[tu_range(0, 3)]; b[m++] = a[i]; pos[i] = m - 1; break;
		default: break;
		}
	}
	return m;
}

static void check_shape(const char *what, int64_t la, int64_t lb, int64_t K, const int64_t *bq)
{
	int ok = bq[0] == 0 && bq[K] == lb;
	for (int64_t q = 1; q <= K; q++) ok &= bq[q] >= bq[q - 1] && bq[q] <= lb;
	CHECK(ok, "%s: la %lld lb %lld K %lld: cuts not 0 .. lb nondecreasing", what, (long long)la, (long long)lb, (long long)K);
}

/* the sum of the pieces' distances: the bound the cuts give (unbanded pieces) */
static int64_t pieces_cost(const char *a, int64_t la, const char *b, int64_t K, const int64_t *bq)
{
	lev_opt_t o;
	lev_opt_init(&o);
	o.n_threads = 1;
	int64_t sum = 0;
	for (int64_t q = 0; q < K; q++) {
		const int64_t a0 = q * la / K, a1 = (q + 1) * la / K;
		int64_t d = 0;
		CHECK(lev_pair(&o, a + a0, a1 - a0, b + bq[q], bq[q + 1] - bq[q], &d, 0) == RK_OK, "lev_pair");
		sum += d;
	}
	return sum;
}

static void drifting(int it)
{
	const int64_t la = tu_range(it % 6 == 3 ? 60000 : 20000, 120000), K = tu_range(2, 40), at = tu_range(0, la);
	const int permil = (int)tu_range(0, 30);
	/* insertions within the window, and (it % 6 == 3) longer ones that the wide look finds */
	const int64_t ins = it % 6 == 0 ? tu_range(100, ALN_CORNER_WIN - 64) : it % 6 == 3 ? tu_range(600, ALN_CORNER_WIDE - 2000) : 0;
	char *a = malloc((size_t)la + 1), *b = malloc((size_t)(2 * la + ins + 1));
	int64_t *pos = malloc(sizeof(int64_t) * (size_t)(la + 1)), *bq = malloc(sizeof(int64_t) * (size_t)(K + 1));
	for (int64_t i = 0; i < la; i++) a[i] = "ACGT"[tu_range(0, 3)];
	const int64_t lb = mutate(a, la, b, pos, permil, at, ins);
	aln_corners(a, la, b, lb, K, bq);
	check_shape("drifting", la, lb, K, bq);
	/* a cut lands on the true place, or within a few columns of it (an edit inside the
	 * substring found, or an insertion right at the cut: either place is on an alignment) */
	int64_t off = 0, far = 0;
	for (int64_t q = 1; q < K; q++) {
		const int64_t e = bq[q] - pos[q * la / K];
		if (e > 8 || e < -8) far++;
		off = e > off ? e : -e > off ? -e : off;
	}
	/* at 3% the 8 substrings of a cut all miss about once in 2e4 cuts: allow one */
	CHECK(far <= 1, "set %d: la %lld K %lld %d per mille, %lld inserted at %lld: %lld cuts off the alignment (worst %lld)", it,
	      (long long)la, (long long)K, permil, (long long)ins, (long long)at, (long long)far, (long long)off);
	/* the bound: the cuts' pieces cost about the pair's distance; cut in proportion, the
	 * insertion (or drift) costs each piece after it */
	if (it % 2 == 0 || ins) {
		lev_opt_t o;
		lev_opt_init(&o);
		o.n_threads = 0;
		int64_t d = 0;
		CHECK(lev_pair(&o, a, la, b, lb, &d, 0) == RK_OK, "lev_pair");
		const int64_t got = pieces_cost(a, la, b, K, bq);
		CHECK(got >= d && got <= d + d / 10 + 2 * K, "set %d: the pieces cost %lld, the pair %lld (K %lld)", it, (long long)got,
		      (long long)d, (long long)K);
		/* the CPU's bound (aln_bound: pieces of 16384 rows, bands of 256, these cuts) is
		 * about the pair's cost too; one band of 256 about the whole pair's line lost the
		 * alignment past an insertion longer than that */
		const int simd = aln_simd_level(-1);
		aln_prep_t pr;
		CHECK(aln_prep_init(&pr, a, la, 0, b, lb, 0, simd) == RK_OK, "prep");
		int64_t ub = -1, whole = -1;
		CHECK(aln_bound(&aln_lev, &pr, a, b, simd, 1 + it % 3, &ub) == RK_OK, "aln_bound");
		aln_sweep_opt_t so = { .K = &aln_lev, .simd = simd, .n_threads = 1, .k = -1, .w = 256, .la_end = la, .lb_end = lb };
		CHECK(aln_sweep(&pr, &so, 0, &whole) == RK_OK, "sweep");
		aln_prep_free(&pr);
		/* a piece widens its band by its own |d| up to 4096: an insertion longer than that costs it */
		CHECK(ub >= d && (ins > 3800 || ub <= d + d / 10 + 64), "set %d: aln_bound %lld, the pair %lld (la %lld)", it, (long long)ub, (long long)d,
		      (long long)la);
		if (ins >= 1200 && ins <= 3800 && la >= 2 * 16384 && at > la / 4 && at < la / 2)
			CHECK(whole > ub, "set %d: one band %lld, aln_bound %lld: the control did not see the insertion", it, (long long)whole,
			      (long long)ub);
		if (ins >= 200 && at > la / K && at < la - la / K) {
			for (int64_t q = 0; q <= K; q++) bq[q] = q * lb / K;
			const int64_t prop = pieces_cost(a, la, b, K, bq);
			CHECK(prop > got, "set %d: proportional cuts cost %lld, the drift's %lld: the control did not see the insertion", it,
			      (long long)prop, (long long)got);
		}
	}
	free(a); free(b); free(pos); free(bq);
}

/* the bound of a pair with nothing of A in B: every piece in the band of 256 about its
 * proportional cuts, widened by no |d| (that only cost: 15% of a 25 kb x 60 kb matrix). The
 * expected value from pieces prepared on their own. */
static void unrelated(int it)
{
	const int64_t la = it % 2 ? tu_range(40000, 70000) : tu_range(3000, 30000), lb = la + tu_range(la / 4, 2 * la);
	char *a = malloc((size_t)la + 1), *b = malloc((size_t)lb + 1);
	for (int64_t i = 0; i < la; i++) a[i] = "ACGT"[tu_range(0, 3)];
	for (int64_t i = 0; i < lb; i++) b[i] = "ACGT"[tu_range(0, 3)];
	const int simd = aln_simd_level(-1);
	aln_prep_t pr;
	CHECK(aln_prep_init(&pr, a, la, 0, b, lb, 0, simd) == RK_OK, "prep");
	int64_t ub = -1, want = 0;
	CHECK(aln_bound(&aln_lev, &pr, a, b, simd, 1 + it % 2, &ub) == RK_OK, "aln_bound");
	aln_prep_free(&pr);
	const int64_t Q = la / 16384 > 1 ? la / 16384 : 1;
	for (int64_t q = 0; q < Q; q++) {
		const int64_t a0 = q * la / Q, a1 = (q + 1) * la / Q, b0 = q * lb / Q, b1 = (q + 1) * lb / Q;
		int64_t c = -1;
		CHECK(aln_prep_init(&pr, a + a0, a1 - a0, 0, b + b0, b1 - b0, 0, simd) == RK_OK, "prep");
		aln_sweep_opt_t so = { .K = &aln_lev, .simd = simd, .n_threads = 1, .k = -1, .w = 256, .la_end = a1 - a0, .lb_end = b1 - b0 };
		CHECK(aln_sweep(&pr, &so, 0, &c) == RK_OK, "sweep");
		aln_prep_free(&pr);
		want += c;
	}
	CHECK(ub == want, "set %d: unrelated %lld x %lld (%lld pieces): aln_bound %lld, bands of 256 %lld", it, (long long)la,
	      (long long)lb, (long long)Q, (long long)ub, (long long)want);
	free(a); free(b);
}

/* unrelated pairs, runs of one symbol (every offset matches), short and empty sequences,
 * more cuts than bytes: the shape holds */
static void edges(int it)
{
	const int64_t la = tu_range(0, it % 5 == 0 ? 40 : 30000), lb = tu_range(0, it % 7 == 0 ? 40 : 30000), K = tu_range(1, 300);
	char *a = malloc((size_t)la + 1), *b = malloc((size_t)lb + 1);
	const int alpha = it % 3 == 0 ? 1 : 4;
	for (int64_t i = 0; i < la; i++) a[i] = "ACGT"[tu_range(0, alpha - 1)];
	for (int64_t i = 0; i < lb; i++) b[i] = "ACGT"[tu_range(0, alpha - 1)];
	int64_t *bq = malloc(sizeof(int64_t) * (size_t)(K + 1));
	aln_corners(a, la, b, lb, K, bq);
	check_shape("edges", la, lb, K, bq);
	free(a); free(b); free(bq);
}

int main(int argc, char **argv)
{
	const int n = argc > 1 ? atoi(argv[1]) : 60;
	if (argc > 2) tu_state = strtoull(argv[2], 0, 10) | 1;
	for (int it = 0; it < n; it++) drifting(it);
	for (int it = 0; it < 10 * n; it++) edges(it);
	for (int it = 0; it < 4 + n / 10; it++) unrelated(it);
	if (tu_fail) { fprintf(stderr, "test_corners: %d failed\n", tu_fail); return 1; }
	fprintf(stderr, "test_corners: passed\n");
	return 0;
}
