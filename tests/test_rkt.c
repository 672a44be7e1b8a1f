/* Library-level Rkt-LCS against the brute force: the pair kernel at every SIMD level (and in
 * the 32-bit lanes of reads over 65,000 bp, forced on short reads too), the
 * paper's Table 1, 300+ random read sets (threads, rank splits), long reads. */
#include <string.h>
#include "testutil.h"
#include "brute.h"
#include "io/rio.h"
#include "algo/rkt.h"

static int levels[4], n_levels;

static void set_level(int l)
{
	rk_tune.simd = l;
}

static void build(rio_reads_t *r, int m, char **raw)
{
	memset(r, 0, sizeof *r);
	for (int i = 0; i < m; i++) {
		char name[32], *s = strdup(raw[i]);
		tu_norm(s);
		snprintf(name, sizeof name, "r%d", i);
		rio_reads_push(r, name, s, strlen(s));
		free(s);
	}
}

static void test_table1(void)
{
	const uint8_t a[] = { 0, 1, 2, 3, 0 }, b[] = { 0, 1, 2, 0, 1, 0 };
	uint8_t pa[5 + RKT_PAD], pb[6 + RKT_PAD];
	memset(pa, 0xff, sizeof pa); memset(pb, 0xff, sizeof pb);
	memcpy(pa, a, 5); memcpy(pb, b, 6);
	const int32_t want[5] = { 4, 3, 2, 2, 1 };
	for (int l = 0; l < n_levels; l++) {
		set_level(levels[l]);
		rkt_ws_t *w = rkt_ws_init(6);
		int32_t ma[6], mb[6];
		rkt_maxlcp_pair(w, pa, 5, pb, 6, 1, ma, mb);
		for (int x = 0; x < 5; x++) CHECK(ma[x] == want[x], "Table 1 level %d: MaxLCP[%d] = %d, want %d", levels[l], x, ma[x], want[x]);
		rkt_ws_free(w);
	}
}

static void test_pairs(int n)
{
	char ra[400], rb[400];
	int32_t ma[400], mb[400];
	for (int it = 0; it < n; it++) {
		long la = tu_range(1, it % 10 == 0 ? 300 : 80), lb = tu_range(1, it % 7 == 0 ? 300 : 80);
		int alpha = (int)tu_range(1, 4);
		tu_read(ra, la, alpha, (int)tu_range(0, 10)); tu_read(rb, lb, alpha, (int)tu_range(0, 10));
		long k = tu_range(0, 12);
		if (it % 9 == 0) k = tu_range(0, 400);
		char *p[2] = { ra, rb };
		rio_reads_t r; rkt_set_t s;
		build(&r, 2, p);
		rkt_set_init(&s, &r);
		/* every level, and each SIMD level again with the 32-bit lanes of long reads forced */
		for (int v = 0; v < 2 * n_levels - 1; v++) {
			int l = v < n_levels ? v : v - n_levels + 1, l32 = v >= n_levels;
			set_level(levels[l]);
			rk_tune.rkt_lanes32 = l32;
			rkt_ws_t *w = rkt_ws_init(s.max_len);
			rk_tune.rkt_lanes32 = 0;
			rkt_maxlcp_pair(w, s.code + s.off[0], s.len[0], s.code + s.off[1], s.len[1], k, ma, mb);
			for (long x = 0; x < la; x++) {
				long want = bf_maxlcp(rio_seq(&r, 0), la, x, rio_seq(&r, 1), lb, k);
				CHECK(ma[x] == want, "pair %d level %d%s la %ld lb %ld k %ld: ma[%ld] = %d, want %ld", it, levels[l],
				      l32 ? " (32-bit lanes)" : "", la, lb, k, x, ma[x], want);
			}
			for (long y = 0; y < lb; y++) {
				long want = bf_maxlcp(rio_seq(&r, 1), lb, y, rio_seq(&r, 0), la, k);
				CHECK(mb[y] == want, "pair %d level %d%s: mb[%ld] = %d, want %ld", it, levels[l], l32 ? " (32-bit lanes)" : "",
				      y, mb[y], want);
			}
			rkt_ws_free(w);
		}
		rkt_set_free(&s); rio_reads_free(&r);
	}
}

