/* lev mode, long pairs: 10 kb - 1 Mb, random and 1% divergent, and the 46 MERS genomes of
 * shared/data, against edlib (distance) and path replay (a valid alignment of that cost),
 * the naive DP's canonical CIGAR up to 4 kb, the same CIGAR at every SIMD level and thread
 * count. Needs edlib (exit 77 without it).
 * Usage: test_lev_long [--real] [SHARED_DATA_DIR [N_REAL_PAIRS]]   (default 3 real pairs) */
#include <string.h>
#include "dp_testutil.h"
#include "naive_dp.h"
#include "algo/lev.h"
#ifdef HAVE_EDLIB
#include <edlib.h>
#endif

#ifndef HAVE_EDLIB
int main(void)
{
	fprintf(stderr, "test_lev_long: SKIPPED: built without edlib (Debian: libedlib-dev)\n");
	return 77;
}
#else
static int lv[4], nlv;

static int64_t edlib_dist(const char *a, int64_t la, const char *b, int64_t lb)
{
	EdlibAlignResult r = edlibAlign(a, (int)la, b, (int)lb, edlibNewAlignConfig(-1, EDLIB_MODE_NW, EDLIB_TASK_DISTANCE, 0, 0));
	int64_t d = r.editDistance;
	edlibFreeAlignResult(r);
	return d;
}

static char *cigar_of(const aln_path_t *p)
{
	int64_t n = aln_path_cigar(p, 0, 0);
	char *s = malloc((size_t)n + 1);
	aln_path_cigar(p, s, n + 1);
	return s;
}

/* distance and path at the given levels/threads; all paths must be the same CIGAR */
static void check_long(const char *what, const char *a, int64_t la, const char *b, int64_t lb, int all_levels,
                       int max_threads, int naive)
{
	int64_t want = edlib_dist(a, la, b, lb);
	char *first = 0, *wc = 0;
	if (naive) {
		char *ops;
		int64_t nd = naive_lev(a, la, b, lb, &ops);
		CHECK(nd == want, "%s: naive %lld, edlib %lld", what, (long long)nd, (long long)want);
		wc = naive_cigar(ops);
		free(ops);
	}
	for (int l = all_levels ? 0 : nlv - 1; l < nlv; l++)
		for (int th = 1; th <= max_threads; th++) {
			lev_opt_t o;
			lev_opt_init(&o);
			o.simd = lv[l];
			o.n_threads = th;
			int64_t d;
			CHECK(lev_pair(&o, a, la, b, lb, &d, 0) == RK_OK && d == want, "%s level %d threads %d: distance %lld, edlib %lld",
			      what, lv[l], th, (long long)d, (long long)want);
			o.path = 1;
			aln_path_t p = { 0 };
			CHECK(lev_pair(&o, a, la, b, lb, &d, &p) == RK_OK, "rc");
			int64_t rc = dt_replay(p.run, p.n, a, la, b, lb, 0);
			CHECK(d == want && rc == want, "%s level %d threads %d: path distance %lld, replayed %lld, edlib %lld", what,
			      lv[l], th, (long long)d, (long long)rc, (long long)want);
			char *c = cigar_of(&p);
			if (wc) CHECK(!strcmp(c, wc), "%s level %d threads %d: not the naive canonical path", what, lv[l], th);
			if (!first) first = c;
			else {
				CHECK(!strcmp(c, first), "%s level %d threads %d: path differs from the first one", what, lv[l], th);
				free(c);
			}
			aln_path_free(&p);
		}
	/* -k at the boundary */
	lev_opt_t o;
	lev_opt_init(&o);
	int64_t d;
	o.k = want;
	lev_pair(&o, a, la, b, lb, &d, 0);
	CHECK(d == want, "%s: -k %lld gives %lld", what, (long long)want, (long long)d);
	if (want > 0) {
		o.k = want - 1;
		lev_pair(&o, a, la, b, lb, &d, 0);
		CHECK(d == -1, "%s: -k %lld gives %lld", what, (long long)(want - 1), (long long)d);
	}
	fprintf(stderr, "test_lev_long: %-28s la %8lld lb %8lld distance %lld\n", what, (long long)la, (long long)lb, (long long)want);
	free(first);
	free(wc);
}

/* the generated pairs (no data needed) */
static void synthetic(char *a, char *b)
{
	/* up to 4 kb: the naive canonical path too */
	for (int it = 0; it < 6; it++) {
		int64_t la = tu_range(1000, 4000), lb;
		dt_random(a, la, 4, it % 2 ? 3 : 0);
		if (it < 2) { lb = tu_range(1000, 4000); dt_random(b, lb, 4, 0); }
		else lb = dt_mutate(a, la, b, it % 3, it < 4 ? 1 : 10, 4, 0);
		check_long(it < 2 ? "random <= 4kb" : "related <= 4kb", a, la, b, lb, 1, 3, 1);
	}
	int64_t la = 10000, lb = 10000;
	dt_random(a, la, 4, 0);
	dt_random(b, lb, 4, 0);
	check_long("random 10kb", a, la, b, lb, 1, 3, 0);
	la = lb = 40000;
	dt_random(a, la, 4, 0);
	dt_random(b, lb, 4, 0);
	check_long("random 40kb", a, la, b, lb, 0, 3, 0);
	la = 100000;
	dt_random(a, la, 4, 0);
	lb = dt_mutate(a, la, b, 1, 1, 4, 0);
	check_long("100kb 1% + long indels", a, la, b, lb, 1, 2, 0);
	la = 1000000;
	dt_random(a, la, 4, 0);
	lb = dt_mutate(a, la, b, 0, 1, 4, 0);
	check_long("1Mb 1%", a, la, b, lb, 0, 2, 0);
}

int main(int argc, char **argv)
{
	nlv = dt_levels(lv, aln_simd_level(-1));
	/* --real DATA N: the real pairs alone (ctest unit_lev_long_real), 77 (skipped) without them */
	const int real_only = argc > 1 && !strcmp(argv[1], "--real");
	if (real_only) { argc--; argv++; }
	const char *data = argc > 1 ? argv[1] : 0;
	int nreal = argc > 2 ? atoi(argv[2]) : 3;
	char *a = malloc(2100000), *b = malloc(4300000);
	if (!real_only) synthetic(a, b);
	free(a);
	free(b);
	if (data && nreal > 0) {
		char path[4096], **seq;
		int64_t *len;
		snprintf(path, sizeof path, "%s/mers46_parsnp_core.fasta", data);
		int n = dt_read_fasta(path, &seq, &len);
		if (!n) {
			fprintf(stderr, "test_lev_long: SKIPPED: real pairs (MERS-CoV genomes): %s not readable (../shared/data not found)\n", path);
			if (real_only) return tu_fail ? 1 : 77;
		}
		for (int q = 0; q < nreal && n > 1; q++) {
			int i = (q * 7) % n, j = (q * 13 + 1 + (q == 0 ? n - 2 : 0)) % n;
			if (i == j) j = (j + 1) % n;
			char what[64];
			snprintf(what, sizeof what, "MERS %d vs %d", i, j);
			check_long(what, seq[i], len[i], seq[j], len[j], q == 0, 2, 0);
		}
		for (int i = 0; i < n; i++) free(seq[i]);
		if (n) { free(seq); free(len); }
	}
	return tu_done("test_lev_long");
}
#endif
