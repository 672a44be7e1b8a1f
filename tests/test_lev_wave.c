/* lev by wavefronts (src/algo/lev_wave.c) against the naive DP (naive_dp.c, which shares no
 * code with src/): distances and canonical CIGARs on random pairs of every divergence and on
 * adversarial ones (empty, 1 bp, identical, unrelated, very unequal lengths, runs of one
 * symbol, N, tandem repeats); the cap (0 above it, never a wrong answer); then batches with
 * every strategy forced (RKTLCS_LEV_WAVE: wavefronts for every pair, by the cost, never) and
 * -k below and above the distances give byte-identical distances and paths.
 * Usage: test_lev_wave [N_RANDOM_CASES]   (default 3000) */
#include <math.h>
#include "testutil.h"
#include "naive_dp.h"
#include "algo/lev.h"
#include "algo/lev_wave.h"

static char *cigar_of(const aln_path_t *p)
{
	int64_t n = aln_path_cigar(p, 0, 0);
	char *s = malloc((size_t)n + 1);
	aln_path_cigar(p, s, n + 1);
	return s;
}

/* b from a: point edits, indels and a few long gaps at rate pct percent */
static int64_t mutate(const char *a, int64_t la, char *b, int pct, const char *abc, int na)
{
	int64_t lb = 0;
	for (int64_t i = 0; i < la; i++) {
		long r = tu_range(0, 9999);
		if (r < pct * 33) b[lb++] = abc[tu_range(0, na - 1)];                    /* substitution (or not) */
		else if (r < pct * 66) continue;                                          /* deletion from a */
		else if (r < pct * 100) { b[lb++] = abc[tu_range(0, na - 1)]; b[lb++] = a[i]; }   /* insertion */
		else b[lb++] = a[i];
		if (r == 9999 && tu_range(0, 3) == 0) i += tu_range(1, 40);              /* a long gap */
	}
	b[lb] = 0;
	return lb;
}

static void one(const char *what, const char *a, int64_t la, const char *b, int64_t lb, lev_wave_t *w)
{
	char *ops = 0;
	const int64_t want = naive_lev(a, la, b, lb, &ops);
	char *wc = naive_cigar(ops);
	aln_path_t p = { 0 };
	int64_t d = -7;
	int r = lev_wave(w, a, la, b, lb, la + lb, 1, &d, &p);
	char *c = cigar_of(&p);
	CHECK(r == 1 && d == want && !strcmp(c, wc), "%s: la %lld lb %lld: wave %d d %lld cigar %s, naive d %lld cigar %s",
	      what, (long long)la, (long long)lb, r, (long long)d, c, (long long)want, wc);
	/* the cap: one below the distance says "above", at it gives the answer */
	if (want > 0) {
		int64_t d2 = -7;
		r = lev_wave(w, a, la, b, lb, want - 1, 0, &d2, 0);
		CHECK(r == 0 && d2 == -7, "%s: cap %lld below the distance: %d %lld", what, (long long)want - 1, r, (long long)d2);
	}
	r = lev_wave(w, a, la, b, lb, want, 0, &d, 0);
	CHECK(r == 1 && d == want, "%s: cap at the distance: %d %lld want %lld", what, r, (long long)d, (long long)want);
	free(c); free(wc); free(ops);
	aln_path_free(&p);
}