static void compare_sets(rio_reads_t *r, long k, long t, long tau, const char *what)
{
	int m = (int)r->n;
	char **s = malloc(sizeof(char *) * m);
	long *len = malloc(sizeof(long) * m);
	for (int i = 0; i < m; i++) { s[i] = (char *)rio_seq(r, i); len[i] = rio_len(r, i); }
	bf_cand_t *want = malloc(sizeof(bf_cand_t) * m);
	bf_candidates(m, s, len, k, t, tau, want);
	rkt_set_t set;
	rkt_set_init(&set, r);
	rkt_cand_t *got = malloc(sizeof(rkt_cand_t) * m);
	for (int l = 0; l < n_levels; l++) {
		set_level(levels[l]);
		/* variant 5: 3 threads sharing every pair (the 32-bit lanes forced), SIMD levels only */
		for (int variant = 0; variant < (l > 0 ? 6 : 5); variant++) {
			rkt_opt_t o;
			rkt_opt_init(&o);
			o.k = k; o.t = t; o.tau = tau;
			o.n_threads = variant == 1 || variant == 3 || variant == 5 ? 3 : 1;
			rk_tune.rkt_shared_counters = variant == 3;  /* atomics instead of per-thread counters */
			rk_tune.rkt_lanes32 = variant == 5;
			/* variant 2: split into up to 4 "ranks" */
			int parts = variant == 2 ? (int)tu_range(2, 4) : 1;
			int64_t lo = 0;
			if (variant == 4) {
				/* several CPU ranks sharing out the pairs: each share's counters of all reads,
				 * summed, candidates of random rank ranges from the sums */
				const int ns = (int)tu_range(2, 4);
				uint32_t *sum = 0;
				uint64_t nsum = 0;
				o.n_threads = (int)tu_range(1, 3);
				for (int sh = 0; sh < ns; sh++) {
					uint32_t *c = 0;
					uint64_t nc = 0;
					CHECK(rkt_supports(&o, &set, sh, ns, &c, &nc) == RK_OK, "%s: rkt_supports failed", what);
					uint64_t all_off;
					rkt_support_offs(&set, tau, &(int64_t){ m }, 1, &all_off);
					CHECK(nc == all_off, "%s: %llu counters", what, (unsigned long long)nc);
					if (!sum) { sum = c; nsum = nc; continue; }
					for (uint64_t q = 0; q < nc && q < nsum; q++) sum[q] += c[q];
					free(c);
				}
				for (int64_t hi; lo < m; lo = hi) {
					hi = lo + tu_range(1, m - lo);
					CHECK(rkt_cands_from_supports(&o, &set, sum, lo, hi, got + lo) == RK_OK, "%s: cands failed", what);
				}
				free(sum);
				parts = 0;
			}
			for (int p = 0; p < parts; p++) {
				int64_t hi = p == parts - 1 ? m : lo + tu_range(0, m - lo);
				if (rkt_candidates(&o, &set, lo, hi, got + lo) != RK_OK) CHECK(0, "%s: rkt_candidates failed", what);
				lo = hi;
			}
			for (int i = 0; i < m; i++)
				CHECK(got[i].pos == want[i].pos && got[i].len == want[i].len && got[i].support == want[i].support,
				      "%s (k %ld t %ld tau %ld, level %d, variant %d) read %d: got (%lld,%lld,%lld) want (%ld,%ld,%ld)",
				      what, k, t, tau, levels[l], variant, i, (long long)got[i].pos, (long long)got[i].len,
				      (long long)got[i].support, want[i].pos, want[i].len, want[i].support);
			CHECK(rkt_winner(got, m) == bf_winner(m, want), "%s: winner differs", what);
		}
		rk_tune.rkt_lanes32 = 0;
	}
	free(got); free(want); free(s); free(len);
	rkt_set_free(&set);
}

