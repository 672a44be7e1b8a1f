/* GPU lev / lcs (rgpu_lev_batch, rgpu_lcs_batch, rgpu_lev_slab, rgpu_lcs_slab) against the
 * CPU (lev_batch / lev_pair, lcs_batch / lcs_pair, lev_slab, lcs_slab): distances, lengths and
 * canonical paths must be identical, run for run.
 *
 * Sections: random short pairs (lengths 0-700, 2-4 letters plus N/IUPAC/'.', related and not,
 * with and without paths, -k around the distance); pairs sized around every routing threshold
 * and batch class (also with the thresholds lowered so that small pairs take the long kernel and
 * Hirschberg); the long kernel's pipeline under forced words per lane, few warps (wrap-around
 * rounds), 2-chunk rings and 1-word chunks; long pairs (10 kb, 100 kb, 1 Mb, random and 1%
 * divergent) with and without paths; the slab pass on blocks cut out of real DPs; a tiny
 * device-memory limit that forces chunking, and one too small for anything (RK_ERES, a message,
 * no crash); lev --all on the device (every pair of random and adversarial reads, against the CPU);
 * timings.
 *
 * Usage: test_gpu_dp [N_RANDOM [SEED]]   the test (exit 77 without CUDA or without a device)
 *        test_gpu_dp bench               the benchmark table (device kernel times)
 *        test_gpu_dp one LCS LEN DIV PATH [RW]   one timed pair (for profilers)
 *        test_gpu_dp emu [N_RANDOM]      reduced sizes, for the CPU warp emulator build
 *                                        (test_gpu_dp_emu: the kernels' logic, not their speed) */
#include "dp_testutil.h"
#include "algo/lev.h"
#include "algo/lcs.h"
#include "algo/split.h"
#include "gpu/rgpu.h"
#ifdef RKTLCS_HAVE_CUDA
#include "gpu/lev_gpu.h"
#include "gpu/lcs_gpu.h"
#include "gpu/dpg_gpu.h"

static int emu;             /* reduced sizes */
static rgpu_opt_t G0;
static int64_t n_checks;

typedef struct {
	const char *name;
	int64_t checks, fails;
	double t0;
} sect_t;
static sect_t S;

static void sect_begin(const char *name)
{
	S.name = name;
	S.checks = n_checks;
	S.fails = tu_fail;
	S.t0 = rk_realtime();
	fprintf(stderr, "-- %s\n", name);
}
/* TEST_GPU_DP_SECTIONS=pipeline,bands: only the named sections (default: all);
 * TEST_GPU_DP_VERBOSE=1: one line per comparison, before it runs (to find a hang) */
static int want(const char *key)
{
	const char *e = getenv("TEST_GPU_DP_SECTIONS");
	if (!e || !*e) return 1;
	const size_t n = strlen(key);
	for (const char *q = strstr(e, key); q; q = strstr(q + 1, key))
		if ((q == e || q[-1] == ',') && (q[n] == ',' || q[n] == 0)) return 1;
	return 0;
}
static void sect_end(void)
{
	fprintf(stderr, "   %s: %lld checks, %lld failed, %.2f s\n", S.name, (long long)(n_checks - S.checks),
	        (long long)(tu_fail - S.fails), rk_realtime() - S.t0);
}

static void tune_reset(void) { memset(&rgpu_dp_tune, 0, sizeof rgpu_dp_tune); }

static char *cigar_of(const aln_path_t *p)
{
	int64_t n = aln_path_cigar(p, 0, 0);
	char *s = malloc((size_t)n + 1);
	aln_path_cigar(p, s, n + 1);
	return s;
}

static int same_path(const aln_path_t *x, const aln_path_t *y)
{
	return x->n == y->n && (x->n == 0 || !memcmp(x->run, y->run, sizeof(uint64_t) * (size_t)x->n));
}

/* a pair: A random (or given), B related (mutated copy) or random */
static void make_pair(aln_pair_t *p, int64_t la, int64_t lb, int alpha, int punk, int related)
{
	char *a = malloc((size_t)la + 1), *b = malloc((size_t)(related ? 2 * la + 1100 : lb + 1));
	dt_random(a, la, alpha, punk);
	if (related) {
		int kind = (int)tu_range(0, 3);
		lb = dt_mutate(a, la, b, kind, (int)tu_range(1, 15), alpha, punk);
	} else {
		dt_random(b, lb, alpha, punk);
	}
	p->a = a;
	p->b = b;
	p->la = la;
	p->lb = lb;
}

static void free_pairs(aln_pair_t *p, int64_t n)
{
	for (int64_t i = 0; i < n; i++) {
		free((char *)p[i].a);
		free((char *)p[i].b);
	}
	free(p);
}

static void free_paths(aln_path_t *p, int64_t n)
{
	if (!p) return;
	for (int64_t i = 0; i < n; i++) aln_path_free(&p[i]);
	free(p);
}

/* CPU reference: batches for short pairs, one pair at a time on every thread for long ones */
static void cpu_run(int lcs, const aln_pair_t *p, int64_t n, int64_t k, int paths, int each, int64_t *v, aln_path_t *pp)
{
	if (!each) {
		if (lcs) {
			lcs_opt_t o;
			lcs_opt_init(&o);
			o.n_threads = 0;
			CHECK(lcs_batch(&o, p, n, v, pp) == RK_OK, "cpu lcs_batch: %s", rk_error());
		} else {
			lev_opt_t o;
			lev_opt_init(&o);
			o.k = k;
			o.n_threads = 0;
			CHECK(lev_batch(&o, p, n, v, pp) == RK_OK, "cpu lev_batch: %s", rk_error());
		}
		return;
	}
	for (int64_t i = 0; i < n; i++) {
		if (lcs) {
			lcs_opt_t o;
			lcs_opt_init(&o);
			o.n_threads = 0;
			o.path = paths;
			CHECK(lcs_pair(&o, p[i].a, p[i].la, p[i].b, p[i].lb, &v[i], paths ? &pp[i] : 0) == RK_OK, "cpu lcs_pair: %s", rk_error());
		} else {
			lev_opt_t o;
			lev_opt_init(&o);
			o.k = k;
			o.n_threads = 0;
			o.path = paths;
			CHECK(lev_pair(&o, p[i].a, p[i].la, p[i].b, p[i].lb, &v[i], paths ? &pp[i] : 0) == RK_OK, "cpu lev_pair: %s", rk_error());
		}
	}
}

static rk_status_t gpu_run(int lcs, const aln_pair_t *p, int64_t n, int64_t k, const rgpu_opt_t *g, int64_t *v, aln_path_t *pp,
                           rgpu_stats_t *st)
{
	if (lcs) {
		lcs_opt_t o;
		lcs_opt_init(&o);
		o.path = pp != 0;
		return rgpu_lcs_batch(&o, p, n, g, v, pp, st);
	}
	lev_opt_t o;
	lev_opt_init(&o);
	o.k = k;
	o.path = pp != 0;
	return rgpu_lev_batch(&o, p, n, g, v, pp, st);
}

/* GPU against CPU on n pairs; returns the failures */
static int64_t compare(int lcs, const aln_pair_t *p, int64_t n, int64_t k, int paths, int each, const rgpu_opt_t *g,
                       const char *what, rgpu_stats_t *sto)
{
	int64_t *vc = malloc(sizeof(int64_t) * (size_t)(n + 1)), *vg = malloc(sizeof(int64_t) * (size_t)(n + 1)), bad = 0;
	aln_path_t *pc = paths ? calloc((size_t)n + 1, sizeof(aln_path_t)) : 0, *pg = paths ? calloc((size_t)n + 1, sizeof(aln_path_t)) : 0;
	if (getenv("TEST_GPU_DP_VERBOSE"))
		fprintf(stderr, "   [%.2f s] %s: %s, %lld pairs, k %lld, paths %d\n", rk_realtime() - S.t0, what, lcs ? "lcs" : "lev",
		        (long long)n, (long long)k, paths);
	cpu_run(lcs, p, n, k, paths, each, vc, pc);
	rgpu_stats_t st;
	rk_status_t s = gpu_run(lcs, p, n, k, g ? g : &G0, vg, pg, &st);
	CHECK(s == RK_OK, "%s: GPU %s failed: %s", what, lcs ? "lcs" : "lev", rk_error());
	if (sto) *sto = st;
	if (s == RK_OK) {
		for (int64_t i = 0; i < n; i++) {
			n_checks++;
			int ok = vc[i] == vg[i] && (!paths || same_path(&pc[i], &pg[i]));
			if (!ok) {
				bad++;
				if (bad <= 5) {
					char *c1 = paths ? cigar_of(&pc[i]) : 0, *c2 = paths ? cigar_of(&pg[i]) : 0;
					CHECK(0, "%s: %s pair %lld (%lld x %lld, k %lld): cpu %lld, gpu %lld%s%.200s%s%.200s", what, lcs ? "lcs" : "lev",
					      (long long)i, (long long)p[i].la, (long long)p[i].lb, (long long)k, (long long)vc[i], (long long)vg[i],
					      paths ? "\n   cpu " : "", paths ? c1 : "", paths ? "\n   gpu " : "", paths ? c2 : "");
					free(c1);
					free(c2);
				} else {
					tu_fail++;
				}
			}
		}
	}
	free(vc);
	free(vg);
	free_paths(pc, n);
	free_paths(pg, n);
	return bad;
}

/* ---- sections ---- */

static aln_pair_t *random_pairs(int64_t n, int64_t maxlen)
{
	aln_pair_t *p = calloc((size_t)n, sizeof *p);
	for (int64_t i = 0; i < n; i++) {
		int alpha = (int)tu_range(2, 4), punk = i % 3 == 0 ? (int)tu_range(1, 25) : 0;
		int64_t la = tu_range(0, 9) == 0 ? tu_range(0, 3) : tu_range(0, maxlen), lb = tu_range(0, 9) == 0 ? tu_range(0, 3) : tu_range(0, maxlen);
		make_pair(&p[i], la, lb, alpha, punk, (int)tu_range(0, 1) && la > 0);
		if (p[i].lb > maxlen + 400) p[i].lb = maxlen + 400;
	}
	return p;
}

static void sec_random(int64_t n)
{
	sect_begin("random short pairs");
	aln_pair_t *p = random_pairs(n, 700);
	for (int lcs = 0; lcs < 2; lcs++)
		for (int paths = 0; paths < 2; paths++) compare(lcs, p, n, -1, paths, 0, 0, "random", 0);
	static const int64_t ks[] = { 0, 1, 7, 40, 150, 400 };
	for (size_t q = 0; q < sizeof ks / sizeof ks[0]; q++)
		for (int paths = 0; paths < 2; paths++) compare(0, p, n, ks[q], paths, 0, 0, "random -k", 0);
	/* -k at each pair's own distance: d - 1, d, d + 1 */
	lev_opt_t o;
	lev_opt_init(&o);
	for (int64_t i = 0; i < n && i < (emu ? 60 : 300); i++) {
		int64_t d;
		lev_pair(&o, p[i].a, p[i].la, p[i].b, p[i].lb, &d, 0);
		for (int64_t k = d - 1; k <= d + 1; k++)
			if (k >= 0) compare(0, &p[i], 1, k, (int)(i & 1), 0, 0, "-k at the distance", 0);
	}
	free_pairs(p, n);
	sect_end();
}

