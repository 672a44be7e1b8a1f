/* GPU Rkt-LCS against the brute force and the CPU backend: 500+ random read sets (every
 * edge case of test_rkt), rank splits, tiny device-memory limits that force i- and
 * j-chunks, sets of thousands of reads (several j-sets, mixed lengths), long reads.
 * Exit 77 (ctest: skipped) when no CUDA device is usable. */
#include <string.h>
#include "testutil.h"
#include "brute.h"
#include "io/rio.h"
#include "algo/rkt.h"
#include "gpu/rkt_gpu.h"

#ifdef RKTLCS_HAVE_CUDA

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

static int same(const rkt_cand_t *a, const rkt_cand_t *b, int64_t m, const char *what, const char *vs)
{
	for (int64_t i = 0; i < m; i++)
		if (a[i].pos != b[i].pos || a[i].len != b[i].len || a[i].support != b[i].support) {
			CHECK(0, "%s: read %lld: gpu (%lld,%lld,%lld) %s (%lld,%lld,%lld)", what, (long long)i,
			      (long long)a[i].pos, (long long)a[i].len, (long long)a[i].support, vs, (long long)b[i].pos,
			      (long long)b[i].len, (long long)b[i].support);
			return 0;
		}
	return 1;
}

/* Options of one run: k, t, tau; the device's defaults. */
static void test_opts(rkt_opt_t *o, rgpu_opt_t *g, long k, long t, long tau)
{
	rkt_opt_init(o);
	rgpu_opt_init(g);
	o->k = k; o->t = t; o->tau = tau;
}

/* GPU candidates of the whole set, split into `parts` rank ranges, under mem_limit. */
static void gpu_run(const rkt_set_t *set, long k, long t, long tau, int parts, uint64_t mem_limit, int chunks,
                    rkt_cand_t *got, const char *what)
{
	rkt_opt_t o;
	rgpu_opt_t g;
	test_opts(&o, &g, k, t, tau);
	g.mem_limit = mem_limit;
	rk_tune.gpu_chunk_reads = chunks ? tu_range(1, 3) : 0;
	rk_tune.gpu_chunk_sets = chunks ? 1 : 0;
	rk_tune.rkt_gpu_twice = chunks ? 1 : -1;  /* chunks are a plan of the walk-twice path */
	int64_t lo = 0, m = set->n;
	for (int p = 0; p < parts; p++) {
		int64_t hi = p == parts - 1 ? m : lo + tu_range(0, m - lo);
		rgpu_stats_t st;
		rk_status_t s = rgpu_rkt_candidates(&o, set, lo, hi, &g, got + lo, &st);
		CHECK(s == RK_OK, "%s: rgpu_rkt_candidates failed: %s", what, rk_error());
		lo = hi;
	}
}

/* Rows handed to the GPU by claims (rgpu_rkt_candidates_rows): random pieces of [lo, hi) in
 * a shuffled order, some kept for the CPU, which computes them here as a worker would. */
typedef struct {
	rkt_rows_t base;
	int64_t *a, *n;      /* pieces for the GPU, in the order handed out */
	int np, next;
	int64_t most_seen;
} rows_test_t;

static int64_t rows_test_claim(rkt_rows_t *r, int64_t least, int64_t most, int64_t *first)
{
	rows_test_t *t = (rows_test_t *)r;
	CHECK(least >= 1 && most >= least, "claim bounds %lld..%lld", (long long)least, (long long)most);
	if (t->next >= t->np) return 0;
	int64_t c = t->n[t->next] < most ? t->n[t->next] : most;
	*first = t->a[t->next];
	t->a[t->next] += c;
	if (!(t->n[t->next] -= c)) t->next++;
	if (c > t->most_seen) t->most_seen = c;
	return c;
}

/* TEST_GPU_ROWS_ONLY: the random sets' claimed rows alone (device.sh sanitize rktrows: the
 * sanitizers are too slow for every run of every set) */
static int rows_only;