static void test_random_sets(int n)
{
	char *raw[12];
	for (int i = 0; i < 12; i++) raw[i] = malloc(64);
	for (int it = 0; it < n; it++) {
		int m = (int)tu_range(2, 12), alpha = (int)tu_range(2, 4), punk = (int)tu_range(0, 3) * 3;
		int mixed = it % 3 == 0;
		long base = tu_range(1, 40);
		tu_plant_set(raw, m, alpha, punk, mixed, base);
		long k = tu_range(0, 4), t = tu_range(1, m), tau = tu_range(1, 20);
		if (it % 10 == 0) k = tu_range(5, 60);
		if (it % 11 == 0) tau = tu_range(20, 60);
		if (it % 13 == 0) t = m;  /* more than m - 1 other reads: never a candidate */
		rio_reads_t r;
		build(&r, m, raw);
		char what[64];
		snprintf(what, sizeof what, "random set %d", it);
		compare_sets(&r, k, t, tau, what);
		rio_reads_free(&r);
	}
	for (int i = 0; i < 12; i++) free(raw[i]);
}

/* Long reads: scalar kernel and raw-value counters (no len^2 histogram). */
static void test_long_reads(void)
{
	/* 10 kb, mixed with short reads: SIMD pairs and scalar pairs in one run */
	long L[5] = { 10000, 3000, 6000, 60, 200 };
	char *raw[5];
	for (int i = 0; i < 5; i++) { raw[i] = malloc(L[i] + 1); tu_read(raw[i], L[i], 4, 1); }
	memcpy(raw[3] + 5, raw[0] + 5100, 50);
	memcpy(raw[4] + 20, raw[0] + 5050, 150);
	memcpy(raw[1] + 100, raw[0] + 5000, 700);
	memcpy(raw[2] + 3000, raw[0] + 5100, 900);
	raw[2][3400] = raw[2][3400] == 'A' ? 'C' : 'A';
	rio_reads_t r;
	build(&r, 5, raw);
	compare_sets(&r, 2, 2, 100, "long reads");
	compare_sets(&r, 1, 3, 30, "long and short reads");
	rio_reads_free(&r);
	for (int i = 0; i < 5; i++) free(raw[i]);
}

/* Reads of 256 bp and more take the 16-bit SIMD sweep: every level against the scalar one
 * (itself checked against the brute force above) on pairs of 200-3,000 bp, k up to 300
 * (k >= 256 falls back to the scalar sweep). Run before the short sets so that the
 * brute-force sequence of the other tests is unchanged. */
static void test_long_pairs(int n)
{
	char *ra = malloc(3100), *rb = malloc(3100);
	int32_t *ma = malloc(sizeof(int32_t) * 3100), *mb = malloc(sizeof(int32_t) * 3100);
	int32_t *wa = malloc(sizeof(int32_t) * 3100), *wb = malloc(sizeof(int32_t) * 3100);
	uint64_t saved = tu_state;
	tu_state = 0x5eed5eed5eedull;
	for (int it = 0; it < n; it++) {
		long la = tu_range(200, it % 4 == 0 ? 3000 : 800), lb = tu_range(200, it % 3 == 0 ? 3000 : 800);
		int alpha = (int)tu_range(2, 4);
		tu_read(ra, la, alpha, (int)tu_range(0, 6));
		tu_read(rb, lb, alpha, (int)tu_range(0, 6));
		if (it % 2) {  /* a shared piece, so that long LCPs occur */
			long len = tu_range(50, la < lb ? la : lb);
			memcpy(rb + tu_range(0, lb - len), ra + tu_range(0, la - len), (size_t)len);
		}
		long k = it % 7 == 0 ? tu_range(200, 300) : tu_range(0, 12);
		char *p[2] = { ra, rb };
		rio_reads_t r; rkt_set_t s;
		build(&r, 2, p);
		rkt_set_init(&s, &r);
		set_level(0);
		rkt_ws_t *w0 = rkt_ws_init(s.max_len);
		rkt_maxlcp_pair(w0, s.code + s.off[0], s.len[0], s.code + s.off[1], s.len[1], k, wa, wb);
		rkt_ws_free(w0);
		for (int l = 1; l < n_levels; l++) {
			set_level(levels[l]);
			rkt_ws_t *w = rkt_ws_init(s.max_len);
			rkt_maxlcp_pair(w, s.code + s.off[0], s.len[0], s.code + s.off[1], s.len[1], k, ma, mb);
			int bad = 0;
			for (long x = 0; x < la; x++) bad += ma[x] != wa[x];
			for (long y = 0; y < lb; y++) bad += mb[y] != wb[y];
			CHECK(!bad, "long pair %d (%ld x %ld, k %ld) level %d: %d values differ from the scalar sweep", it, la, lb, k, levels[l], bad);
			rkt_ws_free(w);
		}
		rkt_set_free(&s); rio_reads_free(&r);
	}
	set_level(-1);
	tu_state = saved;
	free(ra); free(rb); free(ma); free(mb); free(wa); free(wb);
}