/* lev --mode prefix|infix (rgpu_lev_mode_batch) against the CPU's lev_batch_mode (itself
 * checked against a naive DP by test_lev_mode): distance, every end, start and path; reads
 * planted with edits in longer references, unrelated pairs, empty sides, -k */
static void sec_modes(int64_t n)
{
	sect_begin("lev prefix and infix modes");
	aln_pair_t *p = calloc((size_t)n, sizeof *p);
	for (int64_t i = 0; i < n; i++) {
		int64_t la = i % 9 == 0 ? tu_range(0, 3) : tu_range(1, emu ? 300 : 5000), pre = tu_range(0, 300), post = tu_range(0, 300);
		char *a = malloc((size_t)la + 1), *b = malloc((size_t)(2 * la + 1700));
		int alpha = (int)tu_range(1, 4);
		dt_random(a, la, alpha, 0);
		int64_t lb;
		if (i & 1) {
			dt_random(b, pre, alpha, 0);
			lb = pre + dt_mutate(a, la, b + pre, (int)tu_range(0, 3), (int)tu_range(0, 12), alpha, 0);
			dt_random(b + lb, post, alpha, 0);
			lb += post;
		} else {
			lb = i % 7 == 0 ? 0 : tu_range(1, la + 600);
			dt_random(b, lb, alpha, 0);
		}
		p[i] = (aln_pair_t){ a, b, la, lb };
	}
	for (int mode = LEV_PREFIX; mode <= LEV_INFIX; mode++)
		for (int paths = 0; paths < 2; paths++)
			for (int64_t k = -1; k <= 40; k += 41) {
				lev_opt_t o;
				lev_opt_init(&o);
				o.mode = mode; o.path = paths; o.k = k;
				int64_t *dc = calloc((size_t)n, sizeof *dc), *dg = calloc((size_t)n, sizeof *dg);
				aln_path_t *pc = calloc((size_t)n, sizeof *pc), *pg = calloc((size_t)n, sizeof *pg);
				aln_ends_t *ec = calloc((size_t)n, sizeof *ec), *eg = calloc((size_t)n, sizeof *eg);
				CHECK(lev_batch_mode(&o, p, n, dc, paths ? pc : 0, ec) == RK_OK, "cpu modes");
				rgpu_stats_t st;
				memset(&st, 0, sizeof st);
				rk_status_t s = rgpu_lev_mode_batch(&o, p, n, &G0, dg, paths ? pg : 0, eg, &st);
				CHECK(s == RK_OK, "gpu modes: %s", rk_error());
				for (int64_t i = 0; i < n && !s; i++) {
					int same = dc[i] == dg[i] && ec[i].n == eg[i].n && (!paths || (ec[i].start == eg[i].start && same_path(&pc[i], &pg[i])));
					for (int64_t q = 0; same && q < ec[i].n; q++) same = ec[i].end[q] == eg[i].end[q];
					n_checks++;
					CHECK(same, "mode %d path %d k %lld pair %lld (la %lld lb %lld): gpu %lld (%lld ends, start %lld), cpu %lld (%lld ends, start %lld)",
					      mode, paths, (long long)k, (long long)i, (long long)p[i].la, (long long)p[i].lb, (long long)dg[i], (long long)eg[i].n,
					      (long long)eg[i].start, (long long)dc[i], (long long)ec[i].n, (long long)ec[i].start);
				}
				for (int64_t i = 0; i < n; i++) aln_ends_free(&ec[i]), aln_ends_free(&eg[i]);
				free_paths(pc, n); free_paths(pg, n);
				free(dc); free(dg); free(ec); free(eg);
			}
	free_pairs(p, n);
	sect_end();
}

static void sec_thresholds(void)
{
	sect_begin("routing thresholds and batch classes");
	static const int64_t las[] = { 1, 2, 31, 32, 33, 63, 64, 65, 127, 128, 129, 255, 256, 257, 511, 512, 513, 1023, 1024, 1025,
	                               2047, 2048, 2049, 4095, 4096, 4097, 5000 };
	static const int64_t lbs[] = { 1, 2, 31, 32, 33, 64, 100, 1000, 3000 };
	const int nla = emu ? 23 : (int)(sizeof las / sizeof las[0]), nlb = (int)(sizeof lbs / sizeof lbs[0]);
	int64_t n = (int64_t)nla * nlb, m = 0;
	aln_pair_t *p = calloc((size_t)n, sizeof *p);
	for (int i = 0; i < nla; i++)
		for (int j = 0; j < nlb; j++, m++) make_pair(&p[m], las[i], lbs[j], (int)tu_range(2, 4), (int)(m % 4 == 0) * 5, 0);
	for (int lcs = 0; lcs < 2; lcs++)
		for (int paths = 0; paths < 2; paths++) compare(lcs, p, n, -1, paths, 0, 0, "thresholds", 0);
	/* lowered thresholds: the long kernel for A > 100 or more than 20000 cells, Hirschberg for
	 * paths above 3000 cells with leaves of 64 rows */
	rgpu_dp_tune.batch_max_la = 100;
	rgpu_dp_tune.long_cells = 20000;
	rgpu_dp_tune.path_cells = 3000;
	rgpu_dp_tune.leaf_rows = 64;
	rgpu_dp_tune.leaf_bytes = 4096;
	for (int lcs = 0; lcs < 2; lcs++)
		for (int paths = 0; paths < 2; paths++) compare(lcs, p, n, -1, paths, 0, 0, "lowered thresholds", 0);
	compare(0, p, n, 50, 1, 0, 0, "lowered thresholds -k 50", 0);
	tune_reset();
	free_pairs(p, n);
	/* around the default cell thresholds: la * lb just under and over 2^24 (paths) and 2^28 */
	if (!emu) {
		aln_pair_t q[4];
		make_pair(&q[0], 4096, (1 << 12) - 1, 4, 0, 0);
		make_pair(&q[1], 4096, (1 << 12) + 1, 4, 0, 0);
		make_pair(&q[2], 4096, (1 << 16), 4, 0, 0);
		make_pair(&q[3], 4096, (1 << 16) + 1, 4, 0, 0);
		for (int lcs = 0; lcs < 2; lcs++) {
			compare(lcs, q, 2, -1, 1, 0, 0, "2^24 cells", 0);
			compare(lcs, q + 2, 2, -1, 0, 0, 0, "2^28 cells", 0);
		}
		for (int i = 0; i < 4; i++) { free((char *)q[i].a); free((char *)q[i].b); }
	}
	sect_end();
}

static void sec_pipeline(void)
{
	sect_begin("long kernel pipeline: words per lane, warps, rings, chunks");
	const int64_t L = emu ? 2500 : 30000;
	aln_pair_t p[3];
	make_pair(&p[0], L, L + 17, 4, 0, 0);
	make_pair(&p[1], L, 0, 4, 2, 1);
	make_pair(&p[2], L / 3 + 5, L / 2, 2, 0, 0);
	static const struct { int rw, warps, ring, cww; } cf[] = {
		{ 1, 0, 0, 0 }, { 2, 0, 0, 0 }, { 4, 0, 0, 0 }, { 1, 1, 2, 1 }, { 1, 2, 2, 1 }, { 1, 3, 2, 3 }, { 2, 2, 3, 2 },
		{ 4, 3, 2, 1 }, { 1, 5, 2, 1 }, { 2, 7, 4, 5 },
	};
	for (size_t c = 0; c < sizeof cf / sizeof cf[0]; c++) {
		tune_reset();
		rgpu_dp_tune.long_rw = cf[c].rw;
		rgpu_dp_tune.max_warps = cf[c].warps;
		rgpu_dp_tune.ring = cf[c].ring;
		rgpu_dp_tune.chunk_words = cf[c].cww;
		rgpu_dp_tune.batch_max_la = 32;   /* everything longer than a warp's word: long kernel */
		rgpu_dp_tune.meet = (int)(c % 3) - 1;   /* values by one pass, as the rule says, by two meeting */
		char what[96];
		snprintf(what, sizeof what, "rw %d warps %d ring %d chunk %d meet %d", cf[c].rw, cf[c].warps, cf[c].ring, cf[c].cww,
		         rgpu_dp_tune.meet);
		for (int lcs = 0; lcs < 2; lcs++) {
			compare(lcs, p, 3, -1, 0, 1, 0, what, 0);
			/* paths: Hirschberg with many passes per launch (leaves of 32 rows), its levels cut
			 * by rows, by columns, or as the resident warps say */
			rgpu_dp_tune.leaf_rows = 32;
			rgpu_dp_tune.col_cut = (int)(c % 3) - 1;
			if (c < 6 || !emu) compare(lcs, p, 3, -1, 1, 1, 0, what, 0);
			rgpu_dp_tune.leaf_rows = 0;
			rgpu_dp_tune.col_cut = 0;
		}
	}
	tune_reset();
	for (int i = 0; i < 3; i++) { free((char *)p[i].a); free((char *)p[i].b); }
	sect_end();
}

static void sec_wrap(void)
{
	sect_begin("multi-pass launches with few warps");
	/* paths of a longer pair with few warps: Hirschberg levels launch many passes of 2-3 strips,
	 * so a warp's strips alternate between passes and the wrap is reused across passes while the
	 * strip that reads it may lag (the wrap's slot waits) */
	/* full size even in the emulator: 70 kb is what makes the pruned passes' strips reach past
	 * the transfer from above, which deadlocked 2 warps before the fix (about 35 s emulated) */
	aln_pair_t w;
	make_pair(&w, 70000, 0, 4, 0, 1);
	for (int warps = 2; warps <= (emu ? 2 : 4); warps++) {
		tune_reset();
		rgpu_dp_tune.long_rw = 1;
		rgpu_dp_tune.max_warps = warps;
		rgpu_dp_tune.ring = 2;
		rgpu_dp_tune.chunk_words = warps - 1;
		rgpu_dp_tune.batch_max_la = 32;
		rgpu_dp_tune.leaf_rows = 32;
		char what[64];
		snprintf(what, sizeof what, "multi-pass wrap, %d warps", warps);
		for (int lcs = 0; lcs < 2; lcs++) compare(lcs, &w, 1, -1, 1, 1, 0, what, 0);
	}
	free((char *)w.a);
	free((char *)w.b);
	tune_reset();
	sect_end();
}

/* The bound follows the alignment's drift (aln_corners): pieces of 500 rows in bands of 64,
 * B with point edits and an insertion of 300 before A's 40%, so that a cut in proportion is off
 * the alignment by more than a band from there on. The bound's band (rgpu_dp_band) must stay
 * about the pair's cost; cut in proportion it was several times that. */
