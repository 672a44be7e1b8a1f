/* Paths, SIMD level and the prepared pair shared by lev and lcs. */
#include <stdlib.h>
#include <string.h>
#include <stdio.h>
#include "algo/aln.h"
#include "algo/aln_dp.h"

void aln_path_free(aln_path_t *p)
{
	free(p->run);
	p->run = 0;
	p->n = p->m = 0;
}

void aln_ends_free(aln_ends_t *e)
{
	free(e->end);
	e->end = 0;
	e->n = e->m = e->start = 0;
}

rk_status_t aln_ends_push(aln_ends_t *e, int64_t j)
{
	if (e->n == e->m) {
		int64_t m = e->m ? e->m * 2 : 8;
		int64_t *r = realloc(e->end, (size_t)m * sizeof *r);
		if (!r) { rk_set_error("out of memory for the ends of an alignment"); return RK_ERES; }
		e->end = r;
		e->m = m;
	}
	e->end[e->n++] = j;
	return RK_OK;
}

rk_status_t aln_path_push(aln_path_t *p, int op, int64_t len)
{
	if (len <= 0) return RK_OK;
	if (p->n && (int)(p->run[p->n - 1] & 7) == op) {
		p->run[p->n - 1] += (uint64_t)len << 3;
		return RK_OK;
	}
	if (p->n == p->m) {
		int64_t m = p->m ? p->m * 2 : 16;
		uint64_t *r = realloc(p->run, (size_t)m * sizeof *r);
		if (!r) { rk_set_error("out of memory for an alignment path"); return RK_ERES; }
		p->run = r;
		p->m = m;
	}
	p->run[p->n++] = (uint64_t)len << 3 | (uint64_t)op;
	return RK_OK;
}

rk_status_t aln_path_cat(aln_path_t *p, const aln_path_t *q)
{
	for (int64_t i = 0; i < q->n; i++) {
		rk_status_t st = aln_path_push(p, (int)(q->run[i] & 7), (int64_t)(q->run[i] >> 3));
		if (st) return st;
	}
	return RK_OK;
}

int64_t aln_path_cigar(const aln_path_t *p, char *buf, int64_t size)
{
	int64_t len = 0;
	char tmp[32];
	for (int64_t i = 0; i < p->n; i++) {
		int l = snprintf(tmp, sizeof tmp, "%llu%c", (unsigned long long)(p->run[i] >> 3), ALN_OPS[p->run[i] & 7]);
		if (len + l < size) memcpy(buf + len, tmp, (size_t)l);
		else if (len < size) memcpy(buf + len, tmp, (size_t)(size - 1 - len));
		len += l;
	}
	if (size > 0) buf[len < size ? len : size - 1] = 0;
	return len;
}

void aln_path_span(const aln_path_t *p, int64_t *la, int64_t *lb)
{
	int64_t x = 0, y = 0;
	for (int64_t i = 0; i < p->n; i++) {
		int op = (int)(p->run[i] & 7);
		int64_t l = (int64_t)(p->run[i] >> 3);
		if (op != ALN_D) x += l;
		if (op != ALN_I) y += l;
	}
	*la = x;
	*lb = y;
}

int aln_simd_level(int want)
{
	int best = 0;
#if defined(__x86_64__) && defined(__GNUC__)
	__builtin_cpu_init();
	if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") && __builtin_cpu_supports("avx512dq"))
		best = __builtin_cpu_supports("avx512vbmi2") ? 4 : 3;
	else if (__builtin_cpu_supports("avx2"))
		best = 2;
#endif
	if (rk_tune.simd >= 0 && rk_tune.simd < best) best = rk_tune.simd < 2 ? 0 : rk_tune.simd;  /* forced (tests, benchmarks) */
	if (want >= 0 && want < best) best = want < 2 ? 0 : want;
	return best;
}

const char *aln_simd_name(int level)
{
	return level >= 4 ? "avx512vbmi2" : level == 3 ? "avx512" : level == 2 ? "avx2" : "scalar";
}

void aln_prep_free(aln_prep_t *p)
{
	free(p->peq); free(p->plane);
	if (!p->view) { free(p->bc); free(p->bmask); }
	memset(p, 0, sizeof *p);
}

