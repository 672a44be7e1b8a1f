/* lev mode, library level: distances and canonical paths against the naive DP (naive_dp.c),
 * every SIMD level and thread count 1-3, -k around the distance, batches against single
 * pairs, the slab contract on random block splits, path and CIGAR helpers.
 * Usage: test_lev [N_RANDOM_CASES]   (default 600) */
#include "dp_testutil.h"
#include "naive_dp.h"
#include "algo/lev.h"
#include "algo/aln_dp.h"

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

static void test_basics(void)
{
	aln_path_t p = { 0 };
	CHECK(aln_path_push(&p, ALN_EQ, 3) == RK_OK && aln_path_push(&p, ALN_EQ, 2) == RK_OK, "push");
	aln_path_push(&p, ALN_X, 1);
	aln_path_push(&p, ALN_I, 0);   /* length 0: nothing */
	aln_path_push(&p, ALN_I, 12);
	CHECK(p.n == 3, "runs merged: %lld", (long long)p.n);
	char buf[8];
	int64_t need = aln_path_cigar(&p, buf, sizeof buf);
	CHECK(need == 7 && !strcmp(buf, "5=1X12I"), "cigar into an exact buffer: %lld '%s'", (long long)need, buf);
	need = aln_path_cigar(&p, buf, 5);
	CHECK(need == 7 && !strcmp(buf, "5=1X"), "cigar into a short buffer: %lld '%s'", (long long)need, buf);
	char *c = cigar_of(&p);
	CHECK(!strcmp(c, "5=1X12I"), "cigar %s", c);
	free(c);
	int64_t x, y;
	aln_path_span(&p, &x, &y);
	CHECK(x == 18 && y == 6, "span %lld %lld", (long long)x, (long long)y);
	aln_path_free(&p);
	CHECK(p.run == 0 && p.n == 0, "free");

	/* the examples of the rule, and empty sequences */
	static const struct { const char *a, *b, *cigar; int64_t d; } ex[] = {
		{ "A", "AA", "1=1D", 1 }, { "AA", "A", "1I1=", 1 }, { "", "", "", 0 }, { "", "ACG", "3D", 3 },
		{ "ACG", "", "3I", 3 }, { "N", "N", "1=", 0 }, { "N", "R", "1X", 1 }, { "AC", "CA", "1I1=1D", 2 },
	};
	for (size_t e = 0; e < sizeof ex / sizeof ex[0]; e++)
		for (int l = 0; l < nlv; l++) {
			lev_opt_t o;
			lev_opt_init(&o);
			o.simd = lv[l];
			o.path = 1;
			aln_path_t q = { 0 };
			int64_t d;
			CHECK(lev_pair(&o, ex[e].a, (int64_t)strlen(ex[e].a), ex[e].b, (int64_t)strlen(ex[e].b), &d, &q) == RK_OK, "rc");
			c = cigar_of(&q);
			CHECK(d == ex[e].d && !strcmp(c, ex[e].cigar), "%s vs %s: %lld %s, want %lld %s", ex[e].a, ex[e].b,
			      (long long)d, c, (long long)ex[e].d, ex[e].cigar);
			free(c);
			aln_path_free(&q);
		}
}

