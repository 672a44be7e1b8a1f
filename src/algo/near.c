/* The pigeonhole filter of lev --all --max-dist (near.h). */
#include <stdlib.h>
#include <omp.h>
#include <string.h>
#include <math.h>
#include "algo/near.h"
#include "algo/near_apx.h"

#define NEAR_B 0x100000001b3ull   /* base of the rolling hash (odd) */

/* The cost model of aln_near_choose and aln_near_costs, in ns on one thread (fitted to 20,000
 * real 72 bp reads at D 9 to 15 on a loaded 2-core Xeon, where these terms ranked the plans
 * in their measured order) */
#define NEAR_NS_PROBE 30.0  /* a bucket looked up (a cache miss) */
#define NEAR_NS_HIT 15.0    /* an index entry read */
#define NEAR_NS_PUT 10.0    /* an index entry built */
#define NEAR_SAMPLES 256    /* rows the candidates of a plan are counted on */
#define NEAR_TRIES 2        /* numbers of approximate pieces tried */

typedef struct {
	uint64_t h;      /* hash of the segment */
	int64_t j;       /* its read */
	int64_t off;     /* its offset in the read */
} near_ent_t;

typedef struct {
	int bits;
	uint64_t *start;  /* entries of bucket b: ent[start[b] .. start[b + 1]) */
	near_ent_t *ent;
	uint64_t bq;      /* NEAR_B^(q - 1), to roll the hash */
} near_tab_t;

struct aln_near_s {
	int64_t n, d, max_q;
	const char *const *seq;
	const int64_t *len;
	near_tab_t *tab;  /* by q (0 .. max_q); bits = 0: no read cut in q-grams */
	int64_t *weak, n_weak;  /* reads too short to cut, ascending */
	near_apx_t *apx;  /* the approximate-seed filter instead (near_apx.h) */
	int k;            /* its pieces */
	double samp[NEAR_SAMPLES + 1], samp_ns;  /* the sample rows' ns (near_sample) at pair_ns samp_ns (> 0) */
};

static int64_t near_q(int64_t len, int64_t d) { return d >= len ? 0 : len / (d + 1); }

static uint64_t near_hash(const char *s, int64_t q)
{
	uint64_t h = 0;
	for (int64_t k = 0; k < q; k++) h = h * NEAR_B + (unsigned char)s[k];
	return h;
}

static uint64_t near_bucket(uint64_t h, int bits) { return (h * 0x9E3779B97F4A7C15ull) >> (64 - bits); }

void aln_near_free(aln_near_t *f)
{
	if (!f) return;
	for (int64_t q = 0; f->tab && q <= f->max_q; q++) { free(f->tab[q].start); free(f->tab[q].ent); }
	free(f->tab); free(f->weak);
	near_apx_free(f->apx);
	free(f);
}

