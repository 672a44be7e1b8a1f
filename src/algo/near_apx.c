/* The approximate-seed filter of lev --all --max-dist (near_apx.h). */
#include <stdlib.h>
#include <string.h>
#include "algo/near_apx.h"

#define APX_DIRECT_BITS 22  /* keys of up to 22 bits are their own bucket (2^22 starts: 16 MB) */
#define APX_DIRECT_SPARSE 8 /* ... where the table has at least one entry per 8 buckets: a few
                             * hundred reads zeroed and walked 16 MB tables, most of their run */

typedef struct {
	int bits, direct;
	uint32_t *start;    /* entries of bucket b: ent[start[b] .. start[b + 1]), reads descending */
	uint32_t *ent;      /* j << 5 | piece */
	uint64_t *key;      /* hashed buckets: each entry's key */
} apx_idx_t;

struct near_apx_s {
	int64_t n, d, k, thr;
	const char *const *seq;
	const int64_t *len;
	/* by q: pieces (q symbols); their one-deletion variants (q - 1 symbols), keyed with the
	 * symbol deleted (a substitution must delete the same one on both sides: 1/q of the
	 * entries a probe reads, against an untagged variant) */
	apx_idx_t f[APX_QMAX + 1], v[APX_QMAX + 1];
	int64_t cnt_f[APX_QMAX + 1], cnt_v[APX_QMAX + 1];
	uint8_t *free2;     /* 2 for each piece of j with a symbol other than ACGT */
	int64_t *weak, n_weak;  /* reads never indexed (too short, or free2 alone reaches thr), ascending */
};

static int apx_code(unsigned char c)
{
	switch (c) { case 'A': return 0; case 'C': return 1; case 'G': return 2; case 'T': return 3; default: return -1; }
}

static int64_t apx_q(int64_t len, int64_t k) { const int64_t q = len / k; return q > APX_QMAX ? APX_QMAX : q; }

static uint64_t apx_mask(int m) { return m >= 32 ? ~0ull : ((uint64_t)1 << (2 * m)) - 1; }

/* key K of m symbols less symbol x (x = 0: the first) */
static inline uint64_t apx_del(uint64_t K, int m, int x)
{
	return ((K >> (2 * (m - x))) << (2 * (m - 1 - x))) | (K & apx_mask(m - 1 - x));
}

/* symbol x of key K of m symbols */
static inline int apx_sym(uint64_t K, int m, int x) { return (int)(K >> (2 * (m - 1 - x))) & 3; }

/* the position of the first symbol other than ACGT in s (there is one) */
static int apx_bad(const char *s)
{
	int y = 0;
	while (apx_code((unsigned char)s[y]) >= 0) y++;
	return y;
}

static inline uint64_t apx_bucket(const apx_idx_t *t, uint64_t key)
{
	return t->direct ? key : (key * 0x9E3779B97F4A7C15ull) >> (64 - t->bits);
}

void near_apx_free(near_apx_t *a)
{
	if (!a) return;
	for (int q = 0; q <= APX_QMAX; q++) {
		free(a->f[q].start); free(a->f[q].ent); free(a->f[q].key);
		free(a->v[q].start); free(a->v[q].ent); free(a->v[q].key);
	}
	free(a->free2); free(a->weak);
	free(a);
}

/* piece s of read j: its key (q symbols), or -1 when it holds another symbol */
static int64_t apx_piece(const char *s, int64_t q)
{
	uint64_t K = 0;
	for (int64_t x = 0; x < q; x++) {
		const int c = apx_code((unsigned char)s[x]);
		if (c < 0) return -1;
		K = K << 2 | (uint64_t)c;
	}
	return (int64_t)K;
}

static void apx_put(apx_idx_t *t, int pass, uint64_t key, uint32_t e)
{
	const uint64_t b = apx_bucket(t, key);
	if (!pass) { t->start[b + 1]++; return; }
	if (t->key) t->key[t->start[b]] = key;
	t->ent[t->start[b]++] = e;
}