static void bound_drift(void)
{
	const int64_t L = emu ? 6000 : 40000, ins = 300;
	char *a = malloc((size_t)L + 1), *b = malloc((size_t)(2 * L + 1100 + ins));
	for (int rep = 0; rep < 3; rep++) {
		dt_random(a, L, 4, 0);
		int64_t lb = dt_mutate(a, L, b, 0, rep, 4, 0);
		const int64_t at = 2 * lb / 5;
		memmove(b + at + ins, b + at, (size_t)(lb - at));
		dt_random(b + at, ins, 4, 0);
		lb += ins;
		lev_opt_t o;
		lev_opt_init(&o);
		o.n_threads = 0;
		int64_t d = 0;
		lev_pair(&o, a, L, b, lb, &d, 0);
		tune_reset();
		rgpu_dp_tune.band = 1;
		rgpu_dp_tune.band_w = 64;
		rgpu_dp_tune.probe_rows = 500;
		int64_t band[2] = { -L, lb };
		rgpu_stats_t bs;
		const rk_status_t st = rgpu_dp_band(0, &G0, a, L, b, lb, -1, band, &bs);
		CHECK(st == RK_OK, "bound of a drifting pair: %s", rk_error());
		CHECK(band[1] - band[0] <= d + d / 4 + 64, "bound of a drifting pair (%d%% edits, %lld inserted): band [%lld, %lld], cost %lld",
		      rep, (long long)ins, (long long)band[0], (long long)band[1], (long long)d);
		compare(0, &(aln_pair_t){ a, b, L, lb }, 1, -1, 1, 1, 0, "bound of a drifting pair", 0);
		n_checks++;
	}
	tune_reset();
	free(a);
	free(b);
}

/* long pairs pruned to bands: forced on small pairs, with narrow first bounds (so that the
 * pruned pass has a loose bound), long and short B, -k around the distance */
static void sec_bands(void)
{
	sect_begin("bands (pruned long passes)");
	const int64_t L = emu ? 2600 : 40000;
	aln_pair_t p[6];
	make_pair(&p[0], L, 0, 4, 0, 1);                     /* related */
	make_pair(&p[1], L, 0, 2, 3, 1);
	make_pair(&p[2], L, L + L / 7, 4, 0, 0);             /* random, B longer */
	make_pair(&p[3], L + L / 5, L / 2, 3, 0, 0);         /* random, B much shorter */
	make_pair(&p[4], L / 2 + 33, 0, 4, 0, 1);
	{                                                     /* related with a long insertion in B */
		char *a = malloc((size_t)L + 1), *b = malloc((size_t)(2 * L + 1100));
		dt_random(a, L, 4, 0);
		int64_t lb = dt_mutate(a, L, b, 0, 2, 4, 0), ins = L / 9;
		memmove(b + L / 3 + ins, b + L / 3, (size_t)(lb - L / 3));
		dt_random(b + L / 3, ins, 4, 0);
		p[5].a = a; p[5].b = b; p[5].la = L; p[5].lb = lb + ins;
	}
	static const struct { int rw, warps, ring, cww; int64_t w, probe; } cf[] = {
		{ 1, 0, 0, 0, 1, 0 }, { 2, 0, 0, 0, 16, 64 }, { 4, 0, 0, 0, 300, 0 }, { 1, 2, 2, 1, 5, 100 }, { 1, 3, 2, 2, 64, 0 },
		{ 2, 2, 3, 1, 2, 0 },
	};
	for (size_t c = 0; c < sizeof cf / sizeof cf[0]; c++) {
		tune_reset();
		rgpu_dp_tune.band = 1;
		rgpu_dp_tune.band_w = cf[c].w;
		rgpu_dp_tune.probe_rows = cf[c].probe;   /* > 0: a prefix decides whether to look for a bound */
		rgpu_dp_tune.long_rw = cf[c].rw;
		rgpu_dp_tune.max_warps = cf[c].warps;
		rgpu_dp_tune.ring = cf[c].ring;
		rgpu_dp_tune.chunk_words = cf[c].cww;
		rgpu_dp_tune.batch_max_la = 32;
		rgpu_dp_tune.col_cut = c & 1 ? 1 : 0;   /* column cuts wherever the band is full, -k and bounds included */
		rgpu_dp_tune.meet = c % 3 == 2 ? -1 : 1;   /* banded values by two passes meeting, or one */
		char what[112];
		snprintf(what, sizeof what, "band w %lld probe %lld rw %d warps %d ring %d chunk %d cut %d meet %d", (long long)cf[c].w,
		         (long long)cf[c].probe, cf[c].rw, cf[c].warps, cf[c].ring, cf[c].cww, rgpu_dp_tune.col_cut, rgpu_dp_tune.meet);
		for (int lcs = 0; lcs < 2; lcs++) {
			compare(lcs, p, 6, -1, 0, 1, 0, what, 0);
			if (c % 2 == 0 || !emu) {
				rgpu_dp_tune.leaf_rows = c & 2 ? 32 : 0;
				compare(lcs, p, 6, -1, 1, 1, 0, what, 0);
				rgpu_dp_tune.leaf_rows = 0;
			}
		}
		/* -k: a band of its own, at the distance and around it */
		lev_opt_t o;
		lev_opt_init(&o);
		o.n_threads = 0;
		for (int i = 0; i < 6; i++) {
			int64_t d;
			lev_pair(&o, p[i].a, p[i].la, p[i].b, p[i].lb, &d, 0);
			const int64_t ks[4] = { d - 1, d, d + 1, d / 2 };
			for (int q = 0; q < 4; q++)
				if (ks[q] >= 0 && (q < 3 || c == 0)) compare(0, &p[i], 1, ks[q], (int)((c + q) & 1), 1, 0, "band -k", 0);
		}
	}
	tune_reset();
	for (int i = 0; i < 6; i++) { free((char *)p[i].a); free((char *)p[i].b); }
	bound_drift();
	sect_end();
}

/* Long pair values by two passes meeting at the middle column, forced on pairs of every shape:
 * a few rows against many columns (the best crossing on the column's first or last row), two
 * or three columns, A a copy of one end of B or B of one end of A (an all-gap run on either
 * side of the cut), bands from bounds, -k about the distance. Each must count one meeting. */
static void sec_meet(int n)
{
	sect_begin("long values by two passes meeting at a column");
	static const int64_t las[] = { 1, 2, 3, 31, 32, 33, 63, 64, 65, 200, 1023, 1024, 1025, 2000 };
	static const int64_t lbs[] = { 2, 3, 4, 33, 64, 65, 300, 1500, 2600 };
	for (int i = 0; i < n; i++) {
		tune_reset();
		rgpu_dp_tune.meet = 1;
		rgpu_dp_tune.batch_max_la = 1;   /* everything of two cells or more: the long kernel */
		rgpu_dp_tune.long_cells = 1;
		const int shape = (int)tu_range(0, 4);
		int64_t la = las[tu_range(0, (int64_t)(sizeof las / sizeof las[0]) - 1)];
		int64_t lb = lbs[tu_range(0, (int64_t)(sizeof lbs / sizeof lbs[0]) - 1)];
		if (shape == 4) { la = tu_range(1, emu ? 1500 : 6000); lb = la + tu_range(-la / 4, la / 4) + 2; }
		aln_pair_t p;
		const int alpha = (int)tu_range(2, 4);
		char *a = malloc((size_t)(la + lb) + 1100), *b = malloc((size_t)(2 * (la + lb)) + 1100);
		dt_random(a, la, alpha, i % 5 == 0 ? 5 : 0);
		if (shape == 0) {                       /* unrelated */
			dt_random(b, lb, alpha, 0);
		} else if (shape == 1 || shape == 2) {  /* A inside B, at its start or its end */
			dt_random(b, lb, alpha, 0);
			const int64_t m = la < lb ? la : lb;
			memcpy(shape == 1 ? b : b + lb - m, shape == 1 ? a : a + la - m, (size_t)m);
		} else {                                /* a mutated copy */
			lb = dt_mutate(a, la, b, (int)tu_range(0, 3), (int)tu_range(1, 15), alpha, 0);
			if (lb < 2) { b[lb] = 'A'; b[lb + 1] = 'C'; lb += 2; }
		}
		p.a = a; p.b = b; p.la = la; p.lb = lb;
		if (i % 3 == 0) {   /* a bound and its band */
			rgpu_dp_tune.band = 1;
			rgpu_dp_tune.probe_rows = tu_range(16, 300);
			rgpu_dp_tune.band_w = tu_range(1, 64);
		}
		if (i % 4 == 1) rgpu_dp_tune.long_rw = 1 << tu_range(0, 2);
		char what[96];
		snprintf(what, sizeof what, "meet %lld x %lld shape %d band %d", (long long)la, (long long)lb, shape, rgpu_dp_tune.band);
		for (int lcs = 0; lcs < 2; lcs++) {
			rgpu_stats_t st;
			if (compare(lcs, &p, 1, -1, 0, 1, 0, what, &st) == 0)
				CHECK(st.n_meet == 1 || (rgpu_dp_tune.band && st.n_meet == 0), "%s %s: %lld meetings, expected one", what,
				      lcs ? "lcs" : "lev", (long long)st.n_meet);
		}
		lev_opt_t o;
		lev_opt_init(&o);
		o.n_threads = 0;
		int64_t d;
		lev_pair(&o, p.a, p.la, p.b, p.lb, &d, 0);
		for (int64_t k = d - 1; k <= d + 1; k++)
			if (k >= 0) compare(0, &p, 1, k, 0, 1, 0, "meet -k", 0);
		free(a);
		free(b);
	}
	tune_reset();
	sect_end();
}

/* Many long pairs in one call, their values several per launch (rgpu_dp_tune.long_group):
 * pairs of every shape mixed (one column, which cannot meet; one row; A within B), at most 2, 3
 * or as many pairs a launch as the resident warps hold, -k shared by the call. Every pair that
 * can meet must count one meeting, and grouped calls must take fewer launches than pairs. */