rk_status_t aln_near_build(aln_near_t **out, int64_t n, const char *const *seq, const int64_t *len, int64_t d, int kind)
{
	aln_near_t *f = calloc(1, sizeof *f);
	int64_t *cnt = 0;
	*out = 0;
	if (!f) goto oom;
	f->n = n; f->d = d; f->seq = seq; f->len = len;
	if (kind > 0) {
		rk_status_t st = near_apx_build(&f->apx, n, seq, len, d, kind);
		if (st) { aln_near_free(f); return st; }
		f->k = kind;
		*out = f;
		return RK_OK;
	}
	for (int64_t j = 0; j < n; j++) {
		const int64_t q = near_q(len[j], d);
		if (q >= ALN_NEAR_QMIN && q > f->max_q) f->max_q = q;
	}
	if (!(f->tab = calloc((size_t)f->max_q + 1, sizeof *f->tab)) || !(cnt = calloc((size_t)f->max_q + 1, sizeof *cnt)) ||
	    !(f->weak = malloc(sizeof *f->weak * (size_t)(n + 1))))
		goto oom;
	for (int64_t j = 0; j < n; j++) {
		const int64_t q = near_q(len[j], d);
		if (q >= ALN_NEAR_QMIN) cnt[q] += d + 1;
		else f->weak[f->n_weak++] = j;
	}
	for (int64_t q = ALN_NEAR_QMIN; q <= f->max_q; q++) {
		near_tab_t *t = &f->tab[q];
		if (!cnt[q]) continue;
		t->bits = 4;
		while (t->bits < 40 && ((uint64_t)1 << t->bits) < (uint64_t)cnt[q]) t->bits++;
		const uint64_t nb = (uint64_t)1 << t->bits;
		if (!(t->start = calloc(nb + 1, sizeof *t->start)) || !(t->ent = malloc(sizeof *t->ent * (size_t)cnt[q]))) goto oom;
		t->bq = 1;
		for (int64_t k = 1; k < q; k++) t->bq *= NEAR_B;
	}
	/* two passes: count per bucket, then place (reads ascending within a bucket) */
	for (int pass = 0; pass < 2; pass++) {
		for (int64_t j = 0; j < n; j++) {
			const int64_t q = near_q(len[j], d);
			if (q < ALN_NEAR_QMIN) continue;
			near_tab_t *t = &f->tab[q];
			for (int64_t s = 0; s <= d; s++) {
				const uint64_t h = near_hash(seq[j] + s * q, q), b = near_bucket(h, t->bits);
				if (!pass) t->start[b + 1]++;
				else t->ent[t->start[b]++] = (near_ent_t){ h, j, s * q };
			}
		}
		for (int64_t q = ALN_NEAR_QMIN; q <= f->max_q; q++) {
			near_tab_t *t = &f->tab[q];
			if (!t->bits) continue;
			const uint64_t nb = (uint64_t)1 << t->bits;
			if (!pass) for (uint64_t b = 0; b < nb; b++) t->start[b + 1] += t->start[b];
			else { for (uint64_t b = nb; b > 0; b--) t->start[b] = t->start[b - 1]; t->start[0] = 0; }  /* back to starts */
		}
	}
	free(cnt);
	*out = f;
	return RK_OK;
oom:
	free(cnt);
	aln_near_free(f);
	rk_set_error("out of memory for the --max-dist filter of %lld reads", (long long)n);
	return RK_ERES;
}

rk_status_t aln_near_scratch(const aln_near_t *f, aln_near_scr_t *s)
{
	if (!(s->mark = calloc((size_t)f->n + 1, sizeof *s->mark))) { rk_set_error("out of memory"); return RK_ERES; }
	return RK_OK;
}

static int near_cmp(const void *a, const void *b)
{
	const int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
	return (x > y) - (x < y);
}

int64_t aln_near_cands(const aln_near_t *f, int64_t i, int64_t *js, aln_near_scr_t *s)
{
	if (f->apx) {
		const int64_t c = near_apx_cands(f->apx, i, js, s->mark, &s->hits);
		qsort(js, (size_t)c, sizeof *js, near_cmp);
		return c;
	}
	const int64_t li = f->len[i], d = f->d, stamp = 1;
	const char *si = f->seq[i];
	int64_t c = 0;
	/* reads j within d of i in length have q_j in [qlo, qhi]: (li - d) / (d + 1) .. (li + d) / (d + 1) */
	int64_t qlo = li - d > 0 ? near_q(li - d, d) : 0, qhi = f->max_q;
	if (d < li) qhi = (li + d) / (d + 1) < qhi ? (li + d) / (d + 1) : qhi;
	if (qlo < ALN_NEAR_QMIN) qlo = ALN_NEAR_QMIN;
	for (int64_t q = qlo; q <= qhi && q <= li; q++) {
		const near_tab_t *t = &f->tab[q];
		if (!t->bits) continue;
		uint64_t h = near_hash(si, q);
		for (int64_t p = 0;; p++) {
			const uint64_t b = near_bucket(h, t->bits);
			for (uint64_t e = t->start[b]; e < t->start[b + 1]; e++) {
				const near_ent_t *x = &t->ent[e];
				if (x->h != h || x->j <= i || s->mark[x->j] == stamp) continue;
				if (p - x->off > d || x->off - p > d || f->len[x->j] - li > d || li - f->len[x->j] > d) continue;
				s->mark[x->j] = stamp;
				js[c++] = x->j;
			}
			if (p + q >= li) break;
			h = (h - (unsigned char)si[p] * t->bq) * NEAR_B + (unsigned char)si[p + q];
		}
	}
	/* the reads too short to cut: every one after i within d in length */
	int64_t lo = 0, hi = f->n_weak;
	while (lo < hi) { const int64_t m = lo + (hi - lo) / 2; if (f->weak[m] <= i) lo = m + 1; else hi = m; }
	for (int64_t w = lo; w < f->n_weak; w++) {
		const int64_t j = f->weak[w];
		if (f->len[j] - li <= d && li - f->len[j] <= d && s->mark[j] != stamp) { s->mark[j] = stamp; js[c++] = j; }
	}
	for (int64_t q = 0; q < c; q++) s->mark[js[q]] = 0;  /* the scratch clean again for any row */
	s->hits = c;
	qsort(js, (size_t)c, sizeof *js, near_cmp);
	return c;
}

