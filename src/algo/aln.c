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
	const char *e = getenv("RKTLCS_SIMD");  /* testing: force a level */
	if (e && *e) {
		int f = atoi(e);
		if (f < best) best = f < 2 ? 0 : f;
	}
	if (want >= 0 && want < best) best = want < 2 ? 0 : want;
	return best;
}

const char *aln_simd_name(int level)
{
	return level >= 4 ? "avx512vbmi2" : level == 3 ? "avx512" : level == 2 ? "avx2" : "scalar";
}

void aln_prep_free(aln_prep_t *p)
{
	free(p->peq); free(p->bc); free(p->plane); free(p->bmask);
	memset(p, 0, sizeof *p);
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
	p->la = la;
	p->lb = lb;
	p->nw = (la + 63) / 64;
	p->simd = simd;
	p->peq = calloc((size_t)(n + 1) * (size_t)(p->nw ? p->nw : 1), sizeof(uint64_t));
	p->bc = malloc((size_t)(lb ? lb : 1));
	if (!p->peq || !p->bc) goto oom;
	uint8_t cx[64];
	for (int64_t w = 0; w < p->nw; w++) {   /* A's codes 64 at a time, one compare per symbol */
		int m = la - 64 * w < 64 ? (int)(la - 64 * w) : 64;
		for (int r = 0; r < m; r++) cx[r] = p->code[ua[rev_a ? la - 1 - (64 * w + r) : 64 * w + r]];
		for (int c = 0; c < n; c++) p->peq[(int64_t)c * p->nw + w] = aln_bits_eq(cx, m, (uint8_t)c);
	}
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
		p->nwp = (p->nw + 15) / 16 * 16 + 16;  /* lanes of the last vector read past nw */
		p->plane = calloc((size_t)nb * (size_t)p->nwp, sizeof(uint64_t));
		p->bms = lb + 2 * ALN_PAD;
		p->bmask = calloc((size_t)nb * (size_t)p->bms, 1);
		if (!p->plane || !p->bmask) goto oom;
		for (int64_t w = 0; w < p->nw; w++) {
			int m = la - 64 * w < 64 ? (int)(la - 64 * w) : 64;
			for (int r = 0; r < m; r++) cx[r] = p->code[ua[rev_a ? la - 1 - (64 * w + r) : 64 * w + r]];
			for (int k = 0; k < nb; k++) p->plane[k * p->nwp + w] = aln_bits_bit(cx, m, k);
		}
		for (int64_t j = 0; j < lb; j++)
			for (int k = 0; k < nb; k++)
				p->bmask[k * p->bms + ALN_PAD + (lb - 1 - j)] = (uint8_t)(p->bc[j] >> k & 1 ? 0xff : 0);
	}
	return RK_OK;
oom:
	aln_prep_free(p);
	rk_set_error("out of memory preparing a %lld x %lld alignment", (long long)la, (long long)lb);
	return RK_ERES;
}