/* A's rows: Peq and (SIMD) code planes under p's code map */
static rk_status_t prep_rows(aln_prep_t *p, const uint8_t *ua, int64_t la, int rev_a)
{
	const int n = p->nsym;
	p->la = la;
	p->nw = (la + 63) / 64;
	p->peq = calloc((size_t)(n + 1) * (size_t)(p->nw ? p->nw : 1), sizeof(uint64_t));
	if (!p->peq) return RK_ERES;
	if (p->simd > 0) {
		p->nwp = (p->nw + 15) / 16 * 16 + 16;  /* lanes of the last vector read past nw */
		p->plane = calloc((size_t)p->nb * (size_t)p->nwp, sizeof(uint64_t));
		if (!p->plane) return RK_ERES;
	}
	uint8_t cx[64];
	for (int64_t w = 0; w < p->nw; w++) {   /* A's codes 64 at a time, one compare per symbol */
		int m = la - 64 * w < 64 ? (int)(la - 64 * w) : 64;
		for (int r = 0; r < m; r++) cx[r] = p->code[ua[rev_a ? la - 1 - (64 * w + r) : 64 * w + r]];
		for (int c = 0; c < n; c++) p->peq[(int64_t)c * p->nw + w] = aln_bits_eq(cx, m, (uint8_t)c);
		for (int k = 0; k < (p->simd > 0 ? p->nb : 0); k++) p->plane[k * p->nwp + w] = aln_bits_bit(cx, m, k);
	}
	return RK_OK;
}

rk_status_t aln_prep_view(aln_prep_t *p, const aln_prep_t *g, int64_t b0, int64_t lb, const char *a, int64_t la,
                          int rev_a)
{
	memset(p, 0, sizeof *p);
	memcpy(p->code, g->code, sizeof p->code);
	p->nsym = g->nsym;
	p->nb = g->nb;
	p->simd = g->simd;
	p->view = 1;
	p->lb = lb;
	p->bc = g->bc + b0;
	p->bms = g->bms;
	/* column j of the view is column b0 + j of g; reads past the view stay inside g's arrays */
	p->bmask = g->bmask ? g->bmask + (g->lb - b0 - lb) : 0;
	if (prep_rows(p, (const uint8_t *)a, la, rev_a)) {
		aln_prep_free(p);
		rk_set_error("out of memory preparing a %lld x %lld alignment", (long long)la, (long long)lb);
		return RK_ERES;
	}
	return RK_OK;
}

rk_status_t aln_prep_init(aln_prep_t *p, const char *a, int64_t la, int rev_a, const char *b, int64_t lb,
                          int rev_b, int simd)
{
	memset(p, 0, sizeof *p);
	const uint8_t *ua = (const uint8_t *)a, *ub = (const uint8_t *)b;
	uint8_t seen[256] = { 0 };
	for (int64_t i = 0; i < la; i++) seen[ua[i]] = 1;
	int n = 0;
	for (int c = 0; c < 256; c++) if (seen[c]) p->code[c] = (uint8_t)n++;
	p->nsym = n;
	for (int c = 0; c < 256; c++) if (!seen[c]) p->code[c] = (uint8_t)(n < 256 ? n : 0);
	p->lb = lb;
	p->simd = simd;
	p->bc = malloc((size_t)(lb ? lb : 1));
	if (!p->bc) goto oom;
	int absent = 0;  /* does B have a symbol that A lacks? (needs its own code in the planes) */
	for (int64_t j = 0; j < lb; j++) {
		uint8_t s = ub[rev_b ? lb - 1 - j : j];
		p->bc[j] = p->code[s];
		absent |= !seen[s];
	}
	if (simd > 0) {
		int vals = n + absent, nb = 1;
		while ((1 << nb) < vals) nb++;
		p->nb = nb;
		p->bms = lb + 2 * ALN_PAD;
		p->bmask = calloc((size_t)nb * (size_t)p->bms, 1);
		if (!p->bmask) goto oom;
		/* B's codes backwards, then one plane at a time: a loop the compiler vectorizes */
		uint8_t *rv = p->bmask + (nb - 1) * p->bms + ALN_PAD;   /* scratch: the last plane's row */
		for (int64_t j = 0; j < lb; j++) rv[lb - 1 - j] = p->bc[j];
		for (int k = 0; k < nb; k++) {
			uint8_t *o = p->bmask + k * p->bms + ALN_PAD;
			for (int64_t q = 0; q < lb; q++) o[q] = (uint8_t)(0 - (rv[q] >> k & 1));
		}
	}
	if (prep_rows(p, ua, la, rev_a)) goto oom;
	return RK_OK;
oom:
	aln_prep_free(p);
	rk_set_error("out of memory preparing a %lld x %lld alignment", (long long)la, (long long)lb);
	return RK_ERES;
}