/* one pair: distance, path, -k, every level and thread count */
static void check_pair(const char *a, int64_t la, const char *b, int64_t lb, const char *what)
{
	char *ops;
	int64_t want = naive_lev(a, la, b, lb, &ops);
	char *wc = naive_cigar(ops);
	free(ops);
	for (int l = 0; l < nlv; l++)
		for (int th = 1; th <= 3; th++) {
			lev_opt_t o;
			lev_opt_init(&o);
			o.simd = lv[l];
			o.n_threads = th;
			int64_t d = -2;
			CHECK(lev_pair(&o, a, la, b, lb, &d, 0) == RK_OK, "rc");
			CHECK(d == want, "%s la %lld lb %lld level %d threads %d: distance %lld, want %lld", what, (long long)la,
			      (long long)lb, lv[l], th, (long long)d, (long long)want);
			o.path = 1;
			aln_path_t p = { 0 };
			CHECK(lev_pair(&o, a, la, b, lb, &d, &p) == RK_OK, "rc");
			char *c = cigar_of(&p);
			int64_t rc = dt_replay(p.run, p.n, a, la, b, lb, 0);
			CHECK(d == want && rc == want && !strcmp(c, wc), "%s la %lld lb %lld level %d threads %d: path %lld/%lld %s, want %lld %s",
			      what, (long long)la, (long long)lb, lv[l], th, (long long)d, (long long)rc, c, (long long)want, wc);
			free(c);
			/* -k at the boundary: d = k, d = k + 1, k = 0 (with and without the path) */
			int64_t ks[4] = { want, want + 1, want - 1, 0 };
			for (int q = 0; q < 4; q++) {
				if (ks[q] < 0 || (th > 1 && q > 1)) continue;
				int64_t exp = want <= ks[q] ? want : -1;
				o.k = ks[q];
				o.path = 0;
				lev_pair(&o, a, la, b, lb, &d, 0);
				CHECK(d == exp, "%s la %lld lb %lld level %d -k %lld: %lld, want %lld", what, (long long)la, (long long)lb,
				      lv[l], (long long)ks[q], (long long)d, (long long)exp);
				o.path = 1;
				lev_pair(&o, a, la, b, lb, &d, &p);
				c = cigar_of(&p);
				CHECK(d == exp && (exp < 0 ? p.n == 0 : !strcmp(c, wc)), "%s level %d -k %lld path: %lld %s, want %lld %s",
				      what, lv[l], (long long)ks[q], (long long)d, c, (long long)exp, exp < 0 ? "" : wc);
				free(c);
			}
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
	/* mostly short, some up to 1100, a few long enough for the threaded paths (>= 2^20 cells) */
	int64_t la = it % 50 == 7 ? tu_range(1100, 2600) : it % 10 == 0 ? tu_range(1, 1100) : it % 10 == 1 ? tu_range(0, 3) : tu_range(1, 200);
	t.a = malloc((size_t)(2 * la + 1100));
	t.b = malloc((size_t)(2 * la + 1100));
	dt_random(t.a, la, alpha, punk);
	t.la = la;
	long kind = tu_range(0, 9);
	if (kind <= 2) {   /* unrelated */
		t.lb = it % 50 == 7 ? tu_range(900, 2600) : it % 10 == 0 ? tu_range(1, 1100) : tu_range(0, 200);
		dt_random(t.b, t.lb, alpha, punk);
	} else if (kind == 3) {   /* one empty, one long */
		t.lb = 0;
		t.b[0] = 0;
		if (tu_range(0, 1)) { char *x = t.a; t.a = t.b; t.b = x; t.lb = t.la; t.la = 0; }
	} else {
		t.lb = dt_mutate(t.a, la, t.b, kind == 9 ? 3 : (int)(kind % 3), (int)tu_range(1, 15), alpha, punk);
	}
	if (tu_range(0, 1)) {   /* either may be the longer one */
		char *x = t.a; t.a = t.b; t.b = x;
		int64_t y = t.la; t.la = t.lb; t.lb = y;
	}
	return t;
}

static void test_random(long n)
{
	tcase_t *tc = malloc(sizeof(tcase_t) * (size_t)n);
	aln_pair_t *pr = malloc(sizeof(aln_pair_t) * (size_t)n);
	int64_t *want = malloc(sizeof(int64_t) * (size_t)n), *d = malloc(sizeof(int64_t) * (size_t)n);
	char **wc = malloc(sizeof(char *) * (size_t)n);
	for (long it = 0; it < n; it++) {
		tc[it] = make_case(it);
		char what[32];
		snprintf(what, sizeof what, "case %ld", it);
		check_pair(tc[it].a, tc[it].la, tc[it].b, tc[it].lb, what);
		pr[it] = (aln_pair_t){ tc[it].a, tc[it].b, tc[it].la, tc[it].lb };
		char *ops;
		want[it] = naive_lev(tc[it].a, tc[it].la, tc[it].b, tc[it].lb, &ops);
		wc[it] = naive_cigar(ops);
		free(ops);
	}
	/* batches: the same answers as single pairs */
	for (int l = 0; l < nlv; l++)
		for (int th = 1; th <= 3; th++)
			for (int k = -1; k <= 8; k += 9) {
				lev_opt_t o;
				lev_opt_init(&o);
				o.simd = lv[l];
				o.n_threads = th;
				o.k = k;
				aln_path_t *paths = calloc((size_t)n, sizeof(aln_path_t));
				CHECK(lev_batch(&o, pr, n, d, 0) == RK_OK, "batch rc");
				for (long i = 0; i < n; i++) {
					int64_t exp = k < 0 || want[i] <= k ? want[i] : -1;
					CHECK(d[i] == exp, "batch level %d threads %d k %d case %ld: %lld, want %lld", lv[l], th, k, i,
					      (long long)d[i], (long long)exp);
				}
				CHECK(lev_batch(&o, pr, n, d, paths) == RK_OK, "batch rc");
				for (long i = 0; i < n; i++) {
					int64_t exp = k < 0 || want[i] <= k ? want[i] : -1;
					char *c = cigar_of(&paths[i]);
					CHECK(d[i] == exp && (exp < 0 ? paths[i].n == 0 : !strcmp(c, wc[i])),
					      "batch path level %d threads %d k %d case %ld: %lld %s, want %lld %s", lv[l], th, k, i,
					      (long long)d[i], c, (long long)exp, wc[i]);
					free(c);
					aln_path_free(&paths[i]);
				}
				free(paths);
			}
	for (long i = 0; i < n; i++) free(tc[i].a), free(tc[i].b), free(wc[i]);
	free(tc); free(pr); free(want); free(d); free(wc);
}

/* The slab contract: the matrix cut into random blocks (word rows x any column ranges),
 * computed block by block from its top and left edges, gives the naive last row and column. */
static void test_slabs(long n)
{
	for (long it = 0; it < n; it++) {
		int64_t la = tu_range(1, 600), lb = tu_range(1, 600);
		char *a = malloc((size_t)la + 1), *b = malloc((size_t)lb + 1);
		dt_random(a, la, (int)tu_range(2, 4), it % 2 ? 5 : 0);
		dt_random(b, lb, (int)tu_range(2, 4), it % 2 ? 5 : 0);
		if (it % 3 == 0 && lb >= la) memcpy(b, a, (size_t)la);
		/* naive last row and column */
		int32_t *row = malloc(sizeof(int32_t) * (size_t)(lb + 1)), *col = malloc(sizeof(int32_t) * (size_t)(la + 1));
		for (int64_t j = 0; j <= lb; j++) row[j] = (int32_t)j;
		col[0] = (int32_t)lb;
		for (int64_t i = 1; i <= la; i++) {
			int32_t diag = row[0];
			row[0] = (int32_t)i;
			for (int64_t j = 1; j <= lb; j++) {
				int32_t up = row[j], v = diag + (a[i - 1] != b[j - 1]);
				if (up + 1 < v) v = up + 1;
				if (row[j - 1] + 1 < v) v = row[j - 1] + 1;
				diag = up;
				row[j] = v;
			}
			col[i] = row[lb];
		}
		int lvl = lv[it % nlv];
		aln_prep_t p;
		CHECK(aln_prep_init(&p, a, la, 0, b, lb, 0, lvl) == RK_OK, "prep");
		/* column cuts anywhere, row cuts on words */
		int64_t nc = tu_range(1, 5), cut[8];
		cut[0] = 0;
		for (int64_t q = 1; q < nc; q++) cut[q] = tu_range(0, lb);
		cut[nc] = lb;
		for (int64_t q = 1; q < nc; q++)   /* sort */
			for (int64_t r = q; r > 0 && cut[r] < cut[r - 1]; r--) { int64_t x = cut[r]; cut[r] = cut[r - 1]; cut[r - 1] = x; }
		uint64_t *hp[8], *hm[8], pv[16], mv[16];
		for (int64_t q = 0; q < nc; q++) {
			int64_t w = (cut[q + 1] - cut[q] + 63) / 64 + 1;
			hp[q] = malloc(sizeof(uint64_t) * (size_t)w);
			hm[q] = calloc((size_t)w, sizeof(uint64_t));
			for (int64_t x = 0; x < w; x++) hp[q][x] = ~0ull;
		}
		int64_t redge = 0;
		for (int64_t r = 0; r < p.nw;) {
			int64_t r1 = r + tu_range(1, 12);
			if (r1 > p.nw) r1 = p.nw;
			for (int64_t x = 0; x < r1 - r; x++) pv[x] = ~0ull, mv[x] = 0;
			for (int64_t q = 0; q < nc; q++) lev_slab(&p, lvl, r, r1, cut[q], cut[q + 1], hp[q], hm[q], pv, mv);
			/* the right edge: vertical deltas of column lb */
			for (int64_t i = 64 * r + 1; i <= la && i <= 64 * r1; i++) {
				int64_t x = (i - 1) / 64 - r, s = (i - 1) & 63;
				int dv = (int)(pv[x] >> s & 1) - (int)(mv[x] >> s & 1);
				redge += dv != col[i] - col[i - 1];
			}
			r = r1;
		}
		CHECK(!redge, "slab split %ld: %lld right-edge deltas wrong", it, (long long)redge);
		int64_t bad = 0;
		/* bottom row from the edges */
		int64_t val = la;
		for (int64_t q = 0; q < nc; q++)
			for (int64_t j = cut[q]; j < cut[q + 1]; j++) {
				int64_t t = j - cut[q];
				val += (int64_t)(hp[q][t >> 6] >> (t & 63) & 1) - (int64_t)(hm[q][t >> 6] >> (t & 63) & 1);
				bad += val != row[j + 1];
			}
		CHECK(!bad, "slab split %ld (la %lld lb %lld, %lld column blocks, level %d): %lld bottom values wrong", it,
		      (long long)la, (long long)lb, (long long)nc, lvl, (long long)bad);
		for (int64_t q = 0; q < nc; q++) free(hp[q]), free(hm[q]);
		aln_prep_free(&p);
		free(a); free(b); free(row); free(col);
	}
}

/* Out of memory is RK_ERES with a message, never a crash: B claims 2^42 symbols, so the
 * first allocation sized by it fails before anything reads it. */
static void test_oom(void)
{
	const char *b = "ACGT";
	int64_t d = 0;
	for (int path = 0; path <= 1; path++) {
		lev_opt_t o;
		lev_opt_init(&o);
		o.path = path;
		aln_path_t p = { 0 };
		rk_status_t st = lev_pair(&o, "A", 1, b, (int64_t)1 << 42, &d, path ? &p : 0);
		CHECK(st == RK_ERES && d == -1 && strstr(rk_error(), "memory"), "oom path %d: status %d, error '%s'", path, st,
		      rk_error());
		aln_path_free(&p);
	}
}

/* Pairs drawn from one set of reads, as --all makes them (row i against reads j >= i): lanes
 * of a group share A (and sometimes B) pointers and take the planes of the lane before; a
 * symbol first seen in a later read grows the alphabet in the middle of such a group. Each
 * against the naive distance. */
static void test_shared(long n)
{
	const int m = 24;
	char *r[24];
	int64_t len[24];
	for (int i = 0; i < m; i++) {
		len[i] = i % 7 == 3 ? tu_range(0, 3) : tu_range(60, 200);
		r[i] = malloc((size_t)len[i] + 1);
		dt_random(r[i], len[i], i < m / 2 ? 2 : 4, i % 5 == 4 ? 9 : 0);
		if (i == m - 3 && len[i] > 70) r[i][70] = 'Z';   /* only here */
	}
	const int64_t np = (int64_t)m * (m + 1) / 2;
	aln_pair_t *pr = malloc(sizeof *pr * (size_t)np);
	int64_t *want = malloc(sizeof(int64_t) * (size_t)np), *d = malloc(sizeof(int64_t) * (size_t)np), q = 0;
	int64_t *ai = malloc(sizeof(int64_t) * (size_t)np), *bi = malloc(sizeof(int64_t) * (size_t)np);
	for (int i = 0; i < m; i++)
		for (int j = i; j < m; j++, q++) {
			pr[q] = (aln_pair_t){ r[i], r[j], len[i], len[j] };
			ai[q] = i; bi[q] = j;
			want[q] = naive_lev(r[i], len[i], r[j], len[j], 0);
		}
	/* the same pairs with the reads' planes from a table (lev --all on the CPU) */
	aln_rplanes_t tab;
	CHECK(aln_rplanes_init(&tab, m, (const char *const *)r, len, 1u << 20, 2) == RK_OK && (tab.fw || !aln_simd_level(-1)), "plane table");
	const aln_rsrc_t rs = { &tab, ai, bi };
	for (int l = 0; l < nlv; l++)
		for (int th = 1; th <= 3; th += 2) {
			lev_opt_t o;
			lev_opt_init(&o);
			o.simd = lv[l];
			o.n_threads = th;
			aln_path_t *paths = calloc((size_t)np, sizeof(aln_path_t));
			CHECK(lev_batch_reads(&o, pr, &rs, np, d, paths) == RK_OK, "table batch rc");
			for (int64_t x = 0; x < np; x++) {
				char *c = cigar_of(&paths[x]), *ops;
				const int64_t e = naive_lev(pr[x].a, pr[x].la, pr[x].b, pr[x].lb, &ops);
				char *wcig = naive_cigar(ops);
				CHECK(d[x] == want[x] && e == want[x] && !strcmp(c, wcig), "table, level %d, pair %lld: %lld %s, want %lld %s", lv[l],
				      (long long)x, (long long)d[x], c, (long long)want[x], wcig);
				free(c); free(ops); free(wcig);
				aln_path_free(&paths[x]);
			}
			free(paths);
		}
	aln_rplanes_free(&tab);
	free(ai); free(bi);
	for (long it = 0; it < n; it++)
		for (int l = 0; l < nlv; l++) {
			lev_opt_t o;
			lev_opt_init(&o);
			o.simd = lv[l];
			o.n_threads = (int)(it % 3) + 1;
			CHECK(lev_batch(&o, pr, np, d, 0) == RK_OK, "shared batch rc");
			for (int64_t x = 0; x < np; x++)
				CHECK(d[x] == want[x], "shared reads, level %d, pair %lld: %lld, want %lld", lv[l], (long long)x, (long long)d[x],
				      (long long)want[x]);
		}
	for (int i = 0; i < m; i++) free(r[i]);
	free(pr); free(want); free(d);
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 600;
	nlv = dt_levels(lv, aln_simd_level(-1));
	fprintf(stderr, "test_lev: SIMD levels");
	for (int l = 0; l < nlv; l++) fprintf(stderr, " %s", aln_simd_name(lv[l]));
	fprintf(stderr, "\n");
	test_basics();
	test_oom();
	test_random(n);
	test_short_long(n / 25 + 4);
	test_slabs(n / 4 + 20);
	test_shared(3);
	fprintf(stderr, "test_lev: %lld pair x level x thread checks\n", (long long)n_checked);
	return tu_done("test_lev");
}
