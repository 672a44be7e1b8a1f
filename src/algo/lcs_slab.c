/* lcs slab kernels: scalar (column by column, the carry running down the word rows) and
 * skewed SIMD (lcs_kern.h). A partial last word gives the delta at row la: the carry out of
 * its bit (la - 1) & 63, the carry out of a bit being the horizontal delta at its row. */
#include <string.h>
#include "algo/lcs.h"
#include "algo/aln_dp.h"

#if defined(__x86_64__) && defined(__GNUC__)
#define ALN_X86 1
#include <immintrin.h>
#endif

/* N (1..4) word rows from r0 over [c0, c1), column by column, the state in registers; the
 * carry runs down the words as in a multi-word addition. */
static inline __attribute__((always_inline)) void lcs_scalar_n(const aln_prep_t *p, const int N, int64_t r0,
	int64_t c0, int64_t c1, uint64_t *hc, uint64_t *v, int ob)
{
	const int64_t nw = p->nw, nc = c1 - c0;
	const uint64_t *peq = p->peq + r0;
	const uint8_t *bc = p->bc + c0;
	uint64_t W[4];
	for (int x = 0; x < N; x++) W[x] = v[x];
	uint64_t ic = 0, oc = 0;
	for (int64_t q = 0; q < nc; q++) {
		int s = (int)(q & 63);
		if (s == 0) ic = hc[q >> 6];
		const uint64_t *e = peq + (int64_t)bc[q] * nw;
		uint64_t c = ic >> s & 1;
		#pragma GCC unroll 4
		for (int x = 0; x < N; x++) {
			uint64_t V = W[x], m = e[x], U = V & m, S = V + U + c;
			c = ((V & U) | ((V | U) & ~S)) >> (x == N - 1 ? ob : 63) & 1;
			W[x] = S | (V & ~m);
		}
		oc |= c << s;
		if (s == 63 || q == nc - 1) {
			uint64_t keep = s == 63 ? 0 : ~0ull << (s + 1);
			hc[q >> 6] = (hc[q >> 6] & keep) | oc;
			oc = 0;
		}
	}
	for (int x = 0; x < N; x++) v[x] = W[x];
}

static void lcs_scalar_1(const aln_prep_t *p, int64_t r0, int64_t c0, int64_t c1, uint64_t *hc, uint64_t *v, int ob) { lcs_scalar_n(p, 1, r0, c0, c1, hc, v, ob); }
static void lcs_scalar_2(const aln_prep_t *p, int64_t r0, int64_t c0, int64_t c1, uint64_t *hc, uint64_t *v, int ob) { lcs_scalar_n(p, 2, r0, c0, c1, hc, v, ob); }
static void lcs_scalar_3(const aln_prep_t *p, int64_t r0, int64_t c0, int64_t c1, uint64_t *hc, uint64_t *v, int ob) { lcs_scalar_n(p, 3, r0, c0, c1, hc, v, ob); }
static void lcs_scalar_4(const aln_prep_t *p, int64_t r0, int64_t c0, int64_t c1, uint64_t *hc, uint64_t *v, int ob) { lcs_scalar_n(p, 4, r0, c0, c1, hc, v, ob); }

static void lcs_slab_scalar(const aln_prep_t *p, int64_t r0, int64_t r1, int64_t c0, int64_t c1, uint64_t *hc,
                            uint64_t *v)
{
	typedef void (*fn_t)(const aln_prep_t *, int64_t, int64_t, int64_t, uint64_t *, uint64_t *, int);
	static const fn_t f[4] = { lcs_scalar_1, lcs_scalar_2, lcs_scalar_3, lcs_scalar_4 };
	for (int64_t r = r0; r < r1; r += 4) {
		int n = r1 - r < 4 ? (int)(r1 - r) : 4;
		int ob = r + n == p->nw && (p->la & 63) ? (int)((p->la - 1) & 63) : 63;
		f[n - 1](p, r, c0, c1, hc, v + (r - r0), ob);
	}
}

#ifdef ALN_X86
#define ALN_ISA 2
#include "algo/aln_vec.h"
#include "algo/lcs_kern.h"
#undef ALN_ISA
#define ALN_ISA 3
#include "algo/aln_vec.h"
#include "algo/lcs_kern.h"
#undef ALN_ISA
#endif

void lcs_slab(const aln_prep_t *p, int simd, int64_t r0, int64_t r1, int64_t c0, int64_t c1, uint64_t *hc,
              uint64_t *v)
{
	if (c1 <= c0 || r1 <= r0) return;
#ifdef ALN_X86
	if (simd >= 2 && p->simd >= 2 && r1 - r0 >= 3) {
		const int vl = simd >= 3 ? 8 : 4;
		for (int64_t r = r0; r < r1; r += 4 * vl) {
			int nr = (int)(r1 - r < 4 * vl ? r1 - r : 4 * vl);
			int ob = r + nr == p->nw && (p->la & 63) ? (int)((p->la - 1) & 63) : 63;
			uint64_t *x = v + (r - r0);
			if (nr < 3) lcs_slab_scalar(p, r, r + nr, c0, c1, hc, x);
			else if (simd >= 3) lcs_laneavx512(p, r, nr, c0, c1, hc, x, ob);
			else lcs_laneavx2(p, r, nr, c0, c1, hc, x, ob);
		}
		return;
	}
#endif
	lcs_slab_scalar(p, r0, r1, c0, c1, hc, v);
}

static void lcs_full_cols(const aln_prep_t *p, int64_t j0, int64_t j1, uint64_t *st)
{
	const int64_t nw = p->nw;
	for (int64_t j = j0; j < j1; j++) {
		const uint64_t *e = p->peq + (int64_t)p->bc[j] * nw, *pr = st + (j - j0 - 1) * 2 * nw;
		uint64_t *o = st + (j - j0) * 2 * nw, c = 0;
		for (int64_t x = 0; x < nw; x++) {
			uint64_t V = j ? pr[2 * x] : ~0ull, m = e[x], U = V & m, S = V + U + c;
			uint64_t cr = (V & U) | ((V | U) & ~S);
			o[2 * x] = S | (V & ~m);
			o[2 * x + 1] = cr;
			c = cr >> 63;
		}
	}
}

static void lcs_slab_any(const aln_prep_t *p, int simd, int64_t r0, int64_t r1, int64_t c0, int64_t c1, uint64_t *h0,
                         uint64_t *h1, uint64_t *v0, uint64_t *v1)
{
	(void)h1;
	(void)v1;
	lcs_slab(p, simd, r0, r1, c0, c1, h0, v0);
}

const aln_kind_t aln_lcs = { ALN_LCS, lcs_slab_any, lcs_full_cols };