/* ---- 32-bit lanes (reads over 65,000 bp; rk_tune.rkt_lanes32 forces them on any pair) ---- */

/* MaxLCP of the set's reads 0 and 1 at a level, 32-bit lanes forced or not. */
static void run_pair(int level, int l32, const rkt_set_t *s, long k, int32_t *ma, int32_t *mb)
{
	set_level(level);
	rk_tune.rkt_lanes32 = l32;
	rkt_ws_t *w = rkt_ws_init(s->max_len);
	rk_tune.rkt_lanes32 = 0;
	CHECK(w != 0, "rkt_ws_init(%d) failed", s->max_len);
	if (w) rkt_maxlcp_pair(w, s->code + s->off[0], s->len[0], s->code + s->off[1], s->len[1], k, ma, mb);
	rkt_ws_free(w);
}

/* Entries where x and y differ; *first the first of them. */
static long n_diff(const int32_t *x, const int32_t *y, long n, long *first)
{
	long bad = 0;
	*first = -1;
	for (long i = 0; i < n; i++)
		if (x[i] != y[i] && !bad++) *first = i;
	return bad;
}

/* Adversarial reads on top of tu_read's: copies with a few substitutions, short periods
 * repeated (many long LCPs on many diagonals), runs of unknown symbols. */
static void mutate(char *dst, const char *src, long n, int subs)
{
	memcpy(dst, src, (size_t)n);
	dst[n] = 0;
	for (int i = 0; i < subs && n > 0; i++) {
		long p = tu_range(0, n - 1);
		dst[p] = dst[p] == 'A' ? 'C' : 'A';
	}
}

static void repeat(char *raw, long from, long len, int period)
{
	for (long p = from + period; p < from + len; p++) raw[p] = raw[p - period];
	if (tu_range(0, 1)) raw[from + tu_range(0, len - 1)] = 'G';  /* one error in the repeat */
}

static void unknown_run(char *raw, long n)
{
	long len = tu_range(1, n < 300 ? n : 300), from = tu_range(0, n - len);
	memset(raw + from, 'N', (size_t)len);
}

/* Two random reads of lengths la, lb (raw; alphabet 2-4, some unknown symbols), made
 * adversarial by `kind`: 0 random, 1 sharing a piece, 2 b a copy of a's start with a few
 * substitutions, 3 a repeat in each and a shared piece, 4 runs of unknown symbols too. */
static void make_pair(char *ra, long la, char *rb, long lb, int kind)
{
	int alpha = (int)tu_range(2, 4);
	tu_read(ra, la, alpha, (int)tu_range(0, 3));
	tu_read(rb, lb, alpha, (int)tu_range(0, 3));
	if (kind == 2) {
		long n = la < lb ? la : lb;
		mutate(rb, ra, n, (int)tu_range(0, 6));
		if (n < lb) tu_read(rb + n, lb - n, alpha, 1);
	}
	if (kind == 3) {
		long len = tu_range(1, (la < lb ? la : lb) / 2 + 1);
		if (len > 2000) len = tu_range(1000, 2000);  /* the brute force pays len^2 per position in it */
		repeat(ra, tu_range(0, la - len), len, (int)tu_range(1, 12));
		repeat(rb, tu_range(0, lb - len), len, (int)tu_range(1, 12));
	}
	if (kind == 1 || kind >= 3) {
		long len = tu_range(1, la < lb ? la : lb);
		memcpy(rb + tu_range(0, lb - len), ra + tu_range(0, la - len), (size_t)len);
	}
	if (kind == 4) { unknown_run(ra, la); unknown_run(rb, lb); }
}

