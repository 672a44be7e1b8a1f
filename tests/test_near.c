/* The --max-dist filter (src/algo/near.c) against the naive edit distance: every pair within
 * D must be a candidate (exactness), lists ascending and unique with j > i, and on unrelated
 * random reads the filter must drop nearly every pair (else it filters nothing).
 * Sets: random reads of mixed lengths (some too short to cut), with copies carrying 0 to
 * D + 2 random edits (substitutions, insertions, deletions, clustered or spread), unknown
 * symbols (N = N only) and low-complexity runs.
 * A team of three threads sharing the sampling must reach the plan, estimates and row costs
 * of one process alone.
 * Usage: test_near [SETS] [SEED] */
#include <stdio.h>
#include <stdlib.h>
#include <math.h>
#include <string.h>
#include <pthread.h>
#include "testutil.h"
#include "naive_dp.h"
#include "algo/near.h"
#include "algo/near_apx.h"

static char sym(void)
{
	static const char s[] = "ACGTACGTACGTACGTN";
	return s[tu_range(0, 16)];
}

/* a copy of src with e random edits, into dst (room for len + e + 1) */
static long mutate(const char *src, long len, long e, char *dst, int clustered)
{
	long n = len;
	memcpy(dst, src, (size_t)len);
	long at = tu_range(0, len);
	for (long k = 0; k < e; k++) {
		long p = clustered ? at + tu_range(-3, 3) : tu_range(0, n);
		if (p < 0) p = 0;
		if (p > n) p = n;
		int op = (int)tu_range(0, 2);
		if (op == 0 && p < n) dst[p] = sym();
		else if (op == 1) { memmove(dst + p + 1, dst + p, (size_t)(n - p)); dst[p] = sym(); n++; }
		else if (p < n) { memmove(dst + p, dst + p + 1, (size_t)(n - p - 1)); n--; }
	}
	dst[n] = 0;
	return n;
}

static int cmp_i64(const void *a, const void *b)
{
	const int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
	return (x > y) - (x < y);
}

static void one_set(int it)
{
	const int64_t D = tu_range(0, 3) ? tu_range(0, 12) : tu_range(13, 40);
	const int nb = (int)tu_range(2, 30);
	int n = 0;
	char *seq[200];
	int64_t len[200];
	for (int b = 0; b < nb && n < 190; b++) {
		long l = tu_range(0, 5) ? tu_range(40, 300) : tu_range(1, 40);
		char *s = malloc((size_t)l + 1);
		for (long k = 0; k < l; k++) s[k] = sym();
		if (tu_range(0, 6) == 0) for (long k = tu_range(0, l - 1), e = k + tu_range(0, 30); k < e && k < l; k++) s[k] = 'A';
		s[l] = 0;
		seq[n] = s; len[n] = l; n++;
		for (int c = (int)tu_range(0, 4); c > 0 && n < 199; c--) {
			const long e = tu_range(0, D + 2);
			char *m = malloc((size_t)(l + e + 1));
			len[n] = mutate(s, l, e, m, (int)tu_range(0, 1));
			seq[n++] = m;
		}
	}
	for (int i = n - 1; i > 0; i--) {  /* shuffle: copies far from their source */
		int j = (int)tu_range(0, i);
		char *t = seq[i]; seq[i] = seq[j]; seq[j] = t;
		int64_t u = len[i]; len[i] = len[j]; len[j] = u;
	}
	aln_near_t *f = 0;
	aln_near_scr_t scr;
	/* the plan: exact segments, or k approximate pieces (any k allowed for D) */
	const int kind = tu_range(0, 2) ? (int)tu_range(D / 2 + 1, D / 2 + 1 + 6 < 32 ? D / 2 + 1 + 6 : 32) : ALN_NEAR_EXACT;
	CHECK(aln_near_build(&f, n, (const char *const *)seq, len, D, kind) == RK_OK, "build");
	CHECK(aln_near_scratch(f, &scr) == RK_OK, "scratch");
	int64_t *js = malloc(sizeof *js * (size_t)(n + 1));
	long within = 0;
	for (int i = 0; i < n; i++) {
		const int64_t c = aln_near_cands(f, i, js, &scr);
		for (int64_t q = 0; q < c; q++) {
			CHECK(js[q] > i && js[q] < n, "set %d: read %d: candidate %lld out of range", it, i, (long long)js[q]);
			CHECK(q == 0 || js[q] > js[q - 1], "set %d: read %d: candidates not ascending and unique", it, i);
		}
		for (int j = i + 1; j < n; j++) {
			const int64_t dd = naive_lev(seq[i], len[i], seq[j], len[j], 0);
			if (dd > D) continue;
			within++;
			CHECK(bsearch(&(int64_t){ j }, js, (size_t)c, sizeof *js, cmp_i64) != 0,
			      "set %d (D %lld, plan %d): pair (%d, %d) at distance %lld, lengths %lld %lld, is not a candidate", it, (long long)D, kind, i, j,
			      (long long)dd, (long long)len[i], (long long)len[j]);
		}
	}
	(void)within;
	/* the batched form (several threads, a range of rows) gives the same lists */
	const int64_t r0 = tu_range(0, n), r1 = tu_range(r0, n);
	int64_t *off = 0, *all = 0;
	CHECK(aln_near_rows(f, r0, r1, (int)tu_range(1, 4), &off, &all) == RK_OK, "rows");
	for (int64_t r = r0; off && r < r1; r++) {
		const int64_t c = aln_near_cands(f, r, js, &scr);
		CHECK(off[r - r0 + 1] - off[r - r0] == c && !memcmp(all + off[r - r0], js, sizeof *js * (size_t)c),
		      "set %d: aln_near_rows [%lld, %lld) differs at row %lld", it, (long long)r0, (long long)r1, (long long)r);
	}
	free(off); free(all);
	aln_near_free(f);
	free(scr.mark); free(js);
	for (int i = 0; i < n; i++) free(seq[i]);
}

