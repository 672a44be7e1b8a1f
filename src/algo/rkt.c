/* Rkt-LCS driver: pairs -> MaxLCP -> support histograms -> candidates. */
#include <stdlib.h>
#include <string.h>
#include <omp.h>
#include "algo/rkt.h"

#define RKT_PRIVATE_BYTES (512ull << 20)

void rkt_opt_init(rkt_opt_t *o)
{
	memset(o, 0, sizeof *o);
	o->k = -1; o->t = -1; o->tau = -1;  /* required: the CLI rejects a missing value */
}

rk_status_t rkt_set_init(rkt_set_t *s, const rio_reads_t *r)
{
	memset(s, 0, sizeof *s);
	s->n = r->n;
	s->n_bases = r->n_bases;
	s->off = malloc(sizeof(uint64_t) * (size_t)(r->n + 1));
	s->len = malloc(sizeof(int32_t) * (size_t)(r->n + 1));
	s->code = malloc((size_t)r->n_bases + (size_t)(r->n + 1) * RKT_PAD);
	if (!s->off || !s->len || !s->code) { rkt_set_free(s); rk_set_error("out of memory for the read set"); return RK_ERES; }
	uint64_t o = 0;
	for (int64_t i = 0; i < r->n; i++) {
		int64_t l = rio_len(r, i);
		if (l > INT32_MAX - 2 * RKT_PAD) { rkt_set_free(s); rk_set_error("read %lld is too long", (long long)i + 1); return RK_EINPUT; }
		const uint8_t *src = (const uint8_t *)rio_seq(r, i);
		s->off[i] = o;
		s->len[i] = (int32_t)l;
		if (l > s->max_len) s->max_len = (int32_t)l;
		for (int64_t p = 0; p < l; p++) s->code[o + p] = rio_code[src[p]];
		memset(s->code + o + l, 0xff, RKT_PAD);
		o += (uint64_t)l + RKT_PAD;
	}
	s->off[r->n] = o;
	return RK_OK;
}

void rkt_set_free(rkt_set_t *s)
{
	free(s->code); free(s->off); free(s->len);
	memset(s, 0, sizeof *s);
}

/* Support counters of the owned reads. A read whose histogram (L(L+1)/2 counters for
 * L = len - tau + 1 starts) would be larger than one value per (start, other read) keeps
 * the raw MaxLCP values instead, so long reads cost O(len x m), not O(len^2). */
typedef struct {
	int64_t lo, hi, m, tau;
	uint64_t *base;
	uint8_t *raw;
	uint32_t *cnt;
} rkt_hist_t;

/* Counters of read r: a histogram (len_r - tau + 1 starts x, each with the levels tau ..
 * len_r - x), or raw MaxLCP values per (x, j) where that is smaller (long reads, few reads;
 * then *raw = 1). */
static uint64_t rkt_hist_size(const rkt_set_t *s, int64_t r, int64_t tau, uint8_t *raw)
{
	int64_t L = (int64_t)s->len[r] - tau + 1;
	*raw = 0;
	if (L <= 0) return 0;
	uint64_t hs = (uint64_t)L * (uint64_t)(L + 1) / 2, rs = (uint64_t)L * (uint64_t)s->n;
	*raw = rs < hs;
	return *raw ? rs : hs;
}

/* h's reads [lo, hi), their layout (base, raw); with_cnt: zeroed counters too. */
static rk_status_t rkt_hist_init(rkt_hist_t *h, const rkt_set_t *s, int64_t lo, int64_t hi, int64_t tau, int with_cnt)
{
	int64_t n = hi - lo;
	h->lo = lo; h->hi = hi; h->m = s->n; h->tau = tau;
	h->base = malloc(sizeof(uint64_t) * (size_t)(n + 1));
	h->raw = calloc((size_t)n + 1, 1);
	if (!h->base || !h->raw) { rk_set_error("out of memory"); return RK_ERES; }
	uint64_t tot = 0;
	for (int64_t r = 0; r < n; r++) {
		h->base[r] = tot;
		tot += rkt_hist_size(s, lo + r, tau, &h->raw[r]);
	}
	h->base[n] = tot;
	if (!with_cnt) return RK_OK;
	h->cnt = calloc(tot ? tot : 1, sizeof(uint32_t));
	if (!h->cnt) {
		rk_set_error("out of memory: support counters need %.2f GB", tot * 4.0 / 1e9);
		return RK_ERES;
	}
	return RK_OK;
}