static void sec_group(int n)
{
	sect_begin("long values, many pairs a launch");
	for (int round = 0; round < n; round++) {
		const int64_t np = tu_range(2, 40);
		aln_pair_t *p = calloc((size_t)np, sizeof *p);
		int64_t meets = 0, nlong = 0, nbatch = 0;
		for (int64_t i = 0; i < np; i++) {
			/* the emulator: one strip a pass, so that its two SMs hold two pairs a launch */
			const int64_t la = tu_range(0, 5) == 0 ? tu_range(1, 3) : tu_range(1, emu ? 1024 : 9000);
			const int64_t lb = tu_range(0, 7) == 0 ? 1 : tu_range(0, 5) == 0 ? tu_range(2, 5) : 0;
			const int64_t lb2 = lb ? lb : la + tu_range(-la / 3, la / 3) + 2;
			const int alpha = (int)tu_range(2, 4), related = lb == 0 && (round % 6 == 5 || (int)tu_range(0, 1));
			make_pair(&p[i], la, lb2, alpha, i % 4 == 0 ? 5 : 0, related);
			if (p[i].lb < 1) p[i].lb = 1;
		}
		/* -k: at random, or, with a forced band (a band of -k for every pair of the group, on
		 * mostly related pairs), at the largest distance, or one under it */
		int64_t k = round % 3 == 2 ? tu_range(0, 2000) : -1;
		if (round % 6 == 5) {
			lev_opt_t o;
			lev_opt_init(&o);
			o.n_threads = 0;
			k = 0;
			for (int64_t i = 0; i < np; i++) {
				int64_t d;
				lev_pair(&o, p[i].a, p[i].la, p[i].b, p[i].lb, &d, 0);
				if (d > k) k = d;
			}
			k -= tu_range(0, 1);
			if (k < 0) k = 0;   /* no -k with a forced band: bounds, one pair at a time */
		}
		for (int64_t i = 0; i < np; i++) {
			const int64_t d = p[i].la > p[i].lb ? p[i].la - p[i].lb : p[i].lb - p[i].la;
			meets += p[i].lb >= 2 && p[i].la * p[i].lb > 1 && (k < 0 || d <= k);
			nlong += p[i].la * p[i].lb > 1 && (k < 0 || d <= k);
			nbatch += p[i].la * p[i].lb == 1 && (k < 0 || d <= k);
		}
		tune_reset();
		rgpu_dp_tune.batch_max_la = 1;   /* every pair of two cells or more: the long kernel */
		rgpu_dp_tune.long_cells = 1;
		rgpu_dp_tune.long_group = round % 4 == 0 ? 2 : round % 4 == 1 ? 3 : 0;
		if (round % 6 == 5) rgpu_dp_tune.band = 1;
		if (round % 5 == 4) rgpu_dp_tune.long_rw = 1 << tu_range(0, 2);
		char what[96];
		snprintf(what, sizeof what, "%lld pairs, group %d, k %lld", (long long)np, rgpu_dp_tune.long_group, (long long)k);
		for (int lcs = 0; lcs < 2; lcs++) {
			rgpu_stats_t st;
			const int64_t kk = lcs ? -1 : k, mm = lcs && k >= 0 ? -1 : meets;
			if (compare(lcs, p, np, kk, 0, 0, 0, what, &st) == 0 && mm >= 0) {
				CHECK(st.n_meet == mm, "%s %s: %lld meetings, expected %lld", what, lcs ? "lcs" : "lev", (long long)st.n_meet,
				      (long long)mm);
				/* one batch launch for the 1 x 1 pairs, the other long pairs one launch each,
				 * those that meet at least two a launch */
				CHECK(mm < 2 || st.n_launch <= (nbatch > 0) + nlong - mm + (mm + 1) / 2,
				      "%s %s: %lld launches for %lld long pairs, %lld meeting, %lld short", what, lcs ? "lcs" : "lev",
				      (long long)st.n_launch, (long long)nlong, (long long)mm, (long long)nbatch);
			}
		}
		free_pairs(p, np);
	}
	/* a device-memory limit that one pair a launch fits and a group's rings (G warps) do not:
	 * the pairs go one at a time rather than fail */
	{
		const int64_t np = 24;
		aln_pair_t *p = calloc((size_t)np, sizeof *p);
		for (int64_t i = 0; i < np; i++) make_pair(&p[i], 1500, 1500, 4, 0, 0);
		rgpu_opt_t g = G0;
		g.mem_limit = 3 << 20;
		tune_reset();
		rgpu_dp_tune.batch_max_la = 1;
		rgpu_dp_tune.long_cells = 1;
		for (int lcs = 0; lcs < 2; lcs++) compare(lcs, p, np, -1, 0, 0, &g, "long values under 3 MB", 0);
		free_pairs(p, np);
	}
	tune_reset();
	sect_end();
}

static void sec_long(void)
{
	sect_begin("long pairs");
	if (!emu) {
		/* Wide passes of millions of rows run on fewer warps than strips at work (4 Mb lev, 6 Mb
		 * lcs: the smallest random pairs the rule takes): the same value as a warp for every strip */
		for (int lcs = 0; lcs < 2; lcs++) {
			const int64_t L = lcs ? 6000000 : 4000000;
			char *a = malloc((size_t)L + 1), *b = malloc((size_t)L + 1);
			dt_random(a, L, 4, 0);
			dt_random(b, L - 1000, 4, 0);
			aln_pair_t p = { a, b, L, L - 1000 };
			int64_t v[2] = { -2, -2 };
			rgpu_stats_t st[2];
			for (int f = 0; f < 2; f++) {
				rgpu_dp_tune.fewer_warps = f ? -1 : 0;
				rk_status_t s = gpu_run(lcs, &p, 1, -1, &G0, &v[f], 0, &st[f]);
				CHECK(s == RK_OK, "fewer warps %s %lld: %s", lcs ? "lcs" : "lev", (long long)L, rk_error());
			}
			tune_reset();
			CHECK(v[0] == v[1] && v[0] > 0, "fewer warps %s %lld: %lld, a warp a strip %lld", lcs ? "lcs" : "lev", (long long)L,
			      (long long)v[0], (long long)v[1]);
			CHECK(st[0].n_fewer >= 1 && st[1].n_fewer == 0, "fewer warps %s %lld: taken %lld and %lld times", lcs ? "lcs" : "lev",
			      (long long)L, (long long)st[0].n_fewer, (long long)st[1].n_fewer);
			fprintf(stderr, "   %lld bp random %s: fewer warps %.3f s, a warp a strip %.3f s (kernels)\n", (long long)L,
			        lcs ? "lcs" : "lev", st[0].kernel_s, st[1].kernel_s);
			free(a);
			free(b);
		}
	}
	static const int64_t full[] = { 10000, 100000, 1000000 }, small[] = { 3000, 9000 };
	const int64_t *Ls = emu ? small : full;
	const int nL = emu ? 2 : 3;
	for (int i = 0; i < nL; i++)
		for (int div = 0; div < 2; div++) {
			aln_pair_t p;
			char *a = malloc((size_t)Ls[i] + 1), *b = malloc((size_t)(2 * Ls[i] + 1100));
			dt_random(a, Ls[i], 4, 0);
			int64_t lb;
			if (div) lb = dt_mutate(a, Ls[i], b, 0, 1, 4, 0);
			else { lb = Ls[i] - Ls[i] / 50; dt_random(b, lb, 4, 0); }
			p.a = a; p.b = b; p.la = Ls[i]; p.lb = lb;
			char what[64];
			snprintf(what, sizeof what, "%lld bp %s", (long long)Ls[i], div ? "1%-divergent" : "random");
			for (int lcs = 0; lcs < 2; lcs++)
				for (int paths = 0; paths < 2; paths++) {
					rgpu_stats_t st;
					double t = rk_realtime();
					compare(lcs, &p, 1, -1, paths, 1, 0, what, &st);
					/* 10 kb (the long kernel's, from 4097 rows) leaves any GPU's warps mostly idle
					 * in one pass: the default rule meets (larger ones as the device holds them) */
					if (!paths && !emu && Ls[i] <= 10000) CHECK(st.n_meet == 1, "%s %s: %lld meetings, expected the default rule to take one", what,
					                  lcs ? "lcs" : "lev", (long long)st.n_meet);
					fprintf(stderr, "   %s %s%s: GPU kernels %.4f s, total %.3f s, device %.1f MB (with CPU %.1f s)\n", what,
					        lcs ? "lcs" : "lev", paths ? " path" : "", st.kernel_s, st.total_s, st.dev_bytes / 1e6, rk_realtime() - t);
				}
			if (div) {   /* -k about the distance */
				lev_opt_t o;
				lev_opt_init(&o);
				o.n_threads = 0;
				int64_t d;
				lev_pair(&o, p.a, p.la, p.b, p.lb, &d, 0);
				compare(0, &p, 1, d, 1, 1, 0, "long -k d", 0);
				compare(0, &p, 1, d - 1, 0, 1, 0, "long -k d-1", 0);
			}
			free(a);
			free(b);
		}
	sect_end();
}

/* ---- the slab pass, on a block cut out of a real DP ---- */
static uint64_t *words(int64_t n)
{
	uint64_t *w = malloc(sizeof(uint64_t) * (size_t)(n + 1));
	for (int64_t i = 0; i <= n; i++) w[i] = tu_rand();
	return w;
}

/* rev: the GPU is given the block's texts reversed and told so (rgpu_*_slab rev), which must
 * read them as the forward block */