/* The 32-bit lanes forced on pairs of 1-3,000 bp, every SIMD level: against the scalar
 * sweep (checked against the brute force above) and against the byte / 16-bit sweep those
 * pairs take otherwise; k up to 255 (larger k goes to the scalar sweep). Own seed, as
 * test_long_pairs. */
static void test_lanes32_pairs(int n)
{
	const long M = 3100;
	char *ra = malloc(M), *rb = malloc(M);
	/* MaxLCP of a and b: 32-bit lanes (m), scalar (w), byte / 16-bit lanes (h) */
	int32_t *m0 = malloc(sizeof(int32_t) * 6 * M), *m1 = m0 + M, *w0 = m1 + M, *w1 = w0 + M, *h0 = w1 + M, *h1 = h0 + M;
	uint64_t saved = tu_state;
	tu_state = 0x3232323232ull;
	for (int it = 0; it < n; it++) {
		long hi = it % 3 == 0 ? 3000 : it % 3 == 1 ? 300 : 40;
		long la = tu_range(1, hi), lb = tu_range(1, it % 4 == 0 ? 3000 : hi), fa, fb, ba, bb;
		make_pair(ra, la, rb, lb, it % 5);
		long k = it % 6 == 0 ? tu_range(13, 255) : tu_range(0, 12);
		char *p[2] = { ra, rb };
		rio_reads_t r; rkt_set_t s;
		build(&r, 2, p);
		rkt_set_init(&s, &r);
		run_pair(0, 0, &s, k, w0, w1);
		for (int l = 1; l < n_levels; l++) {
			run_pair(levels[l], 1, &s, k, m0, m1);
			ba = n_diff(m0, w0, la, &fa); bb = n_diff(m1, w1, lb, &fb);
			CHECK(!ba && !bb, "32-bit lanes, pair %d (%ld x %ld, kind %d, k %ld) level %d: %ld + %ld values differ from the "
			      "scalar sweep (first at a[%ld], b[%ld])", it, la, lb, it % 5, k, levels[l], ba, bb, fa, fb);
			run_pair(levels[l], 0, &s, k, h0, h1);
			ba = n_diff(m0, h0, la, &fa); bb = n_diff(m1, h1, lb, &fb);
			CHECK(!ba && !bb, "32-bit lanes, pair %d (%ld x %ld, k %ld) level %d: %ld + %ld values differ from the %s sweep",
			      it, la, lb, k, levels[l], ba, bb, la <= 255 && lb <= 255 ? "byte" : "16-bit");
		}
		rkt_set_free(&s); rio_reads_free(&r);
	}
	set_level(-1);
	tu_state = saved;
	free(ra); free(rb); free(m0);
}

/* Reads over 65,000 bp take the 32-bit lanes without forcing. Against the scalar sweep,
 * every value, where one read is short (the scalar sweep costs la x lb); where both are long
 * against the brute force at sampled positions (both ends, the 16-bit limits, vector and
 * block edges, random ones), and every value of one SIMD level against the other. */
static void check_sampled(const char *ra, long la, const char *rb, long lb, long k, const int32_t *ma, const char *what)
{
	static const long at[] = { 0, 1, 2, 15, 16, 17, 31, 32, 33, 63, 64, 65, 64999, 65000, 65001, 65534, 65535, 65536 };
	for (int i = 0; i < 100; i++) {
		long x = i < 18 ? at[i] : i < 42 ? la - 1 - (i - 18) : tu_range(0, la - 1);
		if (x >= la) continue;
		long want = bf_maxlcp(ra, la, x, rb, lb, k);
		CHECK(ma[x] == want, "%s (%ld x %ld, k %ld): MaxLCP[%ld] = %d, brute force %ld", what, la, lb, k, x, ma[x], want);
	}
}