static void adversarial(lev_wave_t *w)
{
	static const struct { const char *a, *b; } ex[] = {
		{ "", "" }, { "", "ACG" }, { "ACG", "" }, { "A", "A" }, { "A", "C" }, { "A", "AA" }, { "AA", "A" },
		{ "ACGT", "ACGT" }, { "AAAA", "TTTT" }, { "ACGTACGTACGTACGTACGT", "CGTACGTACGTACGTACGTA" },
		{ "NNNNNNNN", "NNNNNNNN" }, { "ANNNNNNT", "ATNNNNNNA" }, { "AAAAAAAAAAAAAAAAAAAAA", "AAAAAAAAAA" },
		{ "ACACACACACACACACAC", "CACACACACACACACACA" }, { "GATTACA", "GCATGCU" },
	};
	for (size_t i = 0; i < sizeof ex / sizeof ex[0]; i++) one("fixed", ex[i].a, (int64_t)strlen(ex[i].a), ex[i].b, (int64_t)strlen(ex[i].b), w);
	char a[600], b[1300];
	/* very unequal lengths, runs of one symbol, a read against itself shifted */
	for (int t = 0; t < 60; t++) {
		int64_t la = tu_range(0, 300), lb = tu_range(0, 3) ? tu_range(0, 12) : tu_range(300, 600);
		for (int64_t i = 0; i < la; i++) a[i] = t % 3 ? "ACGT"[tu_range(0, 3)] : 'A';
		for (int64_t i = 0; i < lb; i++) b[i] = t % 3 ? "ACGT"[tu_range(0, 3)] : (tu_range(0, 9) ? 'A' : 'C');
		one("unequal", a, la, b, lb, w);
		one("unequal, swapped", b, lb, a, la, w);
	}
	/* the long pairs' stops (0 after a, 1 after b): bytes 0 and 1 inside the pairs fall back to
	 * extensions with bounds, and either way the answer is the naive DP's */
	for (int t = 0; t < 40; t++) {
		int64_t la = tu_range(70, 400), lb = la - 5 + tu_range(0, 10);
		for (int64_t i = 0; i < la; i++) a[i] = "\0\1AC"[tu_range(0, t % 2 ? 3 : 1) + (t % 2 ? 0 : 2)];
		for (int64_t i = 0; i < lb; i++) b[i] = tu_range(0, 9) ? a[i < la ? i : la - 1] : "\0\1AC"[tu_range(0, 3)];
		one(t % 2 ? "bytes 0 and 1" : "long", a, la, b, lb, w);
	}
	for (int t = 0; t < 30; t++) {
		int64_t la = tu_range(20, 500), sh = tu_range(1, 19);
		tu_read(a, la, 4, 0);
		memcpy(b, a + sh, (size_t)(la - sh));
		memcpy(b + la - sh, a, (size_t)sh);
		one("rotated", a, la, b, la, w);
	}
}

static void randoms(int n, lev_wave_t *w)
{
	char a[700], b[1500];
	static const int pcts[] = { 0, 1, 2, 5, 10, 15, 25, 40, 100 };
	for (int t = 0; t < n; t++) {
		int64_t la = tu_range(0, t % 10 ? 200 : 640);
		const int na = t % 7 == 0 ? 2 : 4;
		for (int64_t i = 0; i < la; i++) a[i] = (t % 11 == 0 && tu_range(0, 9) == 0) ? 'N' : "ACGT"[tu_range(0, na - 1)];
		a[la] = 0;
		const int pct = pcts[t % 9];
		int64_t lb = pct == 100 ? tu_range(0, 200) : mutate(a, la, b, pct, "ACGTN", na == 2 ? 2 : 5);
		if (pct == 100) for (int64_t i = 0; i < lb; i++) b[i] = "ACGT"[tu_range(0, na - 1)];
		one("random", a, la, b, lb, w);
	}
}

/* one pair under the three strategies: the same distance, and (pp set) the same CIGAR */
static int same3(int64_t d0, int64_t d1, int64_t d2, const aln_path_t *const *pp)
{
	int same = d0 == d1 && d0 == d2;
	if (same && pp) {
		char *c0 = cigar_of(pp[0]), *c1 = cigar_of(pp[1]), *c2 = cigar_of(pp[2]);
		same = !strcmp(c0, c1) && !strcmp(c0, c2);
		free(c0); free(c1); free(c2);
	}
	return same;
}

/* the batch by the cost under forced rates (lev_tune.h): every cap the built-in one (none), 4
 * (the wavefronts dear) and every pair's length (the wavefronts free) gives the sweep's bytes
 * (d0, p0: the sweep alone) */