static int apx_alloc(apx_idx_t *t, int keybits, int64_t cnt)
{
	if (!cnt) return 0;
	t->direct = keybits <= APX_DIRECT_BITS && ((uint64_t)1 << keybits) <= APX_DIRECT_SPARSE * (uint64_t)cnt;
	if (t->direct) t->bits = keybits;
	else { t->bits = 4; while (t->bits < 40 && ((uint64_t)1 << t->bits) < (uint64_t)cnt) t->bits++; }
	const uint64_t nb = (uint64_t)1 << t->bits;
	if (!(t->start = calloc(nb + 1, sizeof *t->start)) || !(t->ent = malloc(sizeof *t->ent * (size_t)cnt))) return -1;
	if (!t->direct && !(t->key = malloc(sizeof *t->key * (size_t)cnt))) return -1;
	return 0;
}

static void apx_prefix(apx_idx_t *t, int pass)
{
	if (!t->start) return;
	const uint64_t nb = (uint64_t)1 << t->bits;
	if (!pass) for (uint64_t b = 0; b < nb; b++) t->start[b + 1] += t->start[b];
	else { for (uint64_t b = nb; b > 0; b--) t->start[b] = t->start[b - 1]; t->start[0] = 0; }
}

/* a variant: K less symbol x, tagged with x */
static inline uint64_t apx_var(uint64_t K, int m, int x) { return apx_del(K, m, x) << 4 | (uint64_t)x; }

/* pass 0 counts the entries of each table, pass 1 of each bucket, pass 2 places them (reads descending) */
static void apx_fill(near_apx_t *a, int pass)
{
	for (int64_t j = a->n - 1; j >= 0; j--) {
		const int64_t q = apx_q(a->len[j], a->k);
		if (q < APX_QMIN || a->free2[j] >= a->thr) continue;
		for (int64_t s = 0; s < a->k; s++) {
			const int64_t K = apx_piece(a->seq[j] + s * q, q);
			if (K < 0) continue;
			const uint32_t e = (uint32_t)(j << 5 | s);
			if (!pass) a->cnt_f[q]++;
			else apx_put(&a->f[q], pass - 1, (uint64_t)K, e);
			for (int x = 0; x < q; x++) {
				if (!pass) a->cnt_v[q]++;
				else apx_put(&a->v[q], pass - 1, apx_var((uint64_t)K, (int)q, x), e);
			}
		}
	}
}

rk_status_t near_apx_build(near_apx_t **out, int64_t n, const char *const *seq, const int64_t *len, int64_t d, int k)
{
	near_apx_t *a = calloc(1, sizeof *a);
	*out = 0;
	if (!a || n >= ((int64_t)1 << 27) || k < 1 || k > APX_KMAX) goto oom;
	a->n = n; a->d = d; a->k = k; a->thr = 2 * k - d; a->seq = seq; a->len = len;  /* thr < 1: no read indexed, every pair */
	if (!(a->free2 = calloc((size_t)n + 1, 1)) || !(a->weak = malloc(sizeof *a->weak * (size_t)(n + 1)))) goto oom;
	for (int64_t j = 0; j < n; j++) {
		const int64_t q = apx_q(len[j], k);
		if (q >= APX_QMIN)
			for (int64_t s = 0; s < k; s++) a->free2[j] += apx_piece(seq[j] + s * q, q) < 0 ? 2 : 0;
		if (q < APX_QMIN || a->free2[j] >= a->thr) a->weak[a->n_weak++] = j;
	}
	apx_fill(a, 0);
	for (int q = APX_QMIN; q <= APX_QMAX; q++)
		if (apx_alloc(&a->f[q], 2 * q, a->cnt_f[q]) || apx_alloc(&a->v[q], 2 * (q - 1) + 4, a->cnt_v[q])) goto oom;
	apx_fill(a, 1);
	for (int q = APX_QMIN; q <= APX_QMAX; q++) { apx_prefix(&a->f[q], 0); apx_prefix(&a->v[q], 0); }
	apx_fill(a, 2);
	for (int q = APX_QMIN; q <= APX_QMAX; q++) { apx_prefix(&a->f[q], 1); apx_prefix(&a->v[q], 1); }
	*out = a;
	return RK_OK;
oom:
	near_apx_free(a);
	rk_set_error("out of memory for the --max-dist filter of %lld reads", (long long)n);
	return RK_ERES;
}