static void slab_case(int lcs, int64_t la, int64_t lb, int64_t r0w, int64_t c0, int with_left, int rev)
{
	char *A = malloc((size_t)la + 1), *B = malloc((size_t)lb + 1);
	int alpha = (int)tu_range(2, 4);
	dt_random(A, la, alpha, 0);
	dt_random(B, lb, alpha, 0);
	for (int64_t i = 0; i < lb && i < la; i++)   /* some similarity */
		if (tu_range(0, 2)) B[i] = A[i];
	const int64_t r0 = 64 * r0w, nwf = (la + 63) / 64, ncol = lb - c0, nrow = la - r0;
	aln_prep_t P;
	aln_prep_init(&P, A, la, 0, B, lb, 0, 0);
	/* the block's top edge: rows [0, r0) over columns [c0, lb); its left edge: rows [r0, la) at column c0 */
	uint64_t *h0 = words(ncol / 64 + 1), *h1 = words(ncol / 64 + 1), *v0 = words(nwf), *v1 = words(nwf);
	uint64_t *th0 = words(c0 / 64 + 1), *th1 = words(c0 / 64 + 1);
	for (int64_t q = 0; q <= ncol / 64; q++) { h0[q] = lcs ? 0 : ~0ull; h1[q] = 0; }
	for (int64_t q = 0; q <= c0 / 64; q++) { th0[q] = lcs ? 0 : ~0ull; th1[q] = 0; }
	for (int64_t q = 0; q < nwf; q++) { v0[q] = ~0ull; v1[q] = 0; }
	if (r0 > 0) {
		/* rows [0, r0): left block [0, c0) then right block [c0, lb) from its right edge */
		if (lcs) {
			lcs_slab(&P, 0, 0, r0w, 0, c0, th0, v0);
			lcs_slab(&P, 0, 0, r0w, c0, lb, h0, v0);
		} else {
			lev_slab(&P, 0, 0, r0w, 0, c0, th0, th1, v0, v1);
			lev_slab(&P, 0, 0, r0w, c0, lb, h0, h1, v0, v1);
		}
	}
	/* rows [r0, la) over [0, c0): from the left block's bottom edge to the right edge at c0 */
	for (int64_t q = r0w; q < nwf; q++) { v0[q] = ~0ull; v1[q] = 0; }
	if (c0 > 0) {
		if (lcs) lcs_slab(&P, 0, r0w, nwf, 0, c0, th0, v0 + r0w);
		else lev_slab(&P, 0, r0w, nwf, 0, c0, th0, th1, v0 + r0w, v1 + r0w);
	}
	/* the block itself, on the CPU and on the GPU */
	const int64_t nwb = (ncol + 63) / 64 + 1, nwl = (nrow + 63) / 64 + 1;
	uint64_t *ch0 = malloc(8 * (size_t)nwb), *ch1 = malloc(8 * (size_t)nwb), *gh0 = malloc(8 * (size_t)nwb), *gh1 = malloc(8 * (size_t)nwb);
	uint64_t *cv0 = malloc(8 * (size_t)nwl), *cv1 = malloc(8 * (size_t)nwl), *gv0 = malloc(8 * (size_t)nwl), *gv1 = malloc(8 * (size_t)nwl);
	for (int64_t q = 0; q < nwb; q++) {
		uint64_t junk = tu_rand();   /* bits past the last column must be left as they were */
		ch0[q] = gh0[q] = q < (ncol + 63) / 64 ? h0[q] : junk;
		ch1[q] = gh1[q] = q < (ncol + 63) / 64 ? h1[q] : junk >> 1;
	}
	if ((ncol & 63) && ncol > 0) {
		uint64_t junk = tu_rand(), m = ~0ull << (ncol & 63);
		int64_t q = (ncol - 1) / 64;
		ch0[q] = gh0[q] = (h0[q] & ~m) | (junk & m);
		ch1[q] = gh1[q] = (h1[q] & ~m) | (junk & m & ~ch0[q]);
	}
	for (int64_t q = 0; q < nwl; q++) {
		cv0[q] = gv0[q] = with_left && q < (nrow + 63) / 64 ? v0[r0w + q] : ~0ull;
		cv1[q] = gv1[q] = with_left && q < (nrow + 63) / 64 ? v1[r0w + q] : 0;
	}
	aln_prep_t Q;
	aln_prep_init(&Q, A + r0, nrow, 0, B + c0, ncol, 0, 0);
	if (lcs) lcs_slab(&Q, 0, 0, Q.nw, 0, ncol, ch0, cv0);
	else lev_slab(&Q, 0, 0, Q.nw, 0, ncol, ch0, ch1, cv0, cv1);
	char *ga = malloc((size_t)nrow + 1), *gb = malloc((size_t)ncol + 1);
	for (int64_t i = 0; i < nrow; i++) ga[i] = A[r0 + (rev ? nrow - 1 - i : i)];
	for (int64_t j = 0; j < ncol; j++) gb[j] = B[c0 + (rev ? ncol - 1 - j : j)];
	rk_status_t s = lcs ? rgpu_lcs_slab(&G0, ga, nrow, gb, ncol, rev, 0, gh0, with_left ? gv0 : 0, 0)
	                    : rgpu_lev_slab(&G0, ga, nrow, gb, ncol, rev, 0, gh0, gh1, with_left ? gv0 : 0, with_left ? gv1 : 0, 0);
	free(ga); free(gb);
	CHECK(s == RK_OK, "slab: %s", rk_error());
	n_checks++;
	int ok = !memcmp(ch0, gh0, 8 * (size_t)nwb) && (lcs || !memcmp(ch1, gh1, 8 * (size_t)nwb));
	if (with_left)
		for (int64_t q = 0; q < (nrow + 63) / 64; q++) {
			const int n = nrow - 64 * q >= 64 ? 64 : (int)(nrow - 64 * q);
			const uint64_t m = n == 64 ? ~0ull : (1ull << n) - 1;   /* bits past the last row are don't-care */
			ok &= (cv0[q] & m) == (gv0[q] & m) && (lcs || (cv1[q] & m) == (gv1[q] & m));
		}
	CHECK(ok, "%s slab of %lld x %lld (from row %lld, column %lld, %s left edge%s): GPU edges differ from the CPU's", lcs ? "lcs" : "lev",
	      (long long)nrow, (long long)ncol, (long long)r0, (long long)c0, with_left ? "given" : "boundary", rev ? ", texts reversed" : "");
	aln_prep_free(&P);
	aln_prep_free(&Q);
	free(A); free(B); free(h0); free(h1); free(v0); free(v1); free(th0); free(th1);
	free(ch0); free(ch1); free(gh0); free(gh1); free(cv0); free(cv1); free(gv0); free(gv1);
}

/* Two ranks meeting on column c (split_cols of mpi/split/split_run.c), in one process: the GPU's
 * halves (rgpu_*_half), forward over [0, c) and reversed over [c, lb), each in its bound's band,
 * must meet as the CPU's unbanded halves do: the same cost, cut row and F there (with -k below
 * the cost, both above k; lcs: k a bound at or above its indel cost, or -1). Returns whether
 * the GPU's halves were banded. */
static int split_case(int lcs, const aln_pair_t *p, int64_t c, int64_t k)
{
	const int kind = lcs ? SPLIT_LCS : SPLIT_LEV;
	const int64_t la = p->la, lb = p->lb, nw = (la + 63) / 64, nh = lb / 64 + 2;
	uint64_t *e[16];
	for (int q = 0; q < 16; q++) e[q] = words(q < 8 ? nh : nw + 1);
	/* e[0..1] e[2..3]: top edges of the CPU's halves, e[4..7] the GPU's; e[8..15] the left edges in, right edges out */
	uint64_t *ch[2][2] = { { e[0], e[1] }, { e[2], e[3] } }, *gh[2][2] = { { e[4], e[5] }, { e[6], e[7] } };
	uint64_t *cv[2][2] = { { e[8], e[9] }, { e[10], e[11] } }, *gv[2][2] = { { e[12], e[13] }, { e[14], e[15] } };
	int64_t band[2] = { -la, lb };
	rk_status_t s = RK_OK;
	for (int h = 0; h < 2 && s == RK_OK; h++) {
		const int64_t n = h ? lb - c : c;
		const char *b = p->b + (h ? c : 0);
		split_top(kind, ch[h], n); split_top(kind, gh[h], n);
		split_left(kind, cv[h], nw); split_left(kind, gv[h], nw);
		if (n == 0) continue;
		aln_prep_t Q;
		aln_prep_init(&Q, p->a, la, h, b, n, h, 0);
		split_pass(kind, &Q, 0, 1, 0, n, ch[h], cv[h]);
		aln_prep_free(&Q);
		int64_t hb[2];
		s = lcs ? rgpu_lcs_half(&G0, p->a, la, p->b, lb, c, h, k, hb, gh[h][0], gv[h][0], 0)
		        : rgpu_lev_half(&G0, p->a, la, p->b, lb, c, h, k, hb, gh[h][0], gh[h][1], gv[h][0], gv[h][1], 0);
		CHECK(s == RK_OK, "banded half: %s", rk_error());
		band[0] = hb[0];
		band[1] = hb[1];
	}
	n_checks++;
	if (s == RK_OK) {
		int64_t wt, wf, gt, gf;
		const int64_t wc = split_meet_col(kind, cv[0], cv[1], la, lb, c, &wt, &wf), gc = split_meet_col(kind, gv[0], gv[1], la, lb, c, &gt, &gf);
		const int above = k >= 0 && wt > k;
		CHECK(above ? gt > k : gc == wc && gt == wt && gf == wf,
		      "%s %lld x %lld split on column %lld, band [%lld, %lld], -k %lld: GPU halves meet at row %lld cost %lld F %lld, CPU %lld %lld %lld",
		      lcs ? "lcs" : "lev", (long long)la, (long long)lb, (long long)c, (long long)band[0], (long long)band[1], (long long)k,
		      (long long)gc, (long long)gt, (long long)gf, (long long)wc, (long long)wt, (long long)wf);
	}
	for (int q = 0; q < 16; q++) free(e[q]);
	return band[0] > -la || band[1] < lb;
}

static void sec_split(int n)
{
	sect_begin("split on a column, banded halves");
	int banded = 0, m = 0;
	for (int i = 0; i < n; i++) {
		tune_reset();
		rgpu_dp_tune.band = 1;   /* small pairs: a bound and its band all the same */
		rgpu_dp_tune.probe_rows = i % 3 ? tu_range(32, 400) : 0;   /* bounds of many pieces, or one */
		rgpu_dp_tune.band_w = tu_range(1, 300);
		rgpu_dp_tune.long_rw = i % 4 == 3 ? 1 << tu_range(0, 2) : 0;
		aln_pair_t p;
		const int64_t la = tu_range(1, emu ? 1200 : 5000), lb = i % 5 == 4 ? tu_range(1, 2 * la) : la;
		make_pair(&p, la, lb, (int)tu_range(2, 4), 0, i % 2);
		if (i % 4 == 2) {
			/* A = X core, B = core Y: the path runs down |X| rows first, along the edge of its band */
			const int64_t x = tu_range(1, la / 3 + 1), y = tu_range(0, la / 3 + 1), core = la - x;
			char *b = malloc((size_t)(core + y + 1));
			memcpy(b, p.a + x, (size_t)core);
			dt_random(b + core, y, 4, 0);
			free((char *)p.b);
			p.b = b;
			p.lb = core + y;
		}
		const int64_t c = i % 7 == 0 ? (i % 14 ? 0 : p.lb) : tu_range(0, p.lb);
		int64_t k = -1;
		if (i % 6 == 5) {   /* -k around the distance */
			lev_opt_t o;
			lev_opt_init(&o);
			int64_t d;
			lev_pair(&o, p.a, p.la, p.b, p.lb, &d, 0);
			k = d + tu_range(-3, 3);
			if (k < 0) k = 0;
		}
		const int lcs = i & 1 && k < 0;
		if (lcs && i % 6 == 3) {   /* lcs: a bound at or above its indel cost (a piece's, known) */
			lcs_opt_t o;
			lcs_opt_init(&o);
			int64_t L;
			lcs_pair(&o, p.a, p.la, p.b, p.lb, &L, 0);
			k = p.la + p.lb - 2 * L + tu_range(0, 3);
		}
		banded += split_case(lcs, &p, c, k);
		m++;
		free((char *)p.a);
		free((char *)p.b);
	}
	tune_reset();
	/* the section is about bands: most cases must have had one */
	CHECK(banded * 2 > m, "only %d of %d split cases were banded", banded, m);
	sect_end();
}

static void sec_slab(int n)
{
	sect_begin("slab pass");
	for (int i = 0; i < n; i++) {
		const int64_t la = tu_range(1, emu ? 1500 : 6000), lb = tu_range(1, emu ? 1500 : 6000);
		const int64_t r0w = tu_range(0, (la - 1) / 64), c0 = tu_range(0, lb - 1);
		if (i % 4 == 1) {
			tune_reset();
			rgpu_dp_tune.max_warps = (int)tu_range(1, 3);
			rgpu_dp_tune.ring = 2;
			rgpu_dp_tune.chunk_words = (int)tu_range(1, 2);
		}
		slab_case(i & 1, la, lb, i % 3 == 0 ? 0 : r0w, i % 5 == 0 ? 0 : c0, i % 7 != 3, i % 4 >= 2);
		tune_reset();
	}
	sect_end();
}