/* The plan against a GPU's rate (3 ns a pair of 150 bp, the whole device) with the filter on
 * 1 and on 16 host threads: every pair's estimate is the same, the filter's are divided by the
 * threads (16x or less: a k pruned on one thread may be tried on 16), and each plan chosen is
 * the cheapest of its estimates */
static void choose_par(int n, const char *const *seq, const int64_t *len)
{
	double e[2][3];
	int plan[2];
	for (int t = 0; t < 2; t++) {
		aln_near_t *g = 0;
		plan[t] = aln_near_choose(&g, n, seq, len, 10, 3.0, t ? 16 : 1, 1, 0, e[t]);
		aln_near_free(g);
		const double lo = fmin(e[t][1], e[t][2]);
		CHECK(plan[t] == ALN_NEAR_FULL ? e[t][0] <= lo : plan[t] == ALN_NEAR_EXACT ? e[t][1] <= e[t][0] && e[t][1] <= e[t][2]
		                                                  : e[t][2] <= e[t][0] && e[t][2] <= e[t][1],
		      "par %d: plan %d is not the cheapest of %g %g %g", t ? 16 : 1, plan[t], e[t][0], e[t][1], e[t][2]);
	}
	CHECK(e[0][0] == e[1][0], "every pair: %g on 1 thread, %g on 16", e[0][0], e[1][0]);
	CHECK(isinf(e[0][1]) ? isinf(e[1][1]) : fabs(e[1][1] * 16 - e[0][1]) <= 1e-9 * e[0][1],
	      "exact segments: %g on 1 thread, %g on 16", e[0][1], e[1][1]);
	CHECK(isinf(e[0][2]) || e[1][2] * 16 <= e[0][2] * (1 + 1e-9), "pieces: %g on 1 thread, %g on 16", e[0][2], e[1][2]);
	fprintf(stderr, "test_near: plan at a GPU's rate, 1 / 16 filter threads: %d / %d (estimates %g / %g ns)\n", plan[0], plan[1],
	        fmin(e[0][1], e[0][2]), fmin(e[1][1], e[1][2]));
}

/* 2,000 unrelated random reads of 150 bp at D = 10: about 2e6 pairs, none within 10; the
 * filter must let through almost none (a random 13-mer on its diagonal band: ~1e-8 per pair) */