rk_status_t aln_near_rows(const aln_near_t *f, int64_t r0, int64_t r1, int n_threads, int64_t **off_out, int64_t **js_out)
{
	const int64_t nr = r1 - r0;
	int64_t *cnt = calloc((size_t)nr + 1, sizeof *cnt), *js = 0;
	int64_t **tj = 0, *tn = 0, *tm = 0;
	int nt = n_threads > 0 ? n_threads : 1, fail = 0;
	*off_out = 0; *js_out = 0;
	if (nt > nr) nt = nr > 0 ? (int)nr : 1;
	tj = calloc((size_t)nt, sizeof *tj); tn = calloc((size_t)nt, sizeof *tn); tm = calloc((size_t)nt, sizeof *tm);
	if (!cnt || !tj || !tn || !tm) goto oom;
	/* each thread a contiguous run of rows into its own buffer, then the buffers in row order */
#pragma omp parallel num_threads(nt) reduction(| : fail)
	{
		const int t = omp_get_thread_num();
		const int64_t a = r0 + nr * t / nt, b = r0 + nr * (t + 1) / nt;
		aln_near_scr_t sc = { 0 };
		int64_t *row = malloc(sizeof *row * (size_t)(f->n + 1));
		if (aln_near_scratch(f, &sc) != RK_OK || !row) fail = 1;
		for (int64_t r = a; r < b && !fail; r++) {
			const int64_t c = aln_near_cands(f, r, row, &sc);
			if (tn[t] + c > tm[t]) {
				int64_t m = tm[t] * 2 > tn[t] + c ? tm[t] * 2 : tn[t] + c + 1024;
				int64_t *x = realloc(tj[t], sizeof *x * (size_t)m);
				if (!x) { fail = 1; break; }
				tj[t] = x; tm[t] = m;
			}
			if (c) memcpy(tj[t] + tn[t], row, sizeof *row * (size_t)c);
			tn[t] += c;
			cnt[r - r0 + 1] = c;
		}
		free(sc.mark); free(row);
	}
	if (fail) goto oom;
	for (int64_t r = 0; r < nr; r++) cnt[r + 1] += cnt[r];
	if (!(js = malloc(sizeof *js * (size_t)(cnt[nr] + 1)))) goto oom;
	{
		int64_t o = 0;
		for (int t = 0; t < nt; t++) if (tn[t]) { memcpy(js + o, tj[t], sizeof *js * (size_t)tn[t]); o += tn[t]; }
	}
	for (int t = 0; t < nt; t++) free(tj[t]);
	free(tj); free(tn); free(tm);
	*off_out = cnt; *js_out = js;
	return RK_OK;
oom:
	for (int t = 0; tj && t < nt; t++) free(tj[t]);
	free(tj); free(tn); free(tm); free(cnt); free(js);
	rk_set_error("out of memory for the --max-dist candidates");
	return RK_ERES;
}

/* the lookups of a row of length l under f */
static double near_probes(const aln_near_t *f, int64_t l)
{
	if (!f->apx) return (double)l;
	const double q = fmin(floor((double)l / f->k), APX_QMAX);
	return (double)l * (3 * q + 3);
}

/* ns for row r: its lookups, the entries read and its candidates */
static double near_row_ns(const aln_near_t *f, int64_t r, int64_t *js, aln_near_scr_t *sc, double pair_ns)
{
	const int64_t c = aln_near_cands(f, r, js, sc);
	return (double)c * pair_ns + (double)sc->hits * NEAR_NS_HIT + near_probes(f, f->len[r]) * NEAR_NS_PROBE;
}