void near_apx_head(const near_apx_t *a, int64_t *h)
{
	h[0] = a->n; h[1] = a->d; h[2] = a->k; h[3] = a->thr; h[4] = a->n_weak;
	memcpy(h + 5, a->cnt_f, sizeof a->cnt_f);
	memcpy(h + 5 + APX_QMAX + 1, a->cnt_v, sizeof a->cnt_v);
}

rk_status_t near_apx_from_head(near_apx_t **out, const int64_t *h, int64_t n, const char *const *seq, const int64_t *len)
{
	near_apx_t *a = calloc(1, sizeof *a);
	*out = 0;
	if (!a) goto oom;
	a->n = n; a->seq = seq; a->len = len;
	a->d = h[1]; a->k = h[2]; a->thr = h[3]; a->n_weak = h[4];
	memcpy(a->cnt_f, h + 5, sizeof a->cnt_f);
	memcpy(a->cnt_v, h + 5 + APX_QMAX + 1, sizeof a->cnt_v);
	int bad = h[0] != n || a->k < 1 || a->k > APX_KMAX || a->n_weak < 0 || a->n_weak > n;
	for (int q = 0; q <= APX_QMAX; q++)
		bad |= a->cnt_f[q] < 0 || a->cnt_v[q] < 0 || a->cnt_f[q] > n * APX_KMAX || a->cnt_v[q] > n * APX_KMAX * APX_QMAX ||
		       (q < APX_QMIN && (a->cnt_f[q] || a->cnt_v[q]));
	if (bad) {
		near_apx_free(a);
		rk_set_error("the --max-dist filter's index received is not one of these %lld reads", (long long)n);
		return RK_ERES;
	}
	if (!(a->free2 = calloc((size_t)n + 1, 1)) || !(a->weak = malloc(sizeof *a->weak * (size_t)(n + 1)))) goto oom;
	for (int q = APX_QMIN; q <= APX_QMAX; q++)
		if (apx_alloc(&a->f[q], 2 * q, a->cnt_f[q]) || apx_alloc(&a->v[q], 2 * (q - 1) + 4, a->cnt_v[q])) goto oom;
	*out = a;
	return RK_OK;
oom:
	near_apx_free(a);
	rk_set_error("out of memory for the --max-dist filter of %lld reads", (long long)n);
	return RK_ERES;
}

int near_apx_pieces(near_apx_t *a, void **p, int64_t *bytes)
{
	int m = 0;
	for (int q = APX_QMIN; q <= APX_QMAX; q++)
		for (int fv = 0; fv < 2; fv++) {
			apx_idx_t *t = fv ? &a->v[q] : &a->f[q];
			const int64_t cnt = fv ? a->cnt_v[q] : a->cnt_f[q];
			if (!cnt) continue;
			p[m] = t->start; bytes[m++] = (int64_t)sizeof *t->start * (((int64_t)1 << t->bits) + 1);
			p[m] = t->ent; bytes[m++] = (int64_t)sizeof *t->ent * cnt;
			if (t->key) { p[m] = t->key; bytes[m++] = (int64_t)sizeof *t->key * cnt; }
		}
	p[m] = a->free2; bytes[m++] = a->n + 1;
	p[m] = a->weak; bytes[m++] = (int64_t)sizeof *a->weak * a->n_weak;
	return m;
}

/* a table's buckets must run in order over its entries, which name a read and a piece */
static int apx_bad_table(const apx_idx_t *t, int64_t cnt, int64_t n, int64_t k)
{
	const uint64_t nb = (uint64_t)1 << t->bits;
	if (t->start[0] != 0 || t->start[nb] != (uint64_t)cnt) return 1;
	for (uint64_t b = 0; b < nb; b++)
		if (t->start[b] > t->start[b + 1]) return 1;
	for (int64_t e = 0; e < cnt; e++)
		if ((int64_t)(t->ent[e] >> 5) >= n || (int64_t)(t->ent[e] & 31) >= k) return 1;
	return 0;
}

int near_apx_valid(const near_apx_t *a)
{
	for (int q = APX_QMIN; q <= APX_QMAX; q++)
		if ((a->cnt_f[q] && apx_bad_table(&a->f[q], a->cnt_f[q], a->n, a->k)) ||
		    (a->cnt_v[q] && apx_bad_table(&a->v[q], a->cnt_v[q], a->n, a->k)))
			return 0;
	for (int64_t w = 0; w < a->n_weak; w++)
		if (a->weak[w] < 0 || a->weak[w] >= a->n || (w && a->weak[w] <= a->weak[w - 1])) return 0;
	return 1;
}