static void sec_memory(void)
{
	sect_begin("device memory limits");
	const int64_t n = emu ? 400 : 3000;
	aln_pair_t *p = random_pairs(n, 700);
	rgpu_opt_t g = G0;
	g.mem_limit = 2 << 20;   /* 2 MB: chunks of a few dozen pairs */
	for (int lcs = 0; lcs < 2; lcs++)
		for (int paths = 0; paths < 2; paths++) {
			rgpu_stats_t st;
			compare(lcs, p, n, -1, paths, 0, &g, "2 MB limit", &st);
			CHECK(st.n_ichunk > 1, "2 MB limit: %lld chunks, want several", (long long)st.n_ichunk);
			CHECK(st.dev_bytes <= g.mem_limit, "2 MB limit: %llu bytes used", (unsigned long long)st.dev_bytes);
		}
	rgpu_dp_tune.chunk_pairs = 7;
	compare(0, p, n < 200 ? n : 200, -1, 1, 0, 0, "7 pairs per launch", 0);
	tune_reset();
	free_pairs(p, n);
	/* a long pair with its path in 4 MB (a 4x4 of leaves and passes, chunked) */
	aln_pair_t q;
	const int64_t L = emu ? 4000 : 100000;
	make_pair(&q, L, 0, 4, 0, 1);
	g.mem_limit = (uint64_t)(emu ? 1 : 4) << 20;
	for (int lcs = 0; lcs < 2; lcs++) {
		rgpu_stats_t st;
		compare(lcs, &q, 1, -1, 1, 1, &g, "long path under a small limit", &st);
		CHECK(st.dev_bytes <= g.mem_limit, "long path: %llu bytes used of %llu", (unsigned long long)st.dev_bytes,
		      (unsigned long long)g.mem_limit);
	}
	/* far too small: a clear RK_ERES */
	g.mem_limit = 1000;
	int64_t d;
	aln_path_t pp = { 0 };
	lev_opt_t o;
	lev_opt_init(&o);
	rk_status_t s = rgpu_lev_batch(&o, &q, 1, &g, &d, 0, 0);
	CHECK(s == RK_ERES && strstr(rk_error(), "device memory"), "1000-byte limit: status %d, '%s'", (int)s, rk_error());
	s = rgpu_lev_batch(&o, &q, 1, &g, &d, &pp, 0);
	CHECK(s == RK_ERES && strstr(rk_error(), "device memory"), "1000-byte limit, path: status %d, '%s'", (int)s, rk_error());
	aln_pair_t sh = { "ACGT", "AGT", 4, 3 };
	s = rgpu_lev_batch(&o, &sh, 1, &g, &d, &pp, 0);
	CHECK(s == RK_ERES && strstr(rk_error(), "device memory"), "1000-byte limit, short pair: status %d, '%s'", (int)s, rk_error());
	n_checks += 3;
	aln_path_free(&pp);
	free((char *)q.a);
	free((char *)q.b);
	/* bad arguments */
	aln_pair_t bad = { 0, "A", 3, 1 };
	CHECK(rgpu_lev_batch(&o, &bad, 1, &G0, &d, 0, 0) == RK_EINPUT, "NULL sequence: want RK_EINPUT");
	/* empty sides need no device work, and -k beyond the length difference */
	aln_pair_t e[3] = { { "", "ACG", 0, 3 }, { "AC", "", 2, 0 }, { "", "", 0, 0 } };
	for (int lcs = 0; lcs < 2; lcs++)
		for (int paths = 0; paths < 2; paths++) compare(lcs, e, 3, -1, paths, 0, 0, "empty sides", 0);
	compare(0, e, 3, 2, 1, 0, 0, "empty sides -k 2", 0);
	sect_end();
}

/* ---- timings and the benchmark ---- */
/* ---- lev --all on the device (dpg_all.cu) ---- */

/* one check: the pairs of rows [r0, r1) kept by the device against every pair on the CPU */
static void all_check(int lcs, char **seq, const int64_t *len, int64_t n, int64_t k, int64_t md, int64_t r0, int64_t r1,
                      rgpu_dp_all_t *h, const char *what)
{
	rgpu_dp_hit_t *hit = 0;
	int64_t nh = 0, at = 0, bad = 0;
	n_checks++;
	CHECK(rgpu_dp_all_rows(h, k, md, r0, r1, &hit, &nh) == RK_OK, "%s: rgpu_dp_all_rows: %s", what, rk_error());
	for (int64_t i = r0; i < r1; i++)
		for (int64_t j = i + 1; j < n; j++) {
			int64_t v;
			if (lcs) {
				lcs_opt_t o;
				lcs_opt_init(&o);
				lcs_pair(&o, seq[i], len[i], seq[j], len[j], &v, 0);
			} else {
				lev_opt_t o;
				lev_opt_init(&o);
				o.k = k;
				lev_pair(&o, seq[i], len[i], seq[j], len[j], &v, 0);
			}
			if (md >= 0 && (v < 0 || v > md)) continue;
			if (at >= nh || hit[at].i != i || hit[at].j != j || hit[at].v != v) {
				if (bad++ < 3)
					CHECK(0, "%s (%s, %lld reads, k %lld, max-dist %lld, rows %lld-%lld): pair (%lld, %lld) cpu %lld, gpu %s (%lld, %lld) %lld",
					      what, lcs ? "lcs" : "lev", (long long)n, (long long)k, (long long)md, (long long)r0, (long long)r1,
					      (long long)i, (long long)j, (long long)v, at < nh ? "has" : "ends,", at < nh ? (long long)hit[at].i : -1ll,
					      at < nh ? (long long)hit[at].j : -1ll, at < nh ? (long long)hit[at].v : -1ll);
				while (at < nh && (hit[at].i < i || (hit[at].i == i && hit[at].j <= j))) at++;
				continue;
			}
			at++;
		}
	CHECK(bad || at == nh, "%s: %lld pairs more on the gpu", what, (long long)(nh - at));
	free(hit);
}

/* a set of reads, every mode, threshold, row range and tile size */
static void all_set(char **seq, int64_t *len, int64_t n, const char *what)
{
	static const int64_t mds[] = { -1, 0, 3, 10 };
	static const int64_t tiles[] = { 0, 97, 1000 };
	for (size_t t = 0; t < sizeof tiles / sizeof tiles[0]; t++) {
		rgpu_dp_tune.all_tile = tiles[t];
		rgpu_dp_tune.reads_stage = t == 1 ? 1 : 0;   /* the reads up a read a stage (dpg_reads.cu) */
		for (int lcs = 0; lcs < 2; lcs++) {
			rgpu_dp_all_t *h = 0;
			rgpu_stats_t st;
			CHECK(rgpu_dp_all_open(lcs, &G0, (const char *const *)seq, len, n, &h, &st) == RK_OK, "%s: open: %s", what, rk_error());
			CHECK(h != 0, "%s: the reads did not suit the device path", what);
			if (!h) continue;
			for (size_t q = 0; q < sizeof mds / sizeof mds[0]; q++) {
				if (lcs && mds[q] >= 0) continue;
				const int64_t md = mds[q], k = md >= 0 ? md : q & 1 ? 5 : -1;
				const int64_t c = tu_range(0, n);
				all_check(lcs, seq, len, n, k, md, 0, c, h, what);     /* two ranges cut anywhere */
				all_check(lcs, seq, len, n, k, md, c, n, h, what);
			}
			rgpu_dp_all_close(h);
		}
	}
	tune_reset();
}

static void sec_all(int64_t n)
{
	sect_begin("--all on the device");
	char **seq = calloc((size_t)n + 2, sizeof *seq);
	int64_t *len = calloc((size_t)n + 2, sizeof *len);
	/* random: lengths 0-300 (some empty or tiny), N and IUPAC codes, duplicates and close copies */
	for (int64_t i = 0; i < n; i++) {
		int64_t l = tu_range(0, 7) == 0 ? tu_range(0, 3) : tu_range(emu ? 20 : 100, emu ? 120 : 300);
		seq[i] = malloc((size_t)(2 * l + 1200));
		const int64_t src = i ? tu_range(0, i - 1) : 0;
		const int r = (int)tu_range(0, 5);
		if (i && r == 0) { len[i] = len[src]; memcpy(seq[i], seq[src], (size_t)len[src] + 1); }
		else if (i && r == 1 && len[src]) len[i] = dt_mutate(seq[src], len[src], seq[i], (int)tu_range(0, 3), (int)tu_range(1, 6), 4, 3);
		else { len[i] = l; dt_random(seq[i], l, 4, i % 3 ? 0 : 10); }
	}
	all_set(seq, len, n, "random reads");
	/* adversarial: every read the same; then one read of 4096 bases (the widest class) among
	 * short ones, and one of every byte but 0 (256 codes) */
	const int64_t m = emu ? 12 : 60;
	for (int64_t i = 1; i < m; i++) { len[i] = len[0]; memcpy(seq[i], seq[0], (size_t)len[0] + 1); }
	all_set(seq, len, m, "identical reads");
	free(seq[3]); seq[3] = malloc(4097); dt_random(seq[3], 4096, 4, 5); len[3] = 4096;
	free(seq[5]); seq[5] = malloc(256); for (int c = 1; c < 256; c++) seq[5][c - 1] = (char)c; seq[5][255] = 0; len[5] = 255;
	all_set(seq, len, m, "a read of 4096 and one of 255 bytes");
	/* a read over 4096 bases: not for this path (the caller takes the general one) */
	free(seq[3]); seq[3] = malloc(4098); dt_random(seq[3], 4097, 4, 0); len[3] = 4097;
	rgpu_dp_all_t *h = (rgpu_dp_all_t *)1;
	rgpu_stats_t st;
	n_checks++;
	CHECK(rgpu_dp_all_open(0, &G0, (const char *const *)seq, len, m, &h, &st) == RK_OK && !h, "a read of 4097: not declined");
	for (int64_t i = 0; i < n; i++) free(seq[i]);
	free(seq); free(len);
	sect_end();
}

/* pairs by index into two sets on the device (dpg_two.cu) against the CPU: B given or B = A
 * (sb NULL), launches of cap pairs, indices at random with repeats, lev with and without k */
