/* lev --mode prefix|infix, library level (lev_pair_mode, lev_batch_mode): the best distance,
 * every end with it, the start of the first end and the canonical path, against a naive DP
 * written here (the top row 0 for infix, j for prefix; the start by trying every start with
 * naive_dp.c's global distance; the path from naive_dp.c on the chosen piece). Random pairs,
 * reads planted in longer references with edits, and adversarial ones (empty, one symbol,
 * all equal, repeats, B shorter than A); every SIMD level; -k below, at and above the best;
 * batches against single pairs. Usage: test_lev_mode [N_RANDOM_CASES] (default 300) */
#include "dp_testutil.h"
#include "naive_dp.h"
#include "algo/lev.h"

static int64_t n_checked;

/* the last row of the DP with a free start (infix) or not, into row[0..lb] */
static void naive_row(const char *a, int64_t la, const char *b, int64_t lb, int infix, int64_t *row)
{
	int64_t *prev = malloc(sizeof *prev * (size_t)(lb + 1));
	for (int64_t j = 0; j <= lb; j++) prev[j] = infix ? 0 : j;
	for (int64_t i = 1; i <= la; i++) {
		row[0] = i;
		for (int64_t j = 1; j <= lb; j++) {
			int64_t d = prev[j - 1] + (a[i - 1] != b[j - 1]), u = prev[j] + 1, l = row[j - 1] + 1;
			row[j] = d < u ? (d < l ? d : l) : (u < l ? u : l);
		}
		memcpy(prev, row, sizeof *row * (size_t)(lb + 1));
	}
	memcpy(row, prev, sizeof *row * (size_t)(lb + 1));
	free(prev);
}

static char *cigar_of(const aln_path_t *p)
{
	int64_t n = aln_path_cigar(p, 0, 0);
	char *s = malloc((size_t)n + 1);
	aln_path_cigar(p, s, n + 1);
	return s;
}

static void check_one(const char *what, const char *a, int64_t la, const char *b, int64_t lb, int mode, int simd, int64_t k)
{
	int64_t *row = malloc(sizeof *row * (size_t)(lb + 1)), best = INT64_MAX;
	naive_row(a, la, b, lb, mode == LEV_INFIX, row);
	for (int64_t j = 0; j <= lb; j++) if (row[j] < best) best = row[j];
	const int64_t want = k >= 0 && best > k ? -1 : best;
	lev_opt_t o;
	lev_opt_init(&o);
	o.mode = mode; o.simd = simd; o.k = k; o.path = 1;
	aln_path_t path = { 0 };
	aln_ends_t e = { 0 };
	int64_t d = -2;
	rk_status_t st = lev_pair_mode(&o, a, la, b, lb, &d, &path, &e);
	n_checked++;
	CHECK(st == RK_OK && d == want, "%s mode %d simd %d k %lld la %lld lb %lld: distance %lld, naive %lld (%s)", what, mode, simd,
	      (long long)k, (long long)la, (long long)lb, (long long)d, (long long)want, st ? rk_error() : "ok");
	if (st || d != want) goto out;
	if (d < 0) { CHECK(e.n == 0 && path.n == 0, "%s: ends or path beyond k", what); goto out; }
	int64_t n = 0, bad = 0;
	for (int64_t j = 0; j <= lb; j++) if (row[j] == best) { if (n >= e.n || e.end[n] != j) bad = 1; n++; }
	CHECK(!bad && n == e.n, "%s mode %d simd %d la %lld lb %lld: %lld ends, naive %lld (first %lld)", what, mode, simd, (long long)la,
	      (long long)lb, (long long)e.n, (long long)n, e.n ? (long long)e.end[0] : -1ll);
	if (bad || !n) goto out;
	const int64_t end = e.end[0];
	int64_t s0 = 0;   /* the smallest start of a piece ending at the first end with the best distance */
	if (mode == LEV_INFIX)
		for (s0 = 0; s0 <= end; s0++) if (naive_lev(a, la, b + s0, end - s0, 0) == best) break;
	CHECK(e.start == s0, "%s mode %d la %lld lb %lld end %lld: start %lld, naive %lld", what, mode, (long long)la, (long long)lb,
	      (long long)end, (long long)e.start, (long long)s0);
	char *ops = 0;
	naive_lev(a, la, b + s0, end - s0, &ops);
	char *nc = naive_cigar(ops), *c = cigar_of(&path);
	CHECK(!strcmp(nc, c), "%s mode %d la %lld lb %lld: cigar %s, naive %s", what, mode, (long long)la, (long long)lb, c, nc);
	free(ops); free(nc); free(c);
out:
	aln_path_free(&path);
	aln_ends_free(&e);
	free(row);
}

