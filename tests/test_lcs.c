/* lcs mode, library level: lengths, canonical paths and subsequences against the naive DP
 * (naive_dp.c), every SIMD level and thread count 1-3, batches against single pairs, the
 * slab contract on random block splits.
 * Usage: test_lcs [N_RANDOM_CASES]   (default 600) */
#include "dp_testutil.h"
#include "naive_dp.h"
#include "algo/lcs.h"

/* test_oom asks for a 4 TiB matrix to see the status code; ASan would abort
 * on that request instead of returning NULL as libc does. */
const char *__asan_default_options(void);
const char *__asan_default_options(void) { return "allocator_may_return_null=1"; }

static int lv[4], nlv;
static int64_t n_checked;

static char *cigar_of(const aln_path_t *p)
{
	int64_t n = aln_path_cigar(p, 0, 0);
	char *s = malloc((size_t)n + 1);
	aln_path_cigar(p, s, n + 1);
	return s;
}

/* is s (length n) a subsequence of t? */
static int is_subseq(const char *s, int64_t n, const char *t, int64_t m)
{
	int64_t i = 0;
	for (int64_t j = 0; j < m && i < n; j++) i += s[i] == t[j];
	return i == n;
}

static void check_path(const char *a, int64_t la, const char *b, int64_t lb, int64_t want, const char *wc,
                       const aln_path_t *p, int64_t len, const char *what)
{
	char *c = cigar_of(p);
	int64_t m = dt_replay(p->run, p->n, a, la, b, lb, 1);
	char *sub = malloc((size_t)(la + 1));
	int64_t sl = lcs_path_subseq(p, a, sub, la + 1);
	CHECK(len == want && m == want && !strcmp(c, wc), "%s la %lld lb %lld: lcs %lld, path %lld %s, want %lld %s", what,
	      (long long)la, (long long)lb, (long long)len, (long long)m, c, (long long)want, wc);
	CHECK(sl == want && (int64_t)strlen(sub) == sl && is_subseq(sub, sl, a, la) && is_subseq(sub, sl, b, lb),
	      "%s: subsequence of length %lld is not common to both", what, (long long)sl);
	free(sub);
	free(c);
}

static void test_basics(void)
{
	static const struct { const char *a, *b, *cigar; int64_t l; } ex[] = {
		{ "A", "AA", "1M1D", 1 }, { "AA", "A", "1I1M", 1 }, { "", "", "", 0 }, { "", "ACG", "3D", 0 },
		{ "ACG", "", "3I", 0 }, { "N", "N", "1M", 1 }, { "N", "R", "1I1D", 0 }, { "AC", "CA", "1I1M1D", 1 },
		{ "ACGT", "TGCA", "3I1M3D", 1 },
	};
	for (size_t e = 0; e < sizeof ex / sizeof ex[0]; e++)
		for (int l = 0; l < nlv; l++) {
			lcs_opt_t o;
			lcs_opt_init(&o);
			o.simd = lv[l];
			o.path = 1;
			aln_path_t q = { 0 };
			int64_t len;
			CHECK(lcs_pair(&o, ex[e].a, (int64_t)strlen(ex[e].a), ex[e].b, (int64_t)strlen(ex[e].b), &len, &q) == RK_OK, "rc");
			char *c = cigar_of(&q);
			CHECK(len == ex[e].l && !strcmp(c, ex[e].cigar), "%s vs %s: %lld %s, want %lld %s", ex[e].a, ex[e].b,
			      (long long)len, c, (long long)ex[e].l, ex[e].cigar);
			free(c);
			aln_path_free(&q);
		}
	char buf[4];
	aln_path_t p = { 0 };
	aln_path_push(&p, ALN_M, 2);
	aln_path_push(&p, ALN_D, 1);
	aln_path_push(&p, ALN_M, 3);
	CHECK(lcs_path_subseq(&p, "ACGTT", buf, sizeof buf) == 5 && !strcmp(buf, "ACG"), "subseq into a short buffer: %s", buf);
	aln_path_free(&p);
}

static void check_pair(const char *a, int64_t la, const char *b, int64_t lb, const char *what)
{
	char *ops;
	int64_t want = naive_lcs(a, la, b, lb, &ops);
	char *wc = naive_cigar(ops);
	free(ops);
	for (int l = 0; l < nlv; l++)
		for (int th = 1; th <= 3; th++) {
			lcs_opt_t o;
			lcs_opt_init(&o);
			o.simd = lv[l];
			o.n_threads = th;
			int64_t len = -2;
			CHECK(lcs_pair(&o, a, la, b, lb, &len, 0) == RK_OK, "rc");
			CHECK(len == want, "%s la %lld lb %lld level %d threads %d: lcs %lld, want %lld", what, (long long)la,
			      (long long)lb, lv[l], th, (long long)len, (long long)want);
			o.path = 1;
			aln_path_t p = { 0 };
			CHECK(lcs_pair(&o, a, la, b, lb, &len, &p) == RK_OK, "rc");
			check_path(a, la, b, lb, want, wc, &p, len, what);
			aln_path_free(&p);
			n_checked++;
		}
	free(wc);
}