static void rows_run(const rkt_set_t *set, long k, long t, long tau, int chunks, rkt_cand_t *got, const char *what)
{
	rkt_opt_t o;
	rgpu_opt_t g;
	test_opts(&o, &g, k, t, tau);
	rk_tune.gpu_chunk_reads = chunks ? tu_range(1, 3) : 0;
	rk_tune.gpu_chunk_sets = chunks ? 1 : 0;
	const int64_t m = set->n, lo = tu_range(0, m / 3), hi = m - tu_range(0, m / 3);
	rows_test_t rt = { { rows_test_claim }, malloc(sizeof(int64_t) * (size_t)(m + 1)), malloc(sizeof(int64_t) * (size_t)(m + 1)), 0, 0, 0 };
	for (int64_t a = 0; a < lo; a++) CHECK(rkt_candidates(&o, set, a, a + 1, got + a) == RK_OK, "cpu row");
	for (int64_t a = hi; a < m; a++) CHECK(rkt_candidates(&o, set, a, a + 1, got + a) == RK_OK, "cpu row");
	for (int64_t a = lo; a < hi;) {
		const int64_t n = tu_range(1, 1 + (hi - a) / 2);
		if (tu_range(0, 9) < 7) { rt.a[rt.np] = a; rt.n[rt.np++] = n; }
		else CHECK(rkt_candidates(&o, set, a, a + n, got + a) == RK_OK, "cpu piece");
		a += n;
	}
	for (int q = rt.np - 1; q > 0; q--) {  /* the order the claims hand them out */
		const int p = (int)tu_range(0, q);
		int64_t x = rt.a[p]; rt.a[p] = rt.a[q]; rt.a[q] = x;
		x = rt.n[p]; rt.n[p] = rt.n[q]; rt.n[q] = x;
	}
	rgpu_stats_t st;
	rk_status_t s = rgpu_rkt_candidates_rows(&o, set, lo, hi, &g, &rt.base, got + lo, &st);
	CHECK(s == RK_OK, "%s: rgpu_rkt_candidates_rows failed: %s", what, rk_error());
	CHECK(rt.next == rt.np, "%s: the GPU stopped claiming with %d of %d pieces left", what, rt.np - rt.next, rt.np);
	free(rt.a); free(rt.n);
}

/* The several-GPU-rank path without MPI: every share of the walk-once units, their support
 * differences summed, candidates of random rank ranges from the sums. 0 when walk-once does
 * not apply to this set (the driver then runs rgpu_rkt_candidates). */
static int share_run(const rkt_set_t *set, long k, long t, long tau, int nshare, rkt_cand_t *got, const char *what)
{
	rkt_opt_t o;
	rgpu_opt_t g;
	test_opts(&o, &g, k, t, tau);
	rk_tune.rkt_gpu_twice = -1;
	uint32_t *sum = 0;
	uint64_t n = 0;
	for (int sh = 0; sh < nshare; sh++) {
		uint32_t *S = 0;
		uint64_t nS = 0;
		rk_status_t st = rgpu_rkt_supports(&o, set, sh, nshare, &g, &S, &nS, 0);
		CHECK(st == RK_OK, "%s: rgpu_rkt_supports failed: %s", what, rk_error());
		if (!S) { CHECK(!sum, "%s: share %d of %d has no supports", what, sh, nshare); return 0; }
		if (!sum) { sum = S; n = nS; continue; }
		CHECK(nS == n, "%s: share %d: %llu counters, not %llu", what, sh, (unsigned long long)nS, (unsigned long long)n);
		for (uint64_t q = 0; q < n && q < nS; q++) sum[q] += S[q];
		free(S);
	}
	for (int64_t lo = 0, hi; lo < set->n; lo = hi) {
		hi = lo + tu_range(1, set->n - lo);
		rgpu_rkt_cands_from_supports(set, tau, t, sum, lo, hi, got + lo);
	}
	free(sum);
	return 1;
}

/* The same on the device (rgpu_rkt_sup_*), as GPU ranks on one node sum them: share q owns
 * reads [b[q], b[q+1]) (random bounds), adds the other shares' counters of them to its own
 * (through CUDA IPC where the runtime opens handles of its own process, as the emulator
 * does; else from the other share directly) and takes their candidates on the device. */