static void selectivity(void)
{
	const int n = 2000;
	char **seq = malloc(sizeof *seq * n);
	int64_t *len = malloc(sizeof *len * n), *js = malloc(sizeof *js * (n + 1)), cand = 0;
	for (int i = 0; i < n; i++) {
		seq[i] = malloc(151);
		for (int k = 0; k < 150; k++) seq[i][k] = "ACGT"[tu_range(0, 3)];
		seq[i][150] = 0; len[i] = 150;
	}
	aln_near_t *f = 0;
	aln_near_scr_t scr;
	CHECK(aln_near_build(&f, n, (const char *const *)seq, len, 10, ALN_NEAR_EXACT) == RK_OK && aln_near_scratch(f, &scr) == RK_OK, "build");
	for (int i = 0; i < n; i++) cand += aln_near_cands(f, i, js, &scr);
	CHECK(cand <= 100, "unrelated reads: %lld of %d pairs are candidates", (long long)cand, n * (n - 1) / 2);
	fprintf(stderr, "test_near: unrelated 2,000 x 150 bp, D 10: %lld of %d pairs pass the filter\n", (long long)cand, n * (n - 1) / 2);
	aln_near_free(f);
	free(scr.mark); free(js);
	choose_par(n, (const char *const *)seq, len);
	free(len);
	for (int i = 0; i < n; i++) free(seq[i]);
	free(seq);
}

/* ---- a team of threads standing in for ranks: sums through a barrier ---- */
#define TEAM 3
typedef struct {
	pthread_barrier_t bar;
	pthread_mutex_t mu;
	double acc[512];
	int64_t n;
	const char *const *seq;
	const int64_t *len;
	int64_t d;
	int plan[TEAM], with_bcast, sent;
	double est[TEAM][3], *cost[TEAM];
	int64_t *cands[TEAM];   /* every row's candidates under the member's index, rows one after another */
	void *root_buf;
} team_t;

static void team_sum(void *ctx, double *x, int64_t m)
{
	team_t *t = ctx;
	if (pthread_barrier_wait(&t->bar) == PTHREAD_BARRIER_SERIAL_THREAD) memset(t->acc, 0, sizeof t->acc);
	pthread_barrier_wait(&t->bar);
	pthread_mutex_lock(&t->mu);
	for (int64_t k = 0; k < m; k++) t->acc[k] += x[k];
	pthread_mutex_unlock(&t->mu);
	pthread_barrier_wait(&t->bar);
	memcpy(x, t->acc, sizeof *x * (size_t)m);
	pthread_barrier_wait(&t->bar);
}

static _Thread_local int team_part;

static void team_bcast(void *ctx, void *buf, int64_t bytes, int root)
{
	team_t *t = ctx;
	if (team_part == root) { t->root_buf = buf; t->sent++; }
	pthread_barrier_wait(&t->bar);
	if (team_part != root) memcpy(buf, t->root_buf, (size_t)bytes);
	pthread_barrier_wait(&t->bar);
}

typedef struct { team_t *t; int part; } member_t;

/* every row's candidates under f, one row after another (-1 between rows) */
static int64_t *team_cands(const aln_near_t *f, int64_t n)
{
	aln_near_scr_t scr;
	int64_t *all = malloc(sizeof *all * (size_t)(n * (n + 1) / 2 + n + 1)), *js = malloc(sizeof *js * (size_t)(n + 1)), o = 0;
	if (aln_near_scratch(f, &scr) != RK_OK) return all;
	for (int64_t i = 0; i < n; i++) {
		const int64_t c = aln_near_cands(f, i, js, &scr);
		memcpy(all + o, js, sizeof *js * (size_t)c);
		o += c;
		all[o++] = -1;
	}
	free(scr.mark); free(js);
	return all;
}