static void rkt_hist_free(rkt_hist_t *h)
{
	free(h->base); free(h->raw); free(h->cnt);
	memset(h, 0, sizeof *h);
}

/* Record MaxLCP_ij[x] for owned read i into counters cnt (shared or a thread's copy). */
static inline void rkt_hist_add(const rkt_hist_t *h, uint32_t *cnt, const rkt_set_t *s, int64_t i, int64_t j,
                                const int32_t *ml, int atomic)
{
	int64_t r = i - h->lo, tau = h->tau, L = (int64_t)s->len[i] - tau + 1;
	if (L <= 0) return;
	uint32_t *c = cnt + h->base[r];
	if (h->raw[r]) {
		for (int64_t x = 0; x < L; x++)
			if (ml[x] >= tau) c[x * h->m + j] = (uint32_t)ml[x];
		return;
	}
	for (int64_t x = 0; x < L; x++) {
		if (ml[x] < tau) continue;
		uint32_t *p = c + x * L - x * (x - 1) / 2 + (ml[x] - tau);
		if (atomic) __atomic_fetch_add(p, 1, __ATOMIC_RELAXED);
		else (*p)++;
	}
}

/* The k-th largest of v[0..n) (k < n), reordering v: quickselect. */
static uint32_t rkt_kth_largest(uint32_t *v, int64_t n, int64_t k)
{
	int64_t lo = 0, hi = n - 1;
	while (lo < hi) {
		uint32_t a = v[lo], b = v[(lo + hi) / 2], c = v[hi];
		uint32_t piv = a < b ? (b < c ? b : a < c ? c : a) : (a < c ? a : b < c ? c : b);
		int64_t i = lo, j = hi;
		while (i <= j) {  /* descending: larger values first */
			while (v[i] > piv) i++;
			while (v[j] < piv) j--;
			if (i <= j) { uint32_t t = v[i]; v[i] = v[j]; v[j] = t; i++; j--; }
		}
		if (k <= j) hi = j;
		else if (k >= i) lo = i;
		else return v[k];
	}
	return v[k];
}

/* Candidate of owned read i from its counters; tmp has room for max(len + 1, m) values.
 * Raw values (long reads): the best length at start x is the t-th largest MaxLCP there,
 * found by selection in O(m), so the scan is O(len x m) rather than O(len^2). */
static void rkt_hist_cand(const rkt_hist_t *h, const rkt_set_t *s, int64_t i, int64_t t, uint32_t *tmp, rkt_cand_t *c)
{
	int64_t r = i - h->lo, tau = h->tau, L = (int64_t)s->len[i] - tau + 1;
	c->pos = -1; c->len = 0; c->support = 0;
	const uint32_t *base = h->cnt + h->base[r];
	for (int64_t x = 0; x < L; x++) {
		int64_t n = L - x;  /* values tau .. len - x */
		/* later starts are shorter: they can at best tie, and ties keep the smaller x */
		if (tau + n - 1 <= c->len) break;
		if (h->raw[r]) {
			const uint32_t *v = base + x * h->m;
			int64_t nz = 0;
			for (int64_t j = 0; j < h->m; j++)
				if (v[j]) tmp[nz++] = v[j];
			if (nz < t) continue;
			uint32_t l = rkt_kth_largest(tmp, nz, t - 1);
			if ((int64_t)l > c->len) {
				int64_t sup = 0;
				for (int64_t j = 0; j < h->m; j++) sup += v[j] >= l;
				c->len = l; c->pos = x; c->support = sup;
			}
			continue;
		}
		const uint32_t *row = base + x * L - x * (x - 1) / 2;
		int64_t sum = 0;
		for (int64_t v = n - 1; v >= 0; v--) {
			sum += row[v];
			if (sum >= t) {
				if (tau + v > c->len) { c->len = tau + v; c->pos = x; c->support = sum; }
				break;
			}
		}
	}
}

int64_t rkt_winner(const rkt_cand_t *c, int64_t n)
{
	int64_t w = -1;
	for (int64_t i = 0; i < n; i++)
		if (c[i].len > 0 && (w < 0 || c[i].len > c[w].len)) w = i;
	return w;
}

/* The pairs that threads share (rkt_pair_shared), which rkt_count's loop leaves out: in the
 * loop's order, each by all nt threads of the region at once (every thread calls this), the
 * counts by thread 0 into the counters h->cnt while the others wait. */
