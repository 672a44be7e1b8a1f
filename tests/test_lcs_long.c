/* lcs mode, long pairs: the naive DP (canonical path up to 4 kb, length up to 20 kb), an
 * independent plain bit-parallel length written here (up to 200 kb and the MERS genomes of
 * shared/data), path replay (M only on equal symbols, as many as the length, consuming
 * both), the same path at every SIMD level and thread count.
 * Usage: test_lcs_long [--real] [SHARED_DATA_DIR [N_REAL_PAIRS]]   (default 2 real pairs) */
#include <string.h>
#include "dp_testutil.h"
#include "naive_dp.h"
#include "algo/lcs.h"

static int lv[4], nlv;

/* Length by the textbook bit-vector recurrence, one column at a time with a 128-bit add. */
static int64_t plain_lcs(const char *a, int64_t la, const char *b, int64_t lb)
{
	int64_t nw = (la + 63) / 64;
	uint64_t *peq = calloc((size_t)(256 * nw), sizeof(uint64_t)), *v = calloc((size_t)(nw ? nw : 1), sizeof(uint64_t));
	for (int64_t i = 0; i < la; i++) peq[(uint8_t)a[i] * nw + i / 64] |= 1ull << (i % 64);
	for (int64_t w = 0; w < nw; w++) v[w] = ~0ull;
	for (int64_t j = 0; j < lb; j++) {
		const uint64_t *m = peq + (uint8_t)b[j] * nw;
		unsigned __int128 carry = 0;
		for (int64_t w = 0; w < nw; w++) {
			unsigned __int128 s = (unsigned __int128)v[w] + (v[w] & m[w]) + carry;
			carry = s >> 64;
			v[w] = (uint64_t)s | (v[w] & ~m[w]);
		}
	}
	int64_t ones = 0;
	for (int64_t i = 0; i < la; i++) ones += v[i / 64] >> (i % 64) & 1;
	free(peq);
	free(v);
	return la - ones;
}

static char *cigar_of(const aln_path_t *p)
{
	int64_t n = aln_path_cigar(p, 0, 0);
	char *s = malloc((size_t)n + 1);
	aln_path_cigar(p, s, n + 1);
	return s;
}

/* want: -1 to use plain_lcs; naive: 1 length only, 2 length and canonical path */
static void check_long(const char *what, const char *a, int64_t la, const char *b, int64_t lb, int naive, int all_levels,
                       int max_threads)
{
	char *wc = 0, *first = 0;
	int64_t want;
	if (naive == 2) {
		char *ops;
		want = naive_lcs(a, la, b, lb, &ops);
		wc = naive_cigar(ops);
		free(ops);
	} else if (naive == 1) want = naive_lcs_len(a, la, b, lb);
	else want = plain_lcs(a, la, b, lb);
	for (int l = all_levels ? 0 : nlv - 1; l < nlv; l++)
		for (int th = 1; th <= max_threads; th++) {
			lcs_opt_t o;
			lcs_opt_init(&o);
			o.simd = lv[l];
			o.n_threads = th;
			int64_t len;
			CHECK(lcs_pair(&o, a, la, b, lb, &len, 0) == RK_OK && len == want, "%s level %d threads %d: lcs %lld, want %lld",
			      what, lv[l], th, (long long)len, (long long)want);
			o.path = 1;
			aln_path_t p = { 0 };
			CHECK(lcs_pair(&o, a, la, b, lb, &len, &p) == RK_OK, "rc");
			int64_t m = dt_replay(p.run, p.n, a, la, b, lb, 1);
			CHECK(len == want && m == want, "%s level %d threads %d: path lcs %lld, replayed %lld, want %lld", what, lv[l],
			      th, (long long)len, (long long)m, (long long)want);
			char *c = cigar_of(&p);
			if (wc) CHECK(!strcmp(c, wc), "%s level %d threads %d: not the naive canonical path", what, lv[l], th);
			if (!first) first = c;
			else {
				CHECK(!strcmp(c, first), "%s level %d threads %d: path differs from the first one", what, lv[l], th);
				free(c);
			}
			aln_path_free(&p);
		}
	fprintf(stderr, "test_lcs_long: %-28s la %8lld lb %8lld lcs %lld\n", what, (long long)la, (long long)lb, (long long)want);
	free(first);
	free(wc);
}