static void *team_member(void *arg)
{
	member_t *me = arg;
	team_t *t = me->t;
	const aln_near_team_t team = { team_sum, t, me->part, TEAM, t->with_bcast ? team_bcast : 0 };
	aln_near_t *f = 0;
	team_part = me->part;
	t->plan[me->part] = aln_near_choose(&f, t->n, t->seq, t->len, t->d, 200.0, 1, 1, &team, t->est[me->part]);
	if (f && aln_near_costs(f, 200.0, &team, t->cost[me->part]) != RK_OK) t->cost[me->part][0] = -1;
	t->cands[me->part] = f ? team_cands(f, t->n) : 0;
	aln_near_free(f);
	return 0;
}

/* the approximate pieces' index copied array by array into one made from its head gives the
 * same candidates; a head of other reads, or arrays garbled, are refused */
static void send_check(int64_t n, const char *const *seq, const int64_t *len)
{
	near_apx_t *a = 0, *b = 0;
	int64_t h[APX_HEAD], ba[APX_PIECES], bb[APX_PIECES];
	void *pa[APX_PIECES], *pb[APX_PIECES];
	CHECK(near_apx_build(&a, n, seq, len, 12, 8) == RK_OK, "build");
	near_apx_head(a, h);
	CHECK(near_apx_from_head(&b, h, n - 1, seq, len) == RK_ERES && !b, "a head of other reads is refused");
	CHECK(near_apx_from_head(&b, h, n, seq, len) == RK_OK, "from the head");
	const int m = near_apx_pieces(a, pa, ba);
	CHECK(m > 2 && near_apx_pieces(b, pb, bb) == m && !memcmp(ba, bb, sizeof *ba * (size_t)m), "the same pieces");
	for (int x = 0; x < m; x++) memcpy(pb[x], pa[x], (size_t)ba[x]);
	CHECK(near_apx_valid(b), "the copy is valid");
	int64_t c1, c2, h1, h2, *js1 = malloc(sizeof *js1 * (size_t)(n + 1)), *js2 = malloc(sizeof *js2 * (size_t)(n + 1));
	int64_t *mark = calloc((size_t)n + 1, sizeof *mark);
	for (int64_t i = 0; i < n; i++) {
		c1 = near_apx_cands(a, i, js1, mark, &h1);
		c2 = near_apx_cands(b, i, js2, mark, &h2);
		CHECK(c1 == c2 && h1 == h2 && !memcmp(js1, js2, sizeof *js1 * (size_t)c1), "row %lld: the copy gives %lld candidates, the index %lld",
		      (long long)i, (long long)c2, (long long)c1);
	}
	((uint32_t *)pb[0])[ba[0] / 8] ^= 0x55555;  /* a bucket's start, half way */
	CHECK(!near_apx_valid(b), "a garbled start is refused");
	((uint32_t *)pb[0])[ba[0] / 8] ^= 0x55555;
	((uint32_t *)pb[1])[0] = (uint32_t)(n << 5);  /* an entry of read n */
	CHECK(!near_apx_valid(b), "an entry of a read past the last is refused");
	free(js1); free(js2); free(mark);
	near_apx_free(a); near_apx_free(b);
}

/* reads of 72 bp from 300 loci at d 12 (the approximate pieces' ground): the team's plan,
 * estimates, costs and candidates equal one process's, whether the index chosen is sent to
 * the members that did not build it or built by each */