static int64_t near_nsamp(int64_t n) { return n < NEAR_SAMPLES ? n : NEAR_SAMPLES; }
static int64_t near_srow(int64_t n, int64_t ns, int64_t m) { return ns > 1 ? m * (n - 1) / (ns - 1) : 0; }

/* f->samp: the ns of the sample rows spread evenly, this team member every parts-th one on
 * threads threads (each row's figure its own: the same on any number), the others' added
 * through the team. RK_ERES when out of memory (on any member: the sums carry the failure, as
 * a NaN, to all). */
static rk_status_t near_sample(aln_near_t *f, double pair_ns, const aln_near_team_t *team, int threads)
{
	const int64_t n = f->n, ns = near_nsamp(n);
	const int part = team ? team->part : 0, parts = team ? team->parts : 1;
	if (f->samp_ns > 0 && f->samp_ns == pair_ns) return RK_OK;
	memset(f->samp, 0, sizeof f->samp);
	f->samp_ns = 0;
	int bad = 0;
#pragma omp parallel num_threads(threads > 1 ? threads : 1) reduction(| : bad)
	{
		int64_t *js = malloc(sizeof *js * (size_t)(n + 1));
		aln_near_scr_t sc = { 0 };
		if (!js || aln_near_scratch(f, &sc) != RK_OK) bad = 1;
#pragma omp for schedule(dynamic, 4)
		for (int64_t m = part; m < ns; m += parts)
			if (!bad) f->samp[m] = near_row_ns(f, near_srow(n, ns, m), js, &sc, pair_ns);
		free(js); free(sc.mark);
	}
	if (bad) f->samp[ns] = NAN;
	if (team && team->parts > 1) team->sum(team->ctx, f->samp, ns + 1);
	if (isnan(f->samp[ns])) return RK_ERES;
	f->samp_ns = pair_ns;
	return RK_OK;
}

/* whether ok holds on every team member (collective) */
static int near_all_ok(const aln_near_team_t *team, int ok)
{
	double bad = !ok;
	if (team && team->parts > 1) team->sum(team->ctx, &bad, 1);
	return bad == 0;
}

/* ns of the whole job under f, from its sample rows and its index entries */
static double near_sampled(aln_near_t *f, double pair_ns, const aln_near_team_t *team, int threads)
{
	const int64_t n = f->n, ns = near_nsamp(n);
	if (near_sample(f, pair_ns, team, threads) != RK_OK) return HUGE_VAL;
	double t = 0, put = 0;
	for (int64_t m = 0; m < ns; m++) t += f->samp[m];
	t *= (double)n / (double)(ns ? ns : 1);
	for (int64_t j = 0; j < n; j++) put += f->apx ? (double)f->k * (fmin(floor((double)f->len[j] / f->k), APX_QMAX) + 1) : (double)f->d + 1;
	return t + put * NEAR_NS_PUT;
}

/* root's index sent with team->bcast to the others, array by array into place: 0 where it
 * could not be (out of memory, or garbled: on any member, then on all). Collective. */
static aln_near_t *near_send(aln_near_t *f, int64_t n, const char *const *seq, const int64_t *len, int64_t d, int k,
                             const aln_near_team_t *team, int root)
{
	const int me = team->part == root;
	int64_t h[APX_HEAD], bytes[APX_PIECES];
	void *p[APX_PIECES];
	if (me) near_apx_head(f->apx, h);
	team->bcast(team->ctx, h, sizeof h, root);
	aln_near_t *g = me ? f : calloc(1, sizeof *g);
	if (!me && g) {
		g->n = n; g->d = d; g->seq = seq; g->len = len; g->k = k;
		if (near_apx_from_head(&g->apx, h, n, seq, len) != RK_OK) { free(g); g = 0; }
	}
	if (!near_all_ok(team, g != 0)) { if (!me) aln_near_free(g); return 0; }
	const int m = near_apx_pieces(g->apx, p, bytes);
	for (int x = 0; x < m; x++) team->bcast(team->ctx, p[x], bytes[x], root);
	if (!near_all_ok(team, me || near_apx_valid(g->apx))) { if (!me) aln_near_free(g); return 0; }
	return g;
}