typedef struct {
	const apx_idx_t *t;
	uint64_t key, b;
	int32_t p, exact;
} apx_look_t;

typedef struct {
	const near_apx_t *a;
	int64_t i, li, q, c, hits;
	int64_t *js, *mark;
	apx_look_t *look;   /* a row's lookups, queued so that their buckets are fetched ahead */
	int64_t n_look;
} apx_row_t;

#define APX_AHEAD 32   /* lookups whose entries are fetched ahead of the one read */

/* the entries of lookup l: pieces s of reads j > i near p (score 2: exact, else one edit) */
static inline void apx_take(apx_row_t *r, const apx_look_t *l)
{
	const apx_idx_t *t = l->t;
	const uint32_t e1 = t->start[l->b + 1], first = (uint32_t)((r->i + 1) << 5);
	const int64_t d = r->a->d, p = l->p + d, sh = l->exact ? 0 : 32;
	int64_t c = r->c, *mark = r->mark, *js = r->js;
	uint32_t e = t->start[l->b];
	for (; e < e1; e++) {
		const uint32_t x = t->ent[e];
		if (x < first) break;  /* reads descending: the rest are <= i */
		if (t->key && t->key[e] != l->key) continue;
		/* branch-free: half the entries are off the diagonal band, at random */
		const int64_t s = x & 31, j = x >> 5;
		const uint64_t in = (uint64_t)(p - s * r->q) <= (uint64_t)(2 * d), old = (uint64_t)mark[j];
		js[c] = j;
		c += in & (old == 0);
		mark[j] = (int64_t)(old | in << (s + sh));  /* its length is checked once, at the end */
	}
	r->hits += e - t->start[l->b];
	r->c = c;
}

/* queue a lookup of key in t (its bucket's start fetched now) */
static inline void apx_probe(apx_row_t *r, const apx_idx_t *t, uint64_t key, int64_t p, int exact)
{
	if (!t->start) return;
	apx_look_t *l = &r->look[r->n_look++];
	l->t = t; l->key = key; l->b = apx_bucket(t, key); l->p = (int32_t)p; l->exact = exact;
	__builtin_prefetch(&t->start[l->b]);
}

/* the queued lookups, the entries of each fetched APX_AHEAD lookups before */
static void apx_run(apx_row_t *r)
{
	for (int64_t u = 0; u < r->n_look; u++) {
		if (u + APX_AHEAD < r->n_look) {
			const apx_look_t *l = &r->look[u + APX_AHEAD];
			__builtin_prefetch(&l->t->ent[l->t->start[l->b]]);
		}
		apx_take(r, &r->look[u]);
	}
	r->n_look = 0;
}

/* every probe of read i in the tables of pieces of q symbols; W[p]: symbols p .. p + 31 of i,
 * 2 bits each, first highest; nb[p]: the symbols other than ACGT before p */
static void apx_row_q(apx_row_t *r, const uint64_t *W, const int32_t *nb)
{
	const int m = (int)r->q;
	const apx_idx_t *F = &r->a->f[m], *V = &r->a->v[m];
	const char *si = r->a->seq[r->i];
	for (int64_t p = 0; p + m - 1 <= r->li; p++) {
		/* i[p .. p + m - 1): the piece less one symbol, any */
		if (nb[p + m - 1] == nb[p]) {
			const uint64_t K = W[p] >> (64 - 2 * (m - 1));
			for (int x = 0; x < m; x++) apx_probe(r, V, K << 4 | (uint64_t)x, p, 0);
		}
		if (p + m > r->li) continue;
		/* i[p .. p + m): the piece, or a substitution (the same symbol deleted from both) */
		int bad = nb[p + m] - nb[p];
		uint64_t K = W[p] >> (64 - 2 * m);
		if (bad == 0) {
			apx_probe(r, F, K, p, 1);
			for (int x = 0; x < m; x++) apx_probe(r, V, apx_var(K, m, x), p, 0);
		} else if (bad == 1) {
			const int y = apx_bad(si + p);
			apx_probe(r, V, apx_var(K, m, y), p, 0);
		}
		if (p + m + 1 > r->li) continue;
		/* i[p .. p + m + 1): the piece with an insertion */
		bad = nb[p + m + 1] - nb[p];
		K = W[p] >> (64 - 2 * (m + 1));
		if (bad == 0) {
			for (int x = 0; x <= m; x++) {
				if (x < m && apx_sym(K, m + 1, x) == apx_sym(K, m + 1, x + 1)) continue;  /* same as x + 1 */
				apx_probe(r, F, apx_del(K, m + 1, x), p, 0);
			}
		} else if (bad == 1)
			apx_probe(r, F, apx_del(K, m + 1, apx_bad(si + p)), p, 0);
	}
}