static void forced_caps(const aln_pair_t *p, int64_t n, int64_t k, int path, const int64_t *d0, const aln_path_t *p0)
{
	static const lev_cap_t dear = { 1, 1, 1e-12 }, free_ = { 0, 1e-12, 1 };
	const lev_cap_t *rates[] = { 0, &dear, &free_ };
	CHECK(lev_wave_cap(150, 150, path, &dear, 1) == 4 && lev_wave_cap(150, 150, path, &free_, 1) == 150, "forced caps: %lld %lld",
	      (long long)lev_wave_cap(150, 150, path, &dear, 1), (long long)lev_wave_cap(150, 150, path, &free_, 1));
	for (int c = 0; c < 3; c++) {
		lev_cap_force(path, rates[c]);
		lev_opt_t o;
		lev_opt_init(&o);
		o.k = k, o.path = path, o.n_threads = 2;
		int64_t *d = calloc((size_t)n, sizeof(int64_t)), bad = 0;
		aln_path_t *pp = path ? calloc((size_t)n, sizeof(aln_path_t)) : 0;
		CHECK(lev_batch(&o, p, n, d, pp) == RK_OK, "lev_batch, forced rates %d", c);
		for (int64_t i = 0; i < n; i++) {
			int same = d[i] == d0[i];
			if (same && path) {
				char *x = cigar_of(&pp[i]), *y = cigar_of(&p0[i]);
				same = !strcmp(x, y);
				free(x); free(y);
			}
			if (!same && bad++ < 3) CHECK(0, "forced rates %d, pair %lld (path %d, k %lld): %lld, the sweep %lld", c, (long long)i, path,
			                             (long long)k, (long long)d[i], (long long)d0[i]);
			if (pp) aln_path_free(&pp[i]);
		}
		CHECK(bad == 0, "forced rates %d, path %d, k %lld: %lld pairs differ from the sweep", c, path, (long long)k, (long long)bad);
		free(d); free(pp);
	}
	lev_cap_force(path, 0);
}

/* a batch with every strategy forced, -k none, small, large: the same bytes. divergent: all
 * pairs 60% apart but every 50th identical, so the wavefronts solve a few and the sweep takes
 * the whole batch in place (lev_batch's LEV_FEW_SOLVED) */
static void batches(int divergent)
{
	enum { N = 3000 };
	static char A[N][260], Bs[N][600];
	aln_pair_t *p = malloc(sizeof(aln_pair_t) * N);
	static const int pcts[] = { 0, 1, 5, 15, 25, 60 };
	for (int i = 0; i < N; i++) {
		int64_t la = i % 50 == 0 ? tu_range(0, 3) : tu_range(100, 250);
		tu_read(A[i], la, 4, 0);
		tu_norm(A[i]);
		int64_t lb = mutate(A[i], la, Bs[i], divergent ? (i % 50 ? 60 : 0) : pcts[(i / 7) % 6], "ACGT", 4);
		p[i] = (aln_pair_t){ A[i], Bs[i], la, lb };
	}
	static const int64_t ks[] = { -1, 3, 20, 1000 };
	for (int path = 0; path <= 1; path++)
		for (size_t ki = 0; ki < sizeof ks / sizeof ks[0]; ki++) {
			int64_t *d[3];
			aln_path_t *pp[3];
			for (int s = 0; s < 3; s++) {
				rk_tune.lev_wave = s - 1;   /* -1 never, 0 by the cost, 1 every pair */
				lev_opt_t o;
				lev_opt_init(&o);
				o.k = ks[ki], o.path = path, o.n_threads = 1 + s;
				d[s] = calloc(N, sizeof(int64_t));
				pp[s] = path ? calloc(N, sizeof(aln_path_t)) : 0;
				CHECK(lev_batch(&o, p, N, d[s], pp[s]) == RK_OK, "lev_batch strategy %d k %lld", s - 1, (long long)ks[ki]);
			}
			rk_tune.lev_wave = 0;
			forced_caps(p, N, ks[ki], path, d[0], pp[0]);
			int64_t bad = 0;
			for (int i = 0; i < N; i++) {
				const int same = same3(d[0][i], d[1][i], d[2][i], path ? (const aln_path_t *[]){ &pp[0][i], &pp[1][i], &pp[2][i] } : 0);
				if (!same && bad++ < 3)
					CHECK(0, "batch pair %d (path %d, k %lld): distances %lld %lld %lld", i, path, (long long)ks[ki], (long long)d[0][i],
					      (long long)d[1][i], (long long)d[2][i]);
			}
			CHECK(bad == 0, "batch, path %d, k %lld: %lld pairs differ between the strategies", path, (long long)ks[ki], (long long)bad);
			for (int s = 0; s < 3; s++) {
				if (pp[s]) for (int i = 0; i < N; i++) aln_path_free(&pp[s][i]);
				free(pp[s]); free(d[s]);
			}
		}
	free(p);
}

/* long pairs (lev_wave_cap's second regime): every strategy forced on the same pairs, one
 * thread and three, with and without the path; the sweep alone (never) shares no code with the
 * wavefronts, and a few pairs against the naive DP */