/* A short sequence against a long one, both orders: the long traceback of one word of rows
 * (block by block) and Hirschberg on few rows over long B, against the naive DP. */
static void test_short_long(long n)
{
	for (long it = 0; it < n; it++) {
		char *a, *b, what[48];
		int64_t la, lb;
		dt_short_long(it, &a, &la, &b, &lb);
		snprintf(what, sizeof what, "short/long case %ld", it);
		check_pair(a, la, b, lb, what);
		free(a);
		free(b);
	}
}

typedef struct {
	char *a, *b;
	int64_t la, lb;
} tcase_t;

static tcase_t make_case(long it)
{
	tcase_t t;
	int alpha = (int)tu_range(2, 4), punk = it % 3 == 0 ? (int)tu_range(1, 20) : 0;
	int64_t la = it % 50 == 7 ? tu_range(1100, 2600) : it % 10 == 0 ? tu_range(1, 1100) : it % 10 == 1 ? tu_range(0, 3) : tu_range(1, 200);
	t.a = malloc((size_t)(2 * la + 1100));
	t.b = malloc((size_t)(2 * la + 1100));
	dt_random(t.a, la, alpha, punk);
	t.la = la;
	long kind = tu_range(0, 9);
	if (kind <= 2) {
		t.lb = it % 50 == 7 ? tu_range(900, 2600) : it % 10 == 0 ? tu_range(1, 1100) : tu_range(0, 200);
		dt_random(t.b, t.lb, alpha, punk);
	} else if (kind == 3) {
		t.lb = 0;
		t.b[0] = 0;
		if (tu_range(0, 1)) { char *x = t.a; t.a = t.b; t.b = x; t.lb = t.la; t.la = 0; }
	} else {
		t.lb = dt_mutate(t.a, la, t.b, kind == 9 ? 3 : (int)(kind % 3), (int)tu_range(1, 15), alpha, punk);
	}
	if (tu_range(0, 1)) {
		char *x = t.a; t.a = t.b; t.b = x;
		int64_t y = t.la; t.la = t.lb; t.lb = y;
	}
	return t;
}

static void test_random(long n)
{
	tcase_t *tc = malloc(sizeof(tcase_t) * (size_t)n);
	aln_pair_t *pr = malloc(sizeof(aln_pair_t) * (size_t)n);
	int64_t *want = malloc(sizeof(int64_t) * (size_t)n), *len = malloc(sizeof(int64_t) * (size_t)n);
	char **wc = malloc(sizeof(char *) * (size_t)n);
	for (long it = 0; it < n; it++) {
		tc[it] = make_case(it);
		char what[32];
		snprintf(what, sizeof what, "case %ld", it);
		check_pair(tc[it].a, tc[it].la, tc[it].b, tc[it].lb, what);
		pr[it] = (aln_pair_t){ tc[it].a, tc[it].b, tc[it].la, tc[it].lb };
		char *ops;
		want[it] = naive_lcs(tc[it].a, tc[it].la, tc[it].b, tc[it].lb, &ops);
		wc[it] = naive_cigar(ops);
		free(ops);
	}
	for (int l = 0; l < nlv; l++)
		for (int th = 1; th <= 3; th++) {
			lcs_opt_t o;
			lcs_opt_init(&o);
			o.simd = lv[l];
			o.n_threads = th;
			CHECK(lcs_batch(&o, pr, n, len, 0) == RK_OK, "batch rc");
			for (long i = 0; i < n; i++)
				CHECK(len[i] == want[i], "batch level %d threads %d case %ld: %lld, want %lld", lv[l], th, i,
				      (long long)len[i], (long long)want[i]);
			aln_path_t *paths = calloc((size_t)n, sizeof(aln_path_t));
			CHECK(lcs_batch(&o, pr, n, len, paths) == RK_OK, "batch rc");
			for (long i = 0; i < n; i++) {
				char what[80];
				snprintf(what, sizeof what, "batch level %d threads %d case %ld", lv[l], th, i);
				check_path(pr[i].a, pr[i].la, pr[i].b, pr[i].lb, want[i], wc[i], &paths[i], len[i], what);
				aln_path_free(&paths[i]);
			}
			free(paths);
		}
	for (long i = 0; i < n; i++) free(tc[i].a), free(tc[i].b), free(wc[i]);
	free(tc); free(pr); free(want); free(len); free(wc);
}