static void test_lanes32_long(void)
{
	const long M = 140000;
	char *ra = malloc(M + 1), *rb = malloc(M + 1);
	int32_t *m0 = malloc(sizeof(int32_t) * 4 * M), *m1 = m0 + M, *w0 = m1 + M, *w1 = w0 + M;
	uint64_t saved = tu_state;
	tu_state = 0x6500065000ull;
	for (int it = 0; it < 9; it++) {
		/* 0-5: one read over 65,000 bp, one of 1-1,000 (either order), every kind; 6-8: both
		 * long (near copies, repeats, unknown runs), the last one twice as long as the other */
		int both = it >= 6, kind = both ? it - 4 : it % 5;
		long la = it == 8 ? tu_range(120000, 135000) : tu_range(65001, 70000), lb = both ? tu_range(65001, 70000) : tu_range(1, 1000), k = it % 4;
		if (it % 2) { long t = la; la = lb; lb = t; }
		make_pair(ra, la, rb, lb, kind);
		char *p[2] = { ra, rb }, what[96];
		rio_reads_t r; rkt_set_t s;
		build(&r, 2, p);
		rkt_set_init(&s, &r);
		if (!both) run_pair(0, 0, &s, k, w0, w1);
		for (int l = 1; l < n_levels; l++) {
			long fa, fb, ba, bb;
			run_pair(levels[l], 0, &s, k, m0, m1);
			snprintf(what, sizeof what, "long pair %d (kind %d) level %d", it, kind, levels[l]);
			if (!both || l > 1) {  /* against the scalar sweep, or level 2's values in w */
				ba = n_diff(m0, w0, la, &fa); bb = n_diff(m1, w1, lb, &fb);
				CHECK(!ba && !bb, "%s (%ld x %ld, k %ld): %ld + %ld values differ from the %s (first at a[%ld], b[%ld])",
				      what, la, lb, k, ba, bb, both ? "other level" : "scalar sweep", fa, fb);
			}
			if (both && l == 1) {  /* the brute force once, then the other level against this one */
				check_sampled(rio_seq(&r, 0), la, rio_seq(&r, 1), lb, k, m0, what);
				check_sampled(rio_seq(&r, 1), lb, rio_seq(&r, 0), la, k, m1, what);
			}
			if (both) {
				memcpy(w0, m0, sizeof(int32_t) * (size_t)la);
				memcpy(w1, m1, sizeof(int32_t) * (size_t)lb);
			}
		}
		if (n_levels > 1 && (both || it % 2)) {  /* shared by 2-3 threads (rkt_count), best level */
			int n = 2 + it % 2;
			rkt_ws_t *ws[3];
			set_level(levels[n_levels - 1]);
			for (int t = 0; t < n; t++) ws[t] = rkt_ws_init(s.max_len);
			CHECK(rkt_pair_shared(ws[0], (int32_t)la, (int32_t)lb, k) == (la * lb >= (1l << 28)), "long pair %d: shared %d",
			      it, rkt_pair_shared(ws[0], (int32_t)la, (int32_t)lb, k));
			for (int t = n - 1; t >= 0; t--)
				rkt_maxlcp_pair_part(ws[t], s.code + s.off[0], s.len[0], s.code + s.off[1], s.len[1], k, t, n);
			rkt_maxlcp_pair_merge(ws, n, s.len[0], s.len[1], w0, w1);
			long fa, fb, ba = n_diff(w0, m0, la, &fa), bb = n_diff(w1, m1, lb, &fb);
			CHECK(!ba && !bb, "long pair %d in %d parts: %ld + %ld values differ from one part (first at a[%ld], b[%ld])", it, n,
			      ba, bb, fa, fb);
			for (int t = 0; t < n; t++) rkt_ws_free(ws[t]);
			set_level(-1);
		}
		rkt_set_free(&s); rio_reads_free(&r);
	}
	set_level(-1);
	tu_state = saved;
	free(ra); free(rb); free(m0);
}

int main(int argc, char **argv)
{
	int n_sets = argc > 1 ? atoi(argv[1]) : 320;
	if (argc > 2) tu_state = strtoull(argv[2], 0, 10);
	levels[n_levels++] = 0;
	__builtin_cpu_init();
	if (__builtin_cpu_supports("avx2")) levels[n_levels++] = 2;
	if (__builtin_cpu_supports("avx512bw")) levels[n_levels++] = 3;
	fprintf(stderr, "test_rkt: seed %llu, %d SIMD level(s)\n", (unsigned long long)tu_state, n_levels);
	test_long_pairs(60);
	test_lanes32_pairs(400);
	test_lanes32_long();
	test_table1();
	test_pairs(600);
	test_random_sets(n_sets);
	test_long_reads();
	return tu_done("test_rkt");
}