static void long_batches(void)
{
	enum { N = 30, MAXL = 6000 };
	static char A[N][MAXL + 1], Bs[N][2 * MAXL + 2];
	aln_pair_t p[N];
	static const int pcts[] = { 0, 1, 5, 15, 40 };
	for (int i = 0; i < N; i++) {
		int64_t la = tu_range(1000, MAXL);
		tu_read(A[i], la, 4, 0);
		tu_norm(A[i]);
		p[i] = (aln_pair_t){ A[i], Bs[i], la, mutate(A[i], la, Bs[i], pcts[i % 5], "ACGT", 4) };
	}
	for (int path = 0; path <= 1; path++) {
		int64_t d[3][N];
		aln_path_t pp[3][N];
		memset(pp, 0, sizeof pp);
		for (int s = 0; s < 3; s++) {
			rk_tune.lev_wave = s - 1;
			lev_opt_t o;
			lev_opt_init(&o);
			o.path = path, o.n_threads = 1 + 2 * (s & 1);
			CHECK(lev_batch(&o, p, N, d[s], path ? pp[s] : 0) == RK_OK, "long batch, strategy %d", s - 1);
		}
		rk_tune.lev_wave = 0;
		for (int i = 0; i < N; i++) {
			const int same = same3(d[0][i], d[1][i], d[2][i], path ? (const aln_path_t *[]){ &pp[0][i], &pp[1][i], &pp[2][i] } : 0);
			CHECK(same, "long pair %d (%lld x %lld, path %d): %lld %lld %lld", i, (long long)p[i].la, (long long)p[i].lb, path,
			      (long long)d[0][i], (long long)d[1][i], (long long)d[2][i]);
			if (path && i < 5) CHECK(naive_lev(p[i].a, p[i].la, p[i].b, p[i].lb, 0) == d[1][i], "long pair %d: naive", i);
			for (int s = 0; s < 3; s++) aln_path_free(&pp[s][i]);
		}
	}
}

/* lev_cap_choose on samples with known answers: rates a 0, b 1, s 1 and 100 word steps a pair
 * (break-even d^2 100): all at d^2 25 -> theta 0.25; all above the tries -> 0 (the sweep); half
 * and half -> 0.25 (75 against the sweep's 100); half at 25, half at 400 within tries of 4x -> 4
 * is dearer (every pair 212.5) than 0.25 (25 / 2 + (25 + 100) / 2 = 75) */
static void choose_known(void)
{
	const lev_cap_t m = { 0, 1, 1 };
	double d2[8], w[8];
	for (int i = 0; i < 8; i++) w[i] = 100, d2[i] = 25;
	CHECK(fabs(lev_cap_choose(&m, d2, w, 8, 4) - 0.25) < 1e-9, "choose: all at 25: %g", lev_cap_choose(&m, d2, w, 8, 4));
	for (int i = 0; i < 8; i++) d2[i] = -1;
	CHECK(lev_cap_choose(&m, d2, w, 8, 4) == 0, "choose: all above: %g", lev_cap_choose(&m, d2, w, 8, 4));
	for (int i = 0; i < 8; i++) d2[i] = i & 1 ? -1 : 25;
	CHECK(fabs(lev_cap_choose(&m, d2, w, 8, 4) - 0.25) < 1e-9, "choose: half: %g", lev_cap_choose(&m, d2, w, 8, 4));
	for (int i = 0; i < 8; i++) d2[i] = i & 1 ? 400 : 25;
	CHECK(fabs(lev_cap_choose(&m, d2, w, 8, 4) - 0.25) < 1e-9, "choose: half far: %g", lev_cap_choose(&m, d2, w, 8, 4));
	for (int i = 0; i < 8; i++) d2[i] = i & 1 ? 81 : 25;
	CHECK(fabs(lev_cap_choose(&m, d2, w, 8, 4) - 0.81) < 1e-9, "choose: all below even: %g", lev_cap_choose(&m, d2, w, 8, 4));
}

/* a batch large enough, and far enough apart, that the built-in cap leaves many pairs to the
 * sweep: it measures this machine's rates (lev_tune.c), the pairs they raise the cap of try
 * again, and the bytes are the sweep's. Then the measurement made to give a cap of 30 (the
 * re-try solves most of the pairs, the sweep the rest) and every pair's length (all of them). */