/* the slab contract on random block splits (see test_lev.c) */
static void test_slabs(long n)
{
	for (long it = 0; it < n; it++) {
		int64_t la = tu_range(1, 600), lb = tu_range(1, 600);
		char *a = malloc((size_t)la + 1), *b = malloc((size_t)lb + 1);
		dt_random(a, la, (int)tu_range(2, 4), it % 2 ? 5 : 0);
		dt_random(b, lb, (int)tu_range(2, 4), it % 2 ? 5 : 0);
		if (it % 3 == 0 && lb >= la) memcpy(b, a, (size_t)la);
		int32_t *row = calloc((size_t)(lb + 1), sizeof(int32_t)), *col = calloc((size_t)(la + 1), sizeof(int32_t));
		for (int64_t i = 1; i <= la; i++) {
			int32_t diag = row[0];
			for (int64_t j = 1; j <= lb; j++) {
				int32_t up = row[j], v = up > row[j - 1] ? up : row[j - 1];
				if (a[i - 1] == b[j - 1] && diag + 1 > v) v = diag + 1;
				diag = up;
				row[j] = v;
			}
			col[i] = row[lb];
		}
		int lvl = lv[it % nlv];
		aln_prep_t p;
		CHECK(aln_prep_init(&p, a, la, 0, b, lb, 0, lvl) == RK_OK, "prep");
		int64_t nc = tu_range(1, 5), cut[8];
		cut[0] = 0;
		for (int64_t q = 1; q < nc; q++) cut[q] = tu_range(0, lb);
		cut[nc] = lb;
		for (int64_t q = 1; q < nc; q++)
			for (int64_t r = q; r > 0 && cut[r] < cut[r - 1]; r--) { int64_t x = cut[r]; cut[r] = cut[r - 1]; cut[r - 1] = x; }
		uint64_t *hc[8], v[16];
		for (int64_t q = 0; q < nc; q++) hc[q] = calloc((size_t)((cut[q + 1] - cut[q] + 63) / 64 + 1), sizeof(uint64_t));
		int64_t redge = 0, bad = 0;
		for (int64_t r = 0; r < p.nw;) {
			int64_t r1 = r + tu_range(1, 12);
			if (r1 > p.nw) r1 = p.nw;
			for (int64_t x = 0; x < r1 - r; x++) v[x] = ~0ull;
			for (int64_t q = 0; q < nc; q++) lcs_slab(&p, lvl, r, r1, cut[q], cut[q + 1], hc[q], v);
			for (int64_t i = 64 * r + 1; i <= la && i <= 64 * r1; i++) {
				int64_t x = (i - 1) / 64 - r, s = (i - 1) & 63;
				redge += (int)(1 - (v[x] >> s & 1)) != col[i] - col[i - 1];
			}
			r = r1;
		}
		int64_t val = 0;
		for (int64_t q = 0; q < nc; q++)
			for (int64_t j = cut[q]; j < cut[q + 1]; j++) {
				int64_t t = j - cut[q];
				val += (int64_t)(hc[q][t >> 6] >> (t & 63) & 1);
				bad += val != row[j + 1];
			}
		CHECK(!redge && !bad, "slab split %ld (la %lld lb %lld, %lld column blocks, level %d): %lld right, %lld bottom values wrong",
		      it, (long long)la, (long long)lb, (long long)nc, lvl, (long long)redge, (long long)bad);
		for (int64_t q = 0; q < nc; q++) free(hc[q]);
		aln_prep_free(&p);
		free(a); free(b); free(row); free(col);
	}
}

/* out of memory is RK_ERES, never a crash (see test_lev.c) */
static void test_oom(void)
{
	for (int path = 0; path <= 1; path++) {
		lcs_opt_t o;
		lcs_opt_init(&o);
		o.path = path;
		aln_path_t p = { 0 };
		int64_t len;
		rk_status_t st = lcs_pair(&o, "A", 1, "ACGT", (int64_t)1 << 42, &len, path ? &p : 0);
		CHECK(st == RK_ERES && strstr(rk_error(), "memory"), "oom path %d: status %d, error '%s'", path, st, rk_error());
		aln_path_free(&p);
	}
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 600;
	nlv = dt_levels(lv, aln_simd_level(-1));
	test_basics();
	test_oom();
	test_random(n);
	test_short_long(n / 25 + 4);
	test_slabs(n / 4 + 20);
	fprintf(stderr, "test_lcs: %lld pair x level x thread checks\n", (long long)n_checked);
	return tu_done("test_lcs");
}