static int share_dev_run(const rkt_set_t *set, long k, long t, long tau, int nshare, rkt_cand_t *got, const char *what)
{
	rkt_opt_t o;
	rgpu_opt_t g;
	rgpu_rkt_sup_t *u[4] = { 0 };
	int64_t b[5];
	unsigned char h[4 * RGPU_IPC_BYTES];
	rkt_opt_init(&o);
	rgpu_opt_init(&g);
	o.k = k; o.t = t; o.tau = tau;
	rk_tune.rkt_gpu_twice = -1;
	b[0] = 0; b[nshare] = set->n;
	for (int q = 1; q < nshare; q++) b[q] = tu_range(b[q - 1], set->n);
	for (int q = 0; q < nshare; q++) {
		CHECK(rgpu_rkt_sup_run(&o, set, q, nshare, &g, &u[q], 0) == RK_OK, "%s: rgpu_rkt_sup_run failed: %s", what, rk_error());
		if (!u[q]) {
			CHECK(q == 0, "%s: share %d of %d has no supports", what, q, nshare);
			return 0;
		}
		CHECK(rgpu_rkt_sup_export(u[q], h + (size_t)q * RGPU_IPC_BYTES) == RK_OK, "%s: export: %s", what, rk_error());
	}
	for (int q = 0; q < nshare; q++) {
		uint64_t o2[2];
		rgpu_rkt_support_offs(set, tau, b + q, 2, o2);
		const uint64_t off = o2[0], n = o2[1] - off;
		if (rgpu_rkt_sup_open_peers(u[q], h, nshare, q) == RK_OK)
			CHECK(rgpu_rkt_sup_add(u[q], 0, off, n) == RK_OK, "%s: add peers: %s", what, rk_error());
		else
			for (int r = 0; r < nshare; r++)
				if (r != q) CHECK(rgpu_rkt_sup_add(u[q], u[r], off, n) == RK_OK, "%s: add: %s", what, rk_error());
		CHECK(rgpu_rkt_sup_cands(u[q], b[q], b[q + 1], got + b[q]) == RK_OK, "%s: cands: %s", what, rk_error());
	}
	for (int q = 0; q < nshare; q++) rgpu_rkt_sup_free(u[q]);
	return 1;
}

static void cpu_run(const rkt_set_t *set, long k, long t, long tau, rkt_cand_t *want)
{
	rkt_opt_t o;
	rkt_opt_init(&o);
	o.k = k; o.t = t; o.tau = tau;
	CHECK(rkt_candidates(&o, set, 0, set->n, want) == RK_OK, "cpu failed");
}