static void two_check(char **sa, int64_t *la, int64_t na, char **sb, int64_t *lb, int64_t nb, int64_t cap, const char *what)
{
	char **Bs = sb ? sb : sa;
	int64_t *Bl = sb ? lb : la;
	const int64_t Bn = sb ? nb : na, m = 3 * (na > Bn ? na : Bn) + 7;
	int64_t *ai = malloc(sizeof *ai * (size_t)m), *bi = malloc(sizeof *bi * (size_t)m), *v = malloc(sizeof *v * (size_t)m);
	for (int64_t q = 0; q < m; q++) { ai[q] = tu_range(0, na - 1); bi[q] = tu_range(0, Bn - 1); }
	for (int lcs = 0; lcs < 2; lcs++) {
		rgpu_dp_two_t *h = 0;
		rgpu_stats_t st;
		n_checks++;
		CHECK(rgpu_dp_two_open(lcs, &G0, (const char *const *)sa, la, na, sb ? (const char *const *)sb : 0, lb, nb, cap, &h, &st) == RK_OK && h,
		      "%s: open: %s", what, rk_error());
		if (!h) continue;
		for (int64_t k = -1; k <= 5; k += 3) {
			if (lcs && k >= 0) continue;
			n_checks++;
			CHECK(rgpu_dp_two_vals(h, k, ai, bi, m, v, &st) == RK_OK, "%s: vals: %s", what, rk_error());
			int64_t bad = 0;
			for (int64_t q = 0; q < m; q++) {
				int64_t c;
				const char *x = sa[ai[q]], *y = Bs[bi[q]];
				if (lcs) {
					lcs_opt_t o;
					lcs_opt_init(&o);
					lcs_pair(&o, x, la[ai[q]], y, Bl[bi[q]], &c, 0);
				} else {
					lev_opt_t o;
					lev_opt_init(&o);
					o.k = k;
					lev_pair(&o, x, la[ai[q]], y, Bl[bi[q]], &c, 0);
				}
				if (c != v[q] && bad++ < 3)
					CHECK(0, "%s (%s, k %lld, cap %lld): pair %lld (%lld x %lld, %lld x %lld bp): cpu %lld, gpu %lld", what, lcs ? "lcs" : "lev",
					      (long long)k, (long long)cap, (long long)q, (long long)ai[q], (long long)bi[q], (long long)la[ai[q]],
					      (long long)Bl[bi[q]], (long long)c, (long long)v[q]);
			}
		}
		rgpu_dp_two_close(h);
	}
	free(ai); free(bi); free(v);
}

static void two_reads(char **seq, int64_t *len, int64_t n, int64_t lo, int64_t hi)
{
	for (int64_t i = 0; i < n; i++) {
		const int64_t l = tu_range(0, 9) == 0 ? tu_range(1, 3) : tu_range(lo, hi);
		seq[i] = malloc((size_t)(2 * l + 1200));
		const int64_t src = i ? tu_range(0, i - 1) : 0;
		const int r = (int)tu_range(0, 5);
		if (i && r == 0) { len[i] = len[src]; memcpy(seq[i], seq[src], (size_t)len[src] + 1); }
		else if (i && r == 1) len[i] = dt_mutate(seq[src], len[src], seq[i], (int)tu_range(0, 3), (int)tu_range(1, 6), 4, 3);
		else { len[i] = l; dt_random(seq[i], l, 4, i % 3 ? 0 : 10); }
		if (len[i] < 1) { len[i] = 1; seq[i][0] = 'A'; seq[i][1] = 0; }
		if (len[i] > 320) { len[i] = 320; seq[i][320] = 0; }   /* the longest the path takes */
	}
}

static void sec_two(int64_t n)
{
	sect_begin("pairs by index from reads on the device");
	const int64_t nb = n / 2 + 1;
	char **sa = calloc((size_t)n, sizeof *sa), **sb = calloc((size_t)nb, sizeof *sb);
	int64_t *la = calloc((size_t)n, sizeof *la), *lb = calloc((size_t)nb, sizeof *lb);
	two_reads(sa, la, n, emu ? 20 : 100, emu ? 120 : 300);
	two_reads(sb, lb, nb, emu ? 10 : 50, emu ? 140 : 300);
	static const int64_t caps[] = { 7, 64, 1 << 17 };
	for (size_t c = 0; c < sizeof caps / sizeof caps[0]; c++) {
		two_check(sa, la, n, sb, lb, nb, caps[c], "A against B");
		two_check(sa, la, n, 0, 0, 0, caps[c], "A against A");
	}
	two_check(sa, la, 1, sb, lb, nb, 64, "one read against many");
	/* the reads up through stages of one or two reads each (dpg_reads.cu): the same values */
	rgpu_dp_tune.reads_stage = 400;
	two_check(sa, la, n, sb, lb, nb, 64, "A against B, a stage a read or two");
	rgpu_dp_tune.reads_stage = 1;   /* at least the longest read: one read a stage */
	two_check(sa, la, n, 0, 0, 0, 64, "A against A, a stage a read");
	rgpu_dp_tune.reads_stage = 0;
	/* a read of 320 bases (the longest taken) and one of 255 bytes (every byte but 0) */
	free(sa[3]); sa[3] = malloc(321); dt_random(sa[3], 320, 4, 5); la[3] = 320;
	free(sb[1]); sb[1] = malloc(256); for (int c = 1; c < 256; c++) sb[1][c - 1] = (char)c; sb[1][255] = 0; lb[1] = 255;
	two_check(sa, la, n, sb, lb, nb, 64, "a read of 320 and one of 255 bytes");
	/* declined: an empty read, a read over 320 bases (the caller packs per block) */
	rgpu_dp_two_t *h = (rgpu_dp_two_t *)1;
	rgpu_stats_t st;
	const int64_t keep = lb[2];
	lb[2] = 0;
	n_checks++;
	CHECK(rgpu_dp_two_open(0, &G0, (const char *const *)sa, la, n, (const char *const *)sb, lb, nb, 64, &h, &st) == RK_OK && !h, "an empty read: not declined");
	lb[2] = keep;
	free(sa[3]); sa[3] = malloc(322); dt_random(sa[3], 321, 4, 0); la[3] = 321;
	h = (rgpu_dp_two_t *)1;
	n_checks++;
	CHECK(rgpu_dp_two_open(1, &G0, (const char *const *)sa, la, n, 0, 0, 0, 64, &h, &st) == RK_OK && !h, "a read of 321: not declined");
	for (int64_t i = 0; i < n; i++) free(sa[i]);
	for (int64_t i = 0; i < nb; i++) free(sb[i]);
	free(sa); free(sb); free(la); free(lb);
	sect_end();
}

static double last_total;   /* time_pair's whole call: texts up, kernels, the meeting's walk */
static int64_t last_meet;   /* ... and its meetings */
static double time_pair(int lcs, int64_t L, int div, int paths, uint64_t *bytes)
{
	/* TEST_GPU_DP_LA: A of that many rows (a slab of a split pair), B of L */
	const int64_t LA = getenv("TEST_GPU_DP_LA") ? atoll(getenv("TEST_GPU_DP_LA")) : L;
	char *a = malloc((size_t)(L > LA ? L : LA) + 1), *b = malloc((size_t)(2 * L + 1100));
	dt_random(a, L > LA ? L : LA, 4, 0);
	int64_t lb;
	if (div) lb = dt_mutate(a, L, b, 0, 1, 4, 0);
	else { lb = L; dt_random(b, L, 4, 0); }
	aln_pair_t p = { a, b, LA, lb };
	int64_t v;
	aln_path_t pp = { 0 };
	rgpu_stats_t st;
	if (getenv("TEST_GPU_DP_SLAB")) {
		/* TEST_GPU_DP_SLAB=c: rank 0's half of a split on column c, in the pair's band (TEST_GPU_DP_BAND=-1: every cell) */
		const int64_t cw = atoll(getenv("TEST_GPU_DP_SLAB")), c = cw < lb ? cw : lb, nw = (LA + 63) / 64;
		memset(&st, 0, sizeof st);
		int64_t band[2] = { -LA, lb };
		uint64_t *h0 = words(c / 64 + 2), *h1 = words(c / 64 + 2), *v0 = words(nw + 1), *v1 = words(nw + 1);
		uint64_t *hh[2] = { h0, h1 }, *vv[2] = { v0, v1 };
		split_top(lcs ? SPLIT_LCS : SPLIT_LEV, hh, c);
		split_left(lcs ? SPLIT_LCS : SPLIT_LEV, vv, nw);
		rgpu_stats_t bs;
		rk_status_t s = rgpu_dp_tune.band < 0 ? RK_OK : rgpu_dp_band(lcs, &G0, a, LA, b, lb, -1, band, &bs);
		if (!s) s = rgpu_dp_slab(lcs, &G0, a, LA, b, c, 0, band, h0, lcs ? 0 : h1, v0, lcs ? 0 : v1, &st);
		CHECK(s == RK_OK, "slab: %s", rk_error());
		fprintf(stderr, "slab [0, %lld) of %lld x %lld, band [%lld, %lld]: kernel %.4f s, total %.4f s\n", (long long)c, (long long)LA,
		        (long long)lb, (long long)band[0], (long long)band[1], st.kernel_s, st.total_s);
		free(h0); free(h1); free(v0); free(v1); free(a); free(b);
		return st.kernel_s;
	}
	rk_status_t s = gpu_run(lcs, &p, 1, -1, &G0, &v, paths ? &pp : 0, &st);
	CHECK(s == RK_OK, "timing %lld: %s", (long long)L, rk_error());
	if (getenv("TEST_GPU_DP_VALUE")) fprintf(stderr, "value %lld\n", (long long)v);
	if (bytes) *bytes = st.dev_bytes;
	last_total = st.total_s;
	last_meet = st.n_meet;
	aln_path_free(&pp);
	free(a);
	free(b);
	return paths ? st.total_s : st.kernel_s;
}

static double time_short(int lcs, int64_t n, int64_t L)
{
	aln_pair_t *p = calloc((size_t)n, sizeof *p);
	char *buf = malloc((size_t)(2 * n * L));
	for (int64_t i = 0; i < n; i++) {
		char *a = buf + 2 * i * L, *b = a + L;
		dt_random(a, L, 4, 0);
		for (int64_t j = 0; j < L; j++) b[j] = tu_range(0, 99) < 5 ? "ACGT"[tu_range(0, 3)] : a[j];
		p[i].a = a; p[i].b = b; p[i].la = L; p[i].lb = L;
	}
	int64_t *v = malloc(sizeof(int64_t) * (size_t)n);
	rgpu_stats_t st;
	rk_status_t s = gpu_run(lcs, p, n, -1, &G0, v, 0, &st);
	CHECK(s == RK_OK, "timing %lld pairs: %s", (long long)n, rk_error());
	fprintf(stderr, "   (%lld pairs of %lld: kernels %.4f s, total %.3f s, %lld launches)\n", (long long)n, (long long)L, st.kernel_s,
	        st.total_s, (long long)st.n_launch);
	free(v);
	free(p);
	free(buf);
	return st.kernel_s;
}