static void rkt_count_shared(const rkt_opt_t *o, const rkt_set_t *s, const rkt_hist_t *h, int64_t lo, int64_t hi, int share,
                             int nshare, rkt_ws_t **ws, int32_t *mi, int32_t *mj, rk_progress_t *prog, int64_t *done)
{
	int tid = omp_get_thread_num(), nt = omp_get_num_threads();
	for (int64_t i = lo; i < hi; i++) {
		if (i % nshare != share) continue;
		for (int64_t j = 0; j < s->n; j++) {
			if (j == lo) j = i + 1 > lo ? i + 1 : lo;
			if (j >= s->n) break;
			if (j == i || !rkt_pair_shared(ws[tid], s->len[i], s->len[j], o->k)) continue;
			rkt_maxlcp_pair_part(ws[tid], s->code + s->off[i], s->len[i], s->code + s->off[j], s->len[j], o->k, tid, nt);
#pragma omp barrier
#pragma omp master
			{
				rkt_maxlcp_pair_merge(ws, nt, s->len[i], s->len[j], mi, mj);
				rkt_hist_add(h, h->cnt, s, i, j, mi, 0);
				if (j >= h->lo && j < h->hi) rkt_hist_add(h, h->cnt, s, j, i, mj, 0);
				rk_progress(prog, (double)++*done);
			}
#pragma omp barrier
		}
	}
}

/* Count the pairs of rows i in [lo, hi) with i % nshare == share into h: against every j
 * outside [lo, i] (j < lo for i only: another rank owns j and walks the pair too), and for
 * j as well where h holds j's counters. */
static rk_status_t rkt_count(const rkt_opt_t *o, const rkt_set_t *s, rkt_hist_t *hp, int64_t lo, int64_t hi, int share,
                             int nshare)
{
	rkt_hist_t h = *hp;
	int64_t m = s->n;
	int nth = o->n_threads > 0 ? o->n_threads : omp_get_max_threads();
	int64_t total = 0, done = 0;
	for (int64_t i = lo; i < hi; i++) if (i % nshare == share) total += m - 1 - i + lo;
	rk_progress_t prog;
	rk_progress_start(&prog, "rkt: read pairs", (double)total);
	int fail = 0;
	/* Counters are hit from both reads of a pair, so threads would need atomic increments;
	 * when it fits in RKT_PRIVATE_BYTES each thread counts into its own copy instead. */
	uint64_t n_cnt = h.base[h.hi - h.lo];
	uint32_t *priv = 0;
	if (nth > 1 && !rk_tune.rkt_shared_counters && n_cnt * 4 * (uint64_t)(nth - 1) <= RKT_PRIVATE_BYTES)
		priv = calloc((size_t)n_cnt * (size_t)(nth - 1) + 1, sizeof(uint32_t));
	rkt_ws_t **ws = calloc((size_t)nth, sizeof *ws);  /* every thread's, for the pairs they share */

#pragma omp parallel num_threads(nth)
	{
		rkt_ws_t *w = rkt_ws_init(s->max_len);
		int32_t *mi = malloc(sizeof(int32_t) * ((size_t)s->max_len + 1) * 2);
		int32_t *mj = mi ? mi + s->max_len + 1 : 0;
		int tid = omp_get_thread_num(), nt = omp_get_num_threads();
		uint32_t *cnt = priv && tid > 0 ? priv + (size_t)n_cnt * (size_t)(tid - 1) : h.cnt;
		int atomic = nt > 1 && !priv, shared = nt > 1 && ws;  /* one long pair: all threads on it */
		if (ws) ws[tid] = w;
		if (!w || !mi) {
#pragma omp atomic write
			fail = 1;
		}
#pragma omp barrier
		if (!fail) {
#pragma omp for schedule(dynamic, 1)
			for (int64_t i = lo; i < hi; i++) {
				if (i % nshare != share) continue;
				const uint8_t *si = s->code + s->off[i];
				int64_t n_done = 0;
				for (int64_t j = 0; j < m; j++) {
					if (j == lo) j = i + 1 > lo ? i + 1 : lo;
					if (j >= m) break;
					if (j == i || (shared && rkt_pair_shared(w, s->len[i], s->len[j], o->k))) continue;
					rkt_maxlcp_pair(w, si, s->len[i], s->code + s->off[j], s->len[j], o->k, mi, mj);
					rkt_hist_add(&h, cnt, s, i, j, mi, atomic);
					if (j >= h.lo && j < h.hi) rkt_hist_add(&h, cnt, s, j, i, mj, atomic);
					n_done++;
				}
				int64_t d = __atomic_add_fetch(&done, n_done, __ATOMIC_RELAXED);
				if (omp_get_thread_num() == 0) rk_progress(&prog, (double)d);
			}
			if (shared) rkt_count_shared(o, s, &h, lo, hi, share, nshare, ws, mi, mj, &prog, &done);
		}
		rkt_ws_free(w);
		free(mi);
	}
	free(ws);
	if (priv) {
		/* raw-value slots are written by one thread only, so a sum merges them too */
#pragma omp parallel for num_threads(nth) schedule(static)
		for (uint64_t q = 0; q < n_cnt; q++)
			for (int t = 0; t < nth - 1; t++) h.cnt[q] += priv[(size_t)n_cnt * (size_t)t + q];
		free(priv);
	}
	rk_progress_end(&prog);
	if (fail) { rk_set_error("out of memory for thread work space"); return RK_ERES; }
	return RK_OK;
}