/* set bits of a 32-bit mask (SWAR: the build has no popcnt instruction to assume) */
static int apx_popc(uint64_t x)
{
	x = x - ((x >> 1) & 0x55555555u);
	x = (x & 0x33333333u) + ((x >> 2) & 0x33333333u);
	return (int)((((x + (x >> 4)) & 0x0F0F0F0Fu) * 0x01010101u) >> 24 & 0xff);
}

int64_t near_apx_cands(const near_apx_t *a, int64_t i, int64_t *js, int64_t *mark, int64_t *hits)
{
	const int64_t li = a->len[i], d = a->d;
	const char *si = a->seq[i];
	apx_row_t r = { a, i, li, 0, 0, 0, js, mark, 0, 0 };
	/* lookups of a row per q: at most 3 q + 3 a position */
	r.look = malloc(sizeof *r.look * (size_t)(li + 1) * (3 * APX_QMAX + 4));
	uint64_t *W = malloc(sizeof *W * (size_t)(li + 1));
	int32_t *nb = malloc(sizeof *nb * (size_t)(li + 1));
	if (W && nb && r.look && li > 0) {
		nb[0] = 0;
		for (int64_t p = 0; p < li; p++) nb[p + 1] = nb[p] + (apx_code((unsigned char)si[p]) < 0);
		uint64_t w = 0;
		for (int64_t p = li - 1 + 32; p >= 0; p--) {  /* past the end: zeroes */
			const int c = p < li ? apx_code((unsigned char)si[p]) : 0;
			w = (w >> 2) | (uint64_t)(c < 0 ? 0 : c) << 62;
			if (p < li) W[p] = w;
		}
		W[li] = 0;
		/* reads within d in length: q_j in [q(li - d), q(li + d)] */
		int64_t qlo = apx_q(li - d > 0 ? li - d : 0, a->k), qhi = apx_q(li + d, a->k);
		if (qlo < APX_QMIN) qlo = APX_QMIN;
		for (int64_t q = qlo; q <= qhi; q++) {
			if (!a->cnt_f[q] || q - 1 > li) continue;
			r.q = q;
			apx_row_q(&r, W, nb);
			apx_run(&r);
		}
	} else if (li > 0) {
		/* out of memory for the row's words: every read after i within d in length (exact, slow) */
		for (int64_t j = i + 1; j < a->n; j++)
			if (a->len[j] - li <= d && li - a->len[j] <= d && !mark[j]) { mark[j] = -1; js[r.c++] = j; }
	}
	free(W); free(nb); free(r.look);
	int64_t c = 0;
	for (int64_t x = 0; x < r.c; x++) {
		const int64_t j = js[x];
		const uint64_t m = (uint64_t)mark[j], ex = m & 0xffffffffu, one = (m >> 32) & ~ex;
		mark[j] = 0;
		if (a->len[j] - li > d || li - a->len[j] > d) continue;
		if (m == ~0ull || 2 * apx_popc(ex) + apx_popc(one) + a->free2[j] >= a->thr) js[c++] = j;
	}
	/* the reads never indexed */
	int64_t lo = 0, hi = a->n_weak;
	while (lo < hi) { const int64_t m = lo + (hi - lo) / 2; if (a->weak[m] <= i) lo = m + 1; else hi = m; }
	for (int64_t w = lo; w < a->n_weak; w++) {
		const int64_t j = a->weak[w];
		if (a->len[j] - li <= d && li - a->len[j] <= d) js[c++] = j;
	}
	*hits = r.hits;
	return c;
}
