/* The pigeonhole filter of lev --all --max-dist (near.h). */
#include <stdlib.h>
#include <omp.h>
#include <string.h>
#include "algo/near.h"

#define NEAR_B 0x100000001b3ull   /* base of the rolling hash (odd) */

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
	free(f);
}

rk_status_t aln_near_build(aln_near_t **out, int64_t n, const char *const *seq, const int64_t *len, int64_t d)
{
	aln_near_t *f = calloc(1, sizeof *f);
	int64_t *cnt = 0;
	*out = 0;
	if (!f) goto oom;
	f->n = n; f->d = d; f->seq = seq; f->len = len;
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