/* the generated pairs (no data needed) */
static void synthetic(char *a, char *b)
{
	/* the independent routine against the naive DP first */
	for (int it = 0; it < 20; it++) {
		int64_t la = tu_range(0, 300), lb = tu_range(0, 300);
		dt_random(a, la, (int)tu_range(2, 4), it % 2 ? 10 : 0);
		dt_random(b, lb, (int)tu_range(2, 4), it % 2 ? 10 : 0);
		CHECK(plain_lcs(a, la, b, lb) == naive_lcs_len(a, la, b, lb), "plain_lcs disagrees with the naive DP");
	}
	for (int it = 0; it < 6; it++) {
		int64_t la = tu_range(1000, 4000), lb;
		dt_random(a, la, 4, it % 2 ? 3 : 0);
		if (it < 2) { lb = tu_range(1000, 4000); dt_random(b, lb, 4, 0); }
		else lb = dt_mutate(a, la, b, it % 3, it < 4 ? 1 : 10, 4, 0);
		check_long(it < 2 ? "random <= 4kb" : "related <= 4kb", a, la, b, lb, 2, 1, 3);
	}
	int64_t la = 20000, lb = 20000;
	dt_random(a, la, 4, 0);
	lb = dt_mutate(a, la, b, 1, 5, 4, 0);
	check_long("20kb 5% (naive length)", a, la, b, lb, 1, 1, 2);
	la = lb = 200000;
	dt_random(a, la, 4, 0);
	dt_random(b, lb, 4, 0);
	check_long("random 200kb", a, la, b, lb, 0, 0, 2);
	la = 200000;
	dt_random(a, la, 4, 0);
	lb = dt_mutate(a, la, b, 1, 1, 4, 0);
	check_long("200kb 1% + long indels", a, la, b, lb, 0, 1, 2);
}

int main(int argc, char **argv)
{
	nlv = dt_levels(lv, aln_simd_level(-1));
	/* --real DATA N: the real pairs alone (ctest unit_lcs_long_real), 77 (skipped) without them */
	const int real_only = argc > 1 && !strcmp(argv[1], "--real");
	if (real_only) { argc--; argv++; }
	const char *data = argc > 1 ? argv[1] : 0;
	int nreal = argc > 2 ? atoi(argv[2]) : 2;
	char *a = malloc(500000), *b = malloc(1100000);
	if (!real_only) synthetic(a, b);
	free(a);
	free(b);
	if (data && nreal > 0) {
		char path[4096], **seq;
		int64_t *len;
		snprintf(path, sizeof path, "%s/mers46_parsnp_core.fasta", data);
		int n = dt_read_fasta(path, &seq, &len);
		if (!n) {
			fprintf(stderr, "test_lcs_long: SKIPPED: real pairs (MERS-CoV genomes): %s not readable (../shared/data not found)\n", path);
			if (real_only) return tu_fail ? 1 : 77;
		}
		for (int q = 0; q < nreal && n > 1; q++) {
			int i = (q * 11) % n, j = (q * 5 + n - 1) % n;
			if (i == j) j = (j + 1) % n;
			char what[64];
			snprintf(what, sizeof what, "MERS %d vs %d", i, j);
			check_long(what, seq[i], len[i], seq[j], len[j], 0, q == 0, 2);
		}
		for (int i = 0; i < n; i++) free(seq[i]);
		if (n) { free(seq); free(len); }
	}
	return tu_done("test_lcs_long");
}