static void compare(rio_reads_t *r, long k, long t, long tau, int brute, const char *what)
{
	int m = (int)r->n;
	rkt_set_t set;
	rkt_set_init(&set, r);
	rkt_cand_t *got = malloc(sizeof(rkt_cand_t) * m), *want = malloc(sizeof(rkt_cand_t) * m);
	cpu_run(&set, k, t, tau, want);
	if (brute) {
		char **s = malloc(sizeof(char *) * m);
		long *len = malloc(sizeof(long) * m);
		bf_cand_t *bf = malloc(sizeof(bf_cand_t) * m);
		for (int i = 0; i < m; i++) { s[i] = (char *)rio_seq(r, i); len[i] = rio_len(r, i); }
		bf_candidates(m, s, len, k, t, tau, bf);
		for (int i = 0; i < m; i++)
			CHECK(want[i].pos == bf[i].pos && want[i].len == bf[i].len && want[i].support == bf[i].support,
			      "%s: cpu differs from brute force at read %d", what, i);
		free(s); free(len); free(bf);
	}
	char w[160];
	if (rows_only) goto rows;
	/* whole set and rank splits (each pair walked once); rank splits with 1-3 reads per i-chunk
	 * and one j-set per j-chunk (walked from both reads); a device-memory limit that forces
	 * chunks through the memory plan itself */
	gpu_run(&set, k, t, tau, 1, 0, 0, got, what);
	snprintf(w, sizeof w, "%s (k %ld t %ld tau %ld, whole)", what, k, t, tau);
	same(got, want, m, w, "cpu");
	int parts = (int)tu_range(2, 4);
	gpu_run(&set, k, t, tau, parts, 0, 0, got, what);  /* walk-once with reads owned by other ranks */
	snprintf(w, sizeof w, "%s (k %ld t %ld tau %ld, %d ranks)", what, k, t, tau, parts);
	same(got, want, m, w, "cpu");
	parts = (int)tu_range(2, 4);
	if (share_run(&set, k, t, tau, parts, got, what)) {
		snprintf(w, sizeof w, "%s (k %ld t %ld tau %ld, %d shares summed)", what, k, t, tau, parts);
		same(got, want, m, w, "cpu");
	}
	parts = (int)tu_range(2, 4);
	if (share_dev_run(&set, k, t, tau, parts, got, what)) {
		snprintf(w, sizeof w, "%s (k %ld t %ld tau %ld, %d shares summed on the device)", what, k, t, tau, parts);
		same(got, want, m, w, "cpu");
	}
	parts = (int)tu_range(2, 4);
	gpu_run(&set, k, t, tau, parts, 0, 1, got, what);
	snprintf(w, sizeof w, "%s (k %ld t %ld tau %ld, %d ranks, 1-3 reads per i-chunk)", what, k, t, tau, parts);
	same(got, want, m, w, "cpu");
	/* rows claimed in a shuffled order beside a CPU worker (rkt_hybrid.c), also through 1-3
	 * reads per i-chunk */
rows:
	for (int chunks = 0; chunks < 2; chunks++) {
		rows_run(&set, k, t, tau, chunks, got, what);
		snprintf(w, sizeof w, "%s (k %ld t %ld tau %ld, rows by claims%s)", what, k, t, tau, chunks ? ", 1-3 reads per i-chunk" : "");
		same(got, want, m, w, "cpu");
	}
	if (rows_only) goto out;
	uint64_t tiny = (uint64_t)set.max_len * 192 * 4 * 2 + 64 * 1024 + (uint64_t)(m / 1024 + 1) * 13 + 64;
	tiny += (uint64_t)set.max_len * set.max_len * 4;
	gpu_run(&set, k, t, tau, 1, tiny, 0, got, what);
	snprintf(w, sizeof w, "%s (k %ld t %ld tau %ld, %llu-byte device limit)", what, k, t, tau, (unsigned long long)tiny);
	same(got, want, m, w, "cpu");
out:
	free(got); free(want);
	rkt_set_free(&set);
}

static void random_sets(int n)
{
	char *raw[12];
	for (int i = 0; i < 12; i++) raw[i] = malloc(128);
	for (int it = 0; it < n; it++) {
		int m = (int)tu_range(2, 12), alpha = (int)tu_range(2, 4), punk = (int)tu_range(0, 3) * 3;
		int mixed = it % 3 == 0;
		long base = tu_range(1, it % 7 == 0 ? 100 : 40);
		tu_plant_set(raw, m, alpha, punk, mixed, base);
		long k = tu_range(0, 4), t = tu_range(1, m), tau = tu_range(1, 20);
		if (it % 10 == 0) k = tu_range(5, 60);
		if (it % 11 == 0) tau = tu_range(20, 60);
		if (it % 13 == 0) t = m;
		if (it % 17 == 0) k = tu_range(100, 5000);  /* more than any read: no limit */
		rio_reads_t r;
		build(&r, m, raw);
		char what[64];
		snprintf(what, sizeof what, "random set %d", it);
		compare(&r, k, t, tau, base <= 40, what);
		rio_reads_free(&r);
	}
	for (int i = 0; i < 12; i++) free(raw[i]);
}