/* root's index of plan k (root: the member that built it; *f there, 0 elsewhere) and its
 * sample rows on every member: sent with team->bcast, else built again by each. 0 on every
 * member when any failed. Collective. */
static aln_near_t *near_share(aln_near_t *f, int64_t n, const char *const *seq, const int64_t *len, int64_t d, int k,
                              const aln_near_team_t *team, int root)
{
	const int me = team->part == root;
	double sv[NEAR_SAMPLES + 2] = { 0 };  /* samp_ns, samp */
	if (me) { sv[0] = f->samp_ns; memcpy(sv + 1, f->samp, sizeof f->samp); }
	team->sum(team->ctx, sv, NEAR_SAMPLES + 2);  /* root's values and zeroes: exact */
	aln_near_t *g = team->bcast ? near_send(f, n, seq, len, d, k, team, root) : 0;
	int ok = 1;
	if (!g && !me) ok = aln_near_build(&g, n, seq, len, d, k) == RK_OK;
	if (!g && me) g = f;
	if (!near_all_ok(team, ok)) { aln_near_free(g); return 0; }
	g->samp_ns = sv[0];
	memcpy(g->samp, sv + 1, sizeof g->samp);
	return g;
}

/* The approximate plans k = d / 2 + 2, d / 2 + 3, ... (NEAR_TRIES of them): k[t], and the
 * cost of try t's lookups alone, bound[t] (a try whose bound is over the best so far is not
 * built). k = d / 2 + 1 (a score of 1 or 2: one piece) lets through most reads that share a
 * locus: 5M of 2e8 pairs on ERR127302 at D 9 to 15 against 0.1-1.5M at d / 2 + 2 or 3. */
static int near_tries(int64_t n, int64_t d, double L, double par, int *k, double *bound)
{
	int nt = 0;
	for (int kk = (int)(d / 2) + (d > 1 ? 2 : 1); kk <= APX_KMAX && nt < NEAR_TRIES && floor(L / kk) >= APX_QMIN; kk++, nt++) {
		const double q = fmin(floor(L / kk), APX_QMAX);
		k[nt] = kk;
		bound[nt] = (double)n * L * (3 * q + 3) * NEAR_NS_PROBE / par;
	}
	return nt;
}

/* Try t's index and estimate (x[2t]: 1 where it could not be built; x[2t + 1]: ns, sampled
 * on threads threads). */
static void near_try(aln_near_t **f, double *x, int t, int64_t n, const char *const *seq, const int64_t *len, int64_t d,
                     int k, double pair_ns, double par, int threads)
{
	if (aln_near_build(f, n, seq, len, d, k) != RK_OK) { x[2 * t] = 1; return; }
	x[2 * t + 1] = near_sampled(*f, pair_ns, 0, threads) / par;
}

/* The approximate plans. Try t is built and sampled by team member t % parts alone (every
 * try this process's without a team); a member's tries are built at once on its threads.
 * The estimates are summed across the team, and each member makes the sequential choice from
 * them (a try that choice would skip, skipped), so any number of members and threads chooses
 * the same; the chosen index goes from its builder to the others (near_share). */