static void sec_timings(void)
{
	sect_begin("timings");
	fprintf(stderr, "   lev 1 Mb random pair distance: kernel %.4f s\n", time_pair(0, 1000000, 0, 0, 0));
	fprintf(stderr, "   lev 40 kb random pair distance: kernel %.5f s\n", time_pair(0, 40000, 0, 0, 0));
	fprintf(stderr, "   lev 100k pairs of 150 bp: kernel %.4f s\n", time_short(0, 100000, 150));
	sect_end();
}

/* n pairs of L bp, each two 1%-mutated copies of one random genome (as a batch of related
 * genomes, --all); whole call time (s), long_group as set by the caller */
static double time_many(int lcs, int64_t n, int64_t L, double *kernel)
{
	aln_pair_t *p = calloc((size_t)n, sizeof *p);
	char *g = malloc((size_t)L + 1);
	dt_random(g, L, 4, 0);
	for (int64_t i = 0; i < n; i++) {
		char *a = malloc((size_t)(2 * L + 1100)), *b = malloc((size_t)(2 * L + 1100));
		p[i].la = dt_mutate(g, L, a, 0, 1, 4, 0);
		p[i].lb = dt_mutate(g, L, b, 0, 1, 4, 0);
		p[i].a = a;
		p[i].b = b;
	}
	int64_t *v = malloc(sizeof(int64_t) * (size_t)n);
	rgpu_stats_t st;
	CHECK(gpu_run(lcs, p, n, -1, &G0, v, 0, &st) == RK_OK, "many: %s", rk_error());
	*kernel = st.kernel_s;
	free(v);
	free(g);
	free_pairs(p, n);
	return st.total_s;
}

static void bench(void)
{
	uint64_t b1 = 0, b2 = 0, b3 = 0, b4 = 0;
	double r[13], m[8][3];
	int64_t dm[8];
	time_pair(0, 40000, 0, 0, 0);   /* the first launch after start-up is slow */
	/* long values by two passes meeting at the middle column (the default where they fit)
	 * against one pass, in the same job: kernels and whole calls */
	static const struct { int lcs; int64_t L; int div; } mc[] = { { 0, 40000, 0 }, { 1, 40000, 0 }, { 0, 1000000, 0 },
	                                                              { 1, 1000000, 0 }, { 0, 10000000, 1 } };
	for (int q = 0; q < 5; q++)
		for (int v = 0; v < 3; v++) {
			rgpu_dp_tune.meet = v - 1;   /* one pass, the default, two meeting */
			const double kt = time_pair(mc[q].lcs, mc[q].L, mc[q].div, 0, 0);
			m[q][v] = kt;
			if (v == 1) dm[q] = last_meet;
			fprintf(stderr, "   %s %lld%s %s: kernel %.5f s, call %.5f s\n", mc[q].lcs ? "lcs" : "lev", (long long)mc[q].L,
			        mc[q].div ? " 1%" : "", v == 0 ? "one pass" : v == 1 ? "default" : "meeting", kt, last_total);
		}
	tune_reset();
	double mk[2][2], mt[2][2];   /* [lcs][grouped] */
	for (int lcs = 0; lcs < 2; lcs++)
		for (int gr = 0; gr < 2; gr++) {
			rgpu_dp_tune.long_group = gr ? 0 : -1;
			mt[lcs][gr] = time_many(lcs, 1035, 30000, &mk[lcs][gr]);
		}
	tune_reset();
	r[0] = time_pair(0, 40000, 0, 0, 0);
	r[1] = time_pair(0, 1000000, 0, 0, 0);
	r[2] = time_pair(0, 10000000, 0, 0, 0);
	r[3] = time_pair(0, 10000000, 1, 0, 0);
	r[4] = time_pair(0, 10000000, 0, 1, &b1);
	r[5] = time_pair(0, 10000000, 1, 1, &b2);
	r[6] = time_short(0, 1000000, 150);
	r[7] = time_pair(1, 1000000, 0, 0, 0);
	r[8] = time_pair(1, 10000000, 0, 0, 0);
	r[9] = time_pair(1, 10000000, 0, 1, &b3);
	r[10] = time_pair(1, 10000000, 1, 1, &b4);
	r[11] = time_short(1, 1000000, 150);
	char name[256];
	rgpu_device_name(G0.device, name, sizeof name);
	printf("| rktlcs GPU lev/lcs on %s | seconds | target | device bytes |\n|---|---|---|---|\n", name);
	printf("| lev 40 kb random pair, distance (kernel) | %.5f | 0.002 | |\n", r[0]);
	printf("| lev 1 Mb random pair, distance (kernel) | %.4f | 0.1 | |\n", r[1]);
	printf("| lev 10 Mb random pair, distance (kernel) | %.3f | 3 | |\n", r[2]);
	printf("| lev 10 Mb 1%%-divergent pair, distance (kernel) | %.3f | 3 | |\n", r[3]);
	printf("| lev 10 Mb random pair, with path (total) | %.3f | 10 | %.3g |\n", r[4], (double)b1);
	printf("| lev 10 Mb 1%%-divergent pair, with path (total) | %.3f | 10 | %.3g |\n", r[5], (double)b2);
	printf("| lev 1,000,000 pairs of 150 bp (kernel) | %.4f | 0.05 | |\n", r[6]);
	printf("| lcs 1 Mb random pair, length (kernel) | %.4f | 0.05 | |\n", r[7]);
	printf("| lcs 10 Mb random pair, length (kernel) | %.3f | 2 | |\n", r[8]);
	printf("| lcs 10 Mb random pair, with path (total) | %.3f | 6 | %.3g |\n", r[9], (double)b3);
	printf("| lcs 10 Mb 1%%-divergent pair, with path (total) | %.3f | 6 | %.3g |\n", r[10], (double)b4);
	printf("| lcs 1,000,000 pairs of 150 bp (kernel) | %.4f | 0.05 | |\n", r[11]);
	printf("\n| value of one long pair (kernel s) | one pass | two meeting | ratio | default | default meets |\n"
	       "|---|---|---|---|---|---|\n");
	for (int q = 0; q < 5; q++)
		printf("| %s %s %s | %.5f | %.5f | %.2fx | %.5f | %s |\n", mc[q].lcs ? "lcs" : "lev",
		       mc[q].L >= 1000000 ? (mc[q].L >= 10000000 ? "10 Mb" : "1 Mb") : "40 kb", mc[q].div ? "1%-divergent" : "random", m[q][0],
		       m[q][2], m[q][0] / m[q][2], m[q][1], dm[q] ? "yes" : "no");
	printf("\n| 1,035 pairs of 30 kb (1%%-mutated copies of one genome) | one a launch | many a launch | ratio |\n"
	       "|---|---|---|---|\n");
	for (int lcs = 0; lcs < 2; lcs++) {
		printf("| %s, whole call (s) | %.4f | %.4f | %.2fx |\n", lcs ? "lcs" : "lev", mt[lcs][0], mt[lcs][1], mt[lcs][0] / mt[lcs][1]);
		printf("| %s, kernels (s) | %.4f | %.4f | %.2fx |\n", lcs ? "lcs" : "lev", mk[lcs][0], mk[lcs][1], mk[lcs][0] / mk[lcs][1]);
	}
}
#endif

int main(int argc, char **argv)
{
#ifndef RKTLCS_HAVE_CUDA
	(void)argc;
	(void)argv;
	fprintf(stderr, "test_gpu_dp: SKIPPED: built without CUDA\n");
	return 77;
#else
	int is_bench = argc > 1 && !strcmp(argv[1], "bench");
	emu = argc > 1 && !strcmp(argv[1], "emu");
	int a0 = is_bench || emu ? 2 : 1;
	int64_t n = argc > a0 ? atoll(argv[a0]) : emu ? 300 : 2000;
	if (argc > a0 + 1 && strcmp(argv[1], "one")) tu_state = strtoull(argv[a0 + 1], 0, 10);
	if (rgpu_device_count() == 0) {
		fprintf(stderr, "test_gpu_dp: SKIPPED: no usable CUDA device\n");
		return 77;
	}
	rgpu_opt_init(&G0);
	tune_reset();
	char name[256];
	rgpu_device_name(0, name, sizeof name);
	if (argc > 4 && !strcmp(argv[1], "one")) {
		/* one timed pair, for profilers: one MODE(0 lev, 1 lcs) LEN DIV PATH [RW] */
		if (argc > 6) rgpu_dp_tune.long_rw = atoi(argv[6]);
		if (getenv("TEST_GPU_DP_CWW")) rgpu_dp_tune.chunk_words = atoi(getenv("TEST_GPU_DP_CWW"));
		if (getenv("TEST_GPU_DP_RING")) rgpu_dp_tune.ring = atoi(getenv("TEST_GPU_DP_RING"));
		if (getenv("TEST_GPU_DP_BAND")) rgpu_dp_tune.band = atoi(getenv("TEST_GPU_DP_BAND"));   /* -1: no bands */
		if (getenv("TEST_GPU_DP_MEET")) rgpu_dp_tune.meet = atoi(getenv("TEST_GPU_DP_MEET"));   /* -1: one pass */
		if (getenv("TEST_GPU_DP_WARPS")) rgpu_dp_tune.max_warps = atoi(getenv("TEST_GPU_DP_WARPS"));
		if (getenv("TEST_GPU_DP_FEWER")) rgpu_dp_tune.fewer_warps = atoi(getenv("TEST_GPU_DP_FEWER"));   /* -1: a warp a strip */
		if (getenv("TEST_GPU_DP_DEBUG")) rk_set_log_level(RK_LOG_DEBUG);
		const double t = time_pair(atoi(argv[2]), atoll(argv[3]), atoi(argv[4]), atoi(argv[5]), 0);
		printf("one: %.4f s%s\n", t, last_meet ? " (met)" : "");
		return tu_done("test_gpu_dp one");
	}
	if (is_bench) {
		bench();
		return tu_done("test_gpu_dp bench");
	}
	fprintf(stderr, "test_gpu_dp: device 0 %s, seed %llu, %lld random pairs\n", name, (unsigned long long)tu_state, (long long)n);
	double t0 = rk_realtime();
	if (want("random")) sec_random(n);
	if (want("modes")) sec_modes(emu ? 40 : 300);
	if (want("thresholds")) sec_thresholds();
	if (want("pipeline")) sec_pipeline();
	if (want("wrap")) sec_wrap();
	if (want("slab")) sec_slab(emu ? 40 : 120);
	if (want("split")) sec_split(emu ? 120 : 400);
	if (want("memory")) sec_memory();
	if (want("bands")) sec_bands();
	if (want("meet")) sec_meet(emu ? 80 : 400);
	if (want("group")) sec_group(emu ? 30 : 200);
	if (want("long")) sec_long();
	if (want("all")) sec_all(emu ? 40 : 300);
	if (want("two")) sec_two(emu ? 40 : 300);
	if (!emu && want("timings")) sec_timings();
	fprintf(stderr, "test_gpu_dp: %lld checks in %.1f s\n", (long long)n_checks, rk_realtime() - t0);
	return tu_done("test_gpu_dp");
#endif
}