/* Thousands of reads (several j-sets, lanes, words; mixed lengths; duplicates). */
static void big_sets(void)
{
	static const long M[] = { 1100, 2500, 3000 };
	for (int v = 0; v < 3; v++) {
		long m = M[v];
		char **raw = malloc(sizeof(char *) * m), genome[2000];
		tu_read(genome, 1999, 4, 0);
		for (long i = 0; i < m; i++) {
			long l = v == 1 ? 51 : tu_range(5, 70);
			raw[i] = malloc(l + 1);
			long from = tu_range(0, 1999 - l);
			memcpy(raw[i], genome + from, l);
			raw[i][l] = 0;
			for (long p = 0; p < l; p++)  /* sequencing errors and a few unknown symbols */
				if (tu_range(0, 99) < 3) raw[i][p] = "ACGTN"[tu_range(0, 4)];
		}
		rio_reads_t r;
		build(&r, (int)m, raw);
		compare(&r, v, v == 1 ? 1000 : 40, 12, 0, "big set");
		compare(&r, 10, 200, 15, 0, "big set k=10");
		rio_reads_free(&r);
		for (long i = 0; i < m; i++) free(raw[i]);
		free(raw);
	}
}

static void long_reads(void)
{
	long L[6] = { 1000, 300, 600, 60, 200, 1000 };
	char *raw[6];
	for (int i = 0; i < 6; i++) { raw[i] = malloc(L[i] + 1); tu_read(raw[i], L[i], 4, 1); }
	memcpy(raw[3] + 5, raw[0] + 510, 50);
	memcpy(raw[4] + 20, raw[0] + 505, 150);
	memcpy(raw[1] + 100, raw[0] + 500, 150);
	memcpy(raw[2] + 300, raw[0] + 510, 290);
	memcpy(raw[5], raw[0], 1000);
	raw[5][400] = raw[5][400] == 'A' ? 'C' : 'A';
	rio_reads_t r;
	build(&r, 6, raw);
	compare(&r, 2, 2, 100, 0, "long reads");
	compare(&r, 1, 3, 30, 0, "long and short reads");
	compare(&r, 0, 1, 1, 0, "long reads tau 1");
	/* longer than the kernels take: a clear error, not a crash */
	int32_t mx = rgpu_rkt_max_len(1);
	char *huge = malloc(mx + 2);
	tu_read(huge, mx + 1, 4, 0);
	rio_reads_push(&r, "huge", huge, strlen(huge));
	rkt_set_t set;
	rkt_set_init(&set, &r);
	rkt_opt_t o;
	rgpu_opt_t g;
	rkt_opt_init(&o); rgpu_opt_init(&g);
	o.k = 1; o.t = 1; o.tau = 1;
	rkt_cand_t c[7];
	CHECK(rgpu_rkt_candidates(&o, &set, 0, 7, &g, c, 0) == RK_ERES && strstr(rk_error(), "--backend cpu"),
	      "a %d bp read: want a clear error, got '%s'", mx + 1, rk_error());
	rkt_set_free(&set);
	free(huge);
	rio_reads_free(&r);
	for (int i = 0; i < 6; i++) free(raw[i]);
}

#endif

int main(int argc, char **argv)
{
#ifndef RKTLCS_HAVE_CUDA
	(void)argc; (void)argv;
	fprintf(stderr, "test_gpu: SKIPPED: built without CUDA\n");
	return 77;
#else
	int n = argc > 1 ? atoi(argv[1]) : 520;
	rows_only = getenv("TEST_GPU_ROWS_ONLY") != 0;
	if (argc > 2) tu_state = strtoull(argv[2], 0, 10);
	if (rgpu_device_count() == 0) {
		fprintf(stderr, "test_gpu: SKIPPED: no usable CUDA device (or built without CUDA)\n");
		return 77;
	}
	char name[256];
	rgpu_device_name(0, name, sizeof name);
	fprintf(stderr, "test_gpu: device 0 %s, seed %llu, max read length at tau=1: %d\n", name,
	        (unsigned long long)tu_state, rgpu_rkt_max_len(1));
	random_sets(n);
	if (rows_only) return tu_done("test_gpu");
	if (argc <= 3 || atoi(argv[3])) big_sets();  /* argv[3] = 0: not the big sets (the emulator) */
	long_reads();
	return tu_done("test_gpu");
#endif
}