static void team_check(int with_bcast)
{
	const int n = 1500;
	char **seq = malloc(sizeof *seq * n), (*loc)[73] = malloc(sizeof *loc * 300);
	int64_t *len = malloc(sizeof *len * n);
	for (int l = 0; l < 300; l++) { for (int k = 0; k < 72; k++) loc[l][k] = "ACGT"[tu_range(0, 3)]; loc[l][72] = 0; }
	for (int i = 0; i < n; i++) {
		seq[i] = malloc(72 + 16);
		len[i] = mutate(loc[tu_range(0, 299)], 72, tu_range(0, 14), seq[i], (int)tu_range(0, 1));
	}
	free(loc);
	team_t t = { .n = n, .seq = (const char *const *)seq, .len = len, .d = 12, .with_bcast = with_bcast };
	pthread_barrier_init(&t.bar, 0, TEAM);
	pthread_mutex_init(&t.mu, 0);
	double est[3], *cost = calloc((size_t)n, sizeof *cost);
	aln_near_t *f = 0;
	const int plan = aln_near_choose(&f, n, t.seq, len, 12, 200.0, 1, 1, 0, est);
	if (f) CHECK(aln_near_costs(f, 200.0, 0, cost) == RK_OK, "costs alone");
	if (with_bcast) send_check(n, t.seq, len);
	int64_t *cands = f ? team_cands(f, n) : 0, ncand = 0;
	for (int64_t rows = 0; cands && rows < n; ncand++) rows += cands[ncand] < 0;
	if (with_bcast) {
		/* one process on 4 threads: the plans built side by side, the same choice */
		double est4[3], *cost4 = calloc((size_t)n, sizeof *cost4);
		aln_near_t *f4 = 0;
		const int plan4 = aln_near_choose(&f4, n, t.seq, len, 12, 200.0, 1, 4, 0, est4);
		CHECK(plan4 == plan && !memcmp(est4, est, sizeof est), "4 threads: plan %d (%g %g %g), 1 thread %d (%g %g %g)", plan4,
		      est4[0], est4[1], est4[2], plan, est[0], est[1], est[2]);
		CHECK(f4 && aln_near_costs(f4, 200.0, 0, cost4) == RK_OK && !memcmp(cost4, cost, sizeof *cost * (size_t)n),
		      "4 threads: row costs differ from 1 thread's");
		int64_t *c4 = f4 ? team_cands(f4, n) : 0;
		CHECK(c4 && cands && !memcmp(c4, cands, sizeof *cands * (size_t)ncand), "4 threads: candidates differ from 1 thread's");
		free(c4); free(cost4);
		aln_near_free(f4);
	}
	aln_near_free(f);
	pthread_t th[TEAM];
	member_t m[TEAM];
	for (int r = 0; r < TEAM; r++) {
		t.cost[r] = calloc((size_t)n, sizeof *t.cost[r]);
		m[r] = (member_t){ &t, r };
		pthread_create(&th[r], 0, team_member, &m[r]);
	}
	for (int r = 0; r < TEAM; r++) pthread_join(th[r], 0);
	for (int r = 0; r < TEAM; r++) {
		CHECK(t.plan[r] == plan && !memcmp(t.est[r], est, sizeof est), "team member %d: plan %d (%g %g %g), alone %d (%g %g %g)", r,
		      t.plan[r], t.est[r][0], t.est[r][1], t.est[r][2], plan, est[0], est[1], est[2]);
		CHECK(!memcmp(t.cost[r], cost, sizeof *cost * (size_t)n), "team member %d: row costs differ from one process's", r);
		CHECK(cands && t.cands[r] && !memcmp(t.cands[r], cands, sizeof *cands * (size_t)ncand),
		      "team member %d (index %s): candidates differ from one process's", r, with_bcast ? "sent" : "built by each");
		free(t.cost[r]); free(t.cands[r]);
	}
	CHECK(plan > 0, "72 bp at d 12: plan %d, not approximate pieces (the test's ground)", plan);
	/* the test's ground: 2 tries at d 12 (k 8 and 9), so the chosen one was built by one member
	 * and sent: its head, then its arrays */
	CHECK(!with_bcast || t.sent > 1, "the chosen index was not sent (%d broadcasts)", t.sent);
	fprintf(stderr, "test_near: a team of %d (index %s), 1,500 x 72 bp at d 12: plan %d, estimate %.3g ns, as one process\n", TEAM,
	        with_bcast ? "sent" : "built by each", plan, est[2]);
	free(cands);
	pthread_barrier_destroy(&t.bar);
	pthread_mutex_destroy(&t.mu);
	free(cost); free(len);
	for (int i = 0; i < n; i++) free(seq[i]);
	free(seq);
}

int main(int argc, char **argv)
{
	const int sets = argc > 1 ? atoi(argv[1]) : 400;
	if (argc > 2) tu_state = strtoull(argv[2], 0, 10);
	for (int it = 0; it < sets; it++) one_set(it);
	selectivity();
	team_check(1);
	team_check(0);
	return tu_done("test_near");
}