static void measured_caps(void)
{
	static const lev_cap_t at30 = { 0, 1, 2 }, all = { 0, 1e-12, 1 };
	const lev_cap_t *next[] = { 0, &at30, &all };
	enum { N = 20000, L = 150 };
	char *buf = malloc((size_t)N * (3 * L + 2));
	aln_pair_t *p = malloc(sizeof(aln_pair_t) * N);
	for (int i = 0; i < N; i++) {
		char *a = buf + (size_t)i * (3 * L + 2), *b = a + L + 1;
		tu_read(a, L, 4, 0);
		tu_norm(a);
		p[i] = (aln_pair_t){ a, b, L, mutate(a, L, b, 10 + i % 11, "ACGT", 4) };
	}
	for (int path = 0; path <= 1; path++)
	for (int x = 0; x < 3; x++) {
		int64_t *d[2];
		aln_path_t *pp[2];
		for (int s = 0; s < 2; s++) {
			lev_cap_force(path, 0);   /* unmeasured */
			lev_cap_force_next(path, s ? next[x] : 0);
			rk_tune.lev_wave = s - 1;
			lev_opt_t o;
			lev_opt_init(&o);
			o.path = path, o.n_threads = 2;
			d[s] = calloc(N, sizeof(int64_t));
			pp[s] = path ? calloc(N, sizeof(aln_path_t)) : 0;
			CHECK(lev_batch(&o, p, N, d[s], pp[s]) == RK_OK, "measured caps: lev_batch strategy %d", s - 1);
		}
		rk_tune.lev_wave = 0;
		const lev_cap_t *m = lev_cap_get(path, 2);
		/* timed rates: a busy or sanitized machine may give no fit (the built-in rule then stays);
		 * the forced ones (x 1, 2) make the re-try certain */
		CHECK(x == 0 || m, "measured caps %d: the forced measurement gave no rates (path %d)", x, path);
		if (!m) printf("test_lev_wave: no fit of the rates on this machine (path %d): the built-in cap\n", path);
		CHECK(!m || (m->b > 0 && m->s > 0 && m->a >= 0), "measured caps: rates a %g b %g s %g", m ? m->a : 0, m ? m->b : 0, m ? m->s : 0);
		if (m) {
			const int64_t c = lev_wave_cap(L, L, path, m, 1);
			const double d2 = (m->s * 3 * L - m->a) / m->b;
			CHECK(c == L || (c >= 4 && (double)(c + 1) * (c + 1) > d2 && (c == 4 || (double)c * c <= d2)), "measured cap %lld for d^2 %.1f",
			      (long long)c, d2);
			CHECK(x != 1 || c == 30, "the measurement made to give a cap of 30: %lld", (long long)c);
			if (x == 0) printf("test_lev_wave: measured rates (%s, 2 threads): cap %lld at 150 bp (built-in %lld)\n", path ? "path" : "distance",
			       (long long)c, (long long)lev_wave_cap(L, L, path, 0, 0));
		}
		int64_t bad = 0;
		for (int i = 0; i < N; i++) {
			int same = d[0][i] == d[1][i];
			if (same && path) {
				char *x = cigar_of(&pp[0][i]), *y = cigar_of(&pp[1][i]);
				same = !strcmp(x, y);
				free(x); free(y);
			}
			if (!same && bad++ < 3) CHECK(0, "measured caps, pair %d (path %d): %lld, the sweep %lld", i, path, (long long)d[1][i], (long long)d[0][i]);
		}
		CHECK(bad == 0, "measured caps %d, path %d: %lld pairs differ from the sweep", x, path, (long long)bad);
		for (int s = 0; s < 2; s++) {
			if (pp[s]) for (int i = 0; i < N; i++) aln_path_free(&pp[s][i]);
			free(pp[s]); free(d[s]);
		}
		lev_cap_force(path, 0);
	}
	free(p); free(buf);
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 3000;
	lev_wave_t w = { 0 };
	adversarial(&w);
	randoms(n, &w);
	lev_wave_free(&w);
	batches(0);
	batches(1);
	long_batches();
	choose_known();
	measured_caps();
	printf("test_lev_wave: %d random cases, the batches under three strategies\n", n);
	return tu_done("test_lev_wave");
}