static int near_apx_plans(aln_near_t **out, int64_t n, const char *const *seq, const int64_t *len, int64_t d,
                          double pair_ns, double par, int threads, const aln_near_team_t *team, double L, double *best,
                          double *est2)
{
	const int parts = team && team->parts > 1 ? team->parts : 1, part = parts > 1 ? team->part : 0;
	int k[NEAR_TRIES], mine[NEAR_TRIES], nm = 0, plan = 0, win = -1;
	double bound[NEAR_TRIES], x[2 * NEAR_TRIES] = { 0 }, cur = *best;  /* x: failed, estimate, by try */
	aln_near_t *f[NEAR_TRIES] = { 0 };
	const int nt = near_tries(n, d, L, par, k, bound);
	for (int t = 0; t < nt; t++)
		if (t % parts == part && bound[t] < *best) mine[nm++] = t;
	if (parts == 1 && threads <= 1) {
		/* one after another: a try whose lookups cost more than the best so far is not built
		 * (in a team the best so far is known only after the sums, below) */
		for (int u = 0; u < nm && !(u && x[2 * mine[u - 1]]); u++)
			if (bound[mine[u]] < cur) {
				near_try(&f[mine[u]], x, mine[u], n, seq, len, d, k[mine[u]], pair_ns, par, 1);
				if (!x[2 * mine[u]] && x[2 * mine[u] + 1] < cur) cur = x[2 * mine[u] + 1];
			}
	} else {
		/* the builds side by side, then each sampled on every thread */
		const int nth = threads < nm ? threads : nm;
#pragma omp parallel for num_threads(nth > 1 ? nth : 1) schedule(static, 1)
		for (int u = 0; u < nm; u++)
			if (aln_near_build(&f[mine[u]], n, seq, len, d, k[mine[u]]) != RK_OK) x[2 * mine[u]] = 1;
		/* alone, a try whose lookups cost more than the best sampled before it is not sampled
		 * (nor chosen: the sequential choice below skips it too) */
		for (int u = 0; u < nm && !x[2 * mine[u]]; u++)
			if (parts > 1 || bound[mine[u]] < cur) {
				x[2 * mine[u] + 1] = near_sampled(f[mine[u]], pair_ns, 0, threads) / par;
				if (x[2 * mine[u] + 1] < cur) cur = x[2 * mine[u] + 1];
			}
	}
	if (parts > 1) team->sum(team->ctx, x, 2 * nt);  /* each try's builder's values and zeroes: exact */
	for (int t = 0; t < nt; t++) {
		if (bound[t] >= *best) continue;
		if (x[2 * t]) break;
		if (x[2 * t + 1] < *est2) *est2 = x[2 * t + 1];
		if (x[2 * t + 1] < *best) { *best = x[2 * t + 1]; plan = k[t]; win = t; }
	}
	for (int t = 0; t < nt; t++)
		if (t != win) aln_near_free(f[t]);
	if (plan > 0 && parts == 1) *out = f[win];
	else if (plan > 0 && !(*out = near_share(f[win], n, seq, len, d, plan, team, win % parts))) plan = 0;
	return plan;
}

int aln_near_choose(aln_near_t **out, int64_t n, const char *const *seq, const int64_t *len, int64_t d, double pair_ns,
                    double par, int threads, const aln_near_team_t *team, double est[3])
{
	if (!(par >= 1)) par = 1;
	double L = 0;
	for (int64_t j = 0; j < n; j++) L += (double)len[j];
	L = n ? L / (double)n : 0;
	*out = 0;
	est[0] = (double)n * (double)(n - 1) / 2 * pair_ns;
	est[1] = est[2] = HUGE_VAL;
	int plan = ALN_NEAR_FULL;
	double best = est[0];
	aln_near_t *f = 0;
	/* a build that failed on one member fails on all: they sample the same plans */
	if (floor(L / (double)(d + 1)) >= ALN_NEAR_QMIN &&
	    near_all_ok(team, aln_near_build(&f, n, seq, len, d, ALN_NEAR_EXACT) == RK_OK)) {
		est[1] = near_sampled(f, pair_ns, team, threads) / par;
		if (est[1] < best) { best = est[1]; plan = ALN_NEAR_EXACT; *out = f; f = 0; }
	}
	aln_near_free(f);
	aln_near_t *g = 0;
	const int k = near_apx_plans(&g, n, seq, len, d, pair_ns, par, threads, team, L, &best, &est[2]);
	if (k > 0) { aln_near_free(*out); *out = g; plan = k; }
	rk_clear_error();
	return plan;
}


rk_status_t aln_near_costs(aln_near_t *f, double pair_ns, const aln_near_team_t *team, double *cost)
{
	const int64_t n = f->n, ns = near_nsamp(n);
	if (near_sample(f, pair_ns, team, 1) != RK_OK) { rk_set_error("out of memory"); return RK_ERES; }
	/* sample rows (all of them where there are few), and the rows between interpolated */
	const double *val = f->samp;
	for (int64_t r = 0, m = 0; r < n; r++) {
		while (m + 1 < ns && near_srow(n, ns, m + 1) <= r) m++;
		const int64_t a = near_srow(n, ns, m), b = m + 1 < ns ? near_srow(n, ns, m + 1) : a;
		if (b == a) { cost[r] = val[m]; continue; }
		const double t = (double)(r - a) / (double)(b - a);
		cost[r] = val[m] * (1 - t) + val[m + 1] * t;
	}
	return RK_OK;
}