/* Candidates of reads [lo, hi) (within h's reads) from h's counters. */
static rk_status_t rkt_cands(const rkt_opt_t *o, const rkt_set_t *s, const rkt_hist_t *h, int64_t lo, int64_t hi, rkt_cand_t *out)
{
	int nth = o->n_threads > 0 ? o->n_threads : omp_get_max_threads(), fail = 0;
	const int64_t m = s->n;
#pragma omp parallel num_threads(nth)
	{
		uint32_t *tmp = malloc(sizeof(uint32_t) * ((size_t)(s->max_len > m ? s->max_len : m) + 2));
		if (!tmp) {
#pragma omp atomic write
			fail = 1;
		} else {
#pragma omp for schedule(dynamic, 64)
			for (int64_t i = lo; i < hi; i++) rkt_hist_cand(h, s, i, o->t, tmp, &out[i - lo]);
		}
		free(tmp);
	}
	if (fail) { rk_set_error("out of memory"); return RK_ERES; }
	return RK_OK;
}

rk_status_t rkt_candidates(const rkt_opt_t *o, const rkt_set_t *s, int64_t lo, int64_t hi, rkt_cand_t *out)
{
	rkt_hist_t h;
	rk_status_t st = RK_OK;
	memset(&h, 0, sizeof h);
	if (o->k < 0 || o->t < 1 || o->tau < 1) { rk_set_error("invalid parameters"); return RK_EINPUT; }
	if ((st = rkt_hist_init(&h, s, lo, hi, o->tau, 1)) == RK_OK && (st = rkt_count(o, s, &h, lo, hi, 0, 1)) == RK_OK)
		st = rkt_cands(o, s, &h, lo, hi, out);
	rkt_hist_free(&h);
	return st;
}

rk_status_t rkt_supports(const rkt_opt_t *o, const rkt_set_t *s, int share, int nshare, uint32_t **cnt, uint64_t *n_cnt)
{
	rkt_hist_t h;
	rk_status_t st;
	memset(&h, 0, sizeof h);
	*cnt = 0; *n_cnt = 0;
	if (o->k < 0 || o->t < 1 || o->tau < 1) { rk_set_error("invalid parameters"); return RK_EINPUT; }
	if ((st = rkt_hist_init(&h, s, 0, s->n, o->tau, 1)) == RK_OK && (st = rkt_count(o, s, &h, 0, s->n, share, nshare)) == RK_OK) {
		*cnt = h.cnt; *n_cnt = h.base[s->n];
		h.cnt = 0;
	}
	rkt_hist_free(&h);
	return st;
}

void rkt_support_offs(const rkt_set_t *s, int64_t tau, const int64_t *at, int n_at, uint64_t *off)
{
	uint64_t tot = 0;
	uint8_t raw;
	int64_t q = 0;
	for (int a = 0; a < n_at; a++) {
		for (; q < at[a]; q++) tot += rkt_hist_size(s, q, tau, &raw);
		off[a] = tot;
	}
}

rk_status_t rkt_cands_from_supports(const rkt_opt_t *o, const rkt_set_t *s, const uint32_t *cnt, int64_t lo, int64_t hi, rkt_cand_t *out)
{
	rkt_hist_t h;
	rk_status_t st;
	memset(&h, 0, sizeof h);
	if ((st = rkt_hist_init(&h, s, 0, s->n, o->tau, 0)) == RK_OK) {
		h.cnt = (uint32_t *)cnt;  /* borrowed, only read */
		st = rkt_cands(o, s, &h, lo, hi, out);
		h.cnt = 0;
	}
	rkt_hist_free(&h);
	return st;
}