static void check_all(const char *what, const char *a, int64_t la, const char *b, int64_t lb)
{
	static const int simd[] = { 0, 2, 3, 4 };
	for (int mode = LEV_PREFIX; mode <= LEV_INFIX; mode++) {
		check_one(what, a, la, b, lb, mode, simd[tu_range(0, 3)], -1);
		int64_t k = tu_range(0, la / 2 + 2);
		check_one(what, a, la, b, lb, mode, simd[tu_range(0, 3)], k);
	}
}

static void test_adversarial(void)
{
	char a[2100], b[4200];
	check_all("empty both", "", 0, "", 0);
	check_all("empty A", "", 0, "ACGT", 4);
	check_all("empty B", "ACGT", 4, "", 0);
	check_all("one symbol", "A", 1, "CCACC", 5);
	check_all("one absent symbol", "G", 1, "CCACC", 5);
	for (int n = 1; n <= 300; n += 37) {   /* all equal, and B shorter than A */
		memset(a, 'A', (size_t)n); memset(b, 'A', 2 * (size_t)n);
		check_all("all equal", a, n, b, 2 * n);
		check_all("B shorter", a, n, b, n / 3);
		memset(b, 'C', 2 * (size_t)n);
		check_all("disjoint alphabets", a, n, b, 2 * n);
	}
	for (int n = 60; n <= 2000; n = n * 2 + 7) {   /* tandem repeats: many ends */
		for (int i = 0; i < n; i++) a[i] = "ACG"[i % 3];
		for (int i = 0; i < 2 * n; i++) b[i] = "ACG"[(i + 1) % 3];
		check_all("repeat", a, n / 2, b, 2 * n);
		check_all("repeat in repeat", a, 64, b, 2 * n);
	}
}

static void test_random(int cases)
{
	static char a[2100], b[8400];
	for (int t = 0; t < cases; t++) {
		int alpha = (int)tu_range(1, 4), punk = tu_range(0, 3) ? 0 : 5;
		int64_t la = t % 5 == 0 ? tu_range(0, 8) : tu_range(1, t % 7 == 0 ? 1200 : 300), lb;
		dt_random(a, la, alpha, punk);
		if (tu_range(0, 1)) {   /* a mutated copy of A planted in a longer B */
			int64_t pre = tu_range(0, 400), n = dt_mutate(a, la, b + pre, (int)tu_range(0, 3), (int)tu_range(0, 15), alpha, punk);
			dt_random(b, pre, alpha, punk);
			int64_t post = tu_range(0, 400);
			dt_random(b + pre + n, post, alpha, punk);
			lb = pre + n + post;
		} else {
			lb = tu_range(0, 2 * la + 10);
			dt_random(b, lb, alpha, punk);
		}
		check_all("random", a, la, b, lb);
	}
}

/* a batch gives what each pair gives alone */
static void test_batch(void)
{
	enum { N = 40 };
	static char a[N][400], b[N][900];
	aln_pair_t p[N];
	for (int q = 0; q < N; q++) {
		int64_t la = tu_range(0, 300);
		dt_random(a[q], la, 4, 0);
		int64_t lb = dt_mutate(a[q], la, b[q] + 100, 0, 8, 4, 0) + 100;
		dt_random(b[q], 100, 4, 0);
		p[q] = (aln_pair_t){ a[q], b[q], la, lb };
	}
	for (int mode = LEV_PREFIX; mode <= LEV_INFIX; mode++) {
		lev_opt_t o;
		lev_opt_init(&o);
		o.mode = mode; o.path = 1; o.n_threads = 3;
		int64_t d[N];
		aln_path_t paths[N] = { { 0 } };
		aln_ends_t ends[N] = { { 0 } };
		CHECK(lev_batch_mode(&o, p, N, d, paths, ends) == RK_OK, "batch");
		for (int q = 0; q < N; q++) {
			aln_path_t p1 = { 0 };
			aln_ends_t e1 = { 0 };
			int64_t d1;
			lev_pair_mode(&o, p[q].a, p[q].la, p[q].b, p[q].lb, &d1, &p1, &e1);
			char *c0 = cigar_of(&paths[q]), *c1 = cigar_of(&p1);
			CHECK(d1 == d[q] && e1.n == ends[q].n && e1.start == ends[q].start && !strcmp(c0, c1), "batch pair %d differs", q);
			free(c0); free(c1);
			aln_path_free(&p1); aln_ends_free(&e1);
			aln_path_free(&paths[q]); aln_ends_free(&ends[q]);
		}
	}
}

int main(int argc, char **argv)
{
	int cases = argc > 1 ? atoi(argv[1]) : 300;
	test_adversarial();
	test_random(cases);
	test_batch();
	fprintf(stderr, "test_lev_mode: %lld alignments checked\n", (long long)n_checked);
	return tu_done("test_lev_mode");
}
