/* lev slab kernels: scalar (column by column over the word rows) and skewed SIMD (one word
 * row per lane, VL or 2 VL word rows per call). The recurrence per 64 rows is Myers' with
 * Hyyrö's horizontal input: hin = -1 sets bit 0 of Eq, the shifted-in bit of Ph/Mh is hin. */
#include <string.h>
#include "algo/lev.h"
#include "algo/aln_dp.h"

#if defined(__x86_64__) && defined(__GNUC__)
#define ALN_X86 1
#include <immintrin.h>
#endif


/* N (1..4) word rows from r0 over [c0, c1), skewed like the SIMD kernels: word row r0 + x
 * runs x columns behind word row r0 and takes the delta that left the word above one step
 * earlier. The words of a step are then independent (a column-major loop chains them) and
 * the state stays in registers. */
static inline __attribute__((always_inline)) void lev_scalar_n(const aln_prep_t *p, const int N, int64_t r0,
	int64_t c0, int64_t c1, uint64_t *hp, uint64_t *hm, uint64_t *pv, uint64_t *mv, int ob)
{
	const int64_t nw = p->nw, nc = c1 - c0, T = nc + N - 1;
	const uint64_t *peq = p->peq + r0;
	const uint8_t *bc = p->bc + c0;
	uint64_t P[4], M[4], oh[4] = { 0 }, om[4] = { 0 };   /* outputs of the last step */
	for (int x = 0; x < N; x++) P[x] = pv[x], M[x] = mv[x];
	uint64_t ip = 0, im = 0, op = 0, omm = 0;
	for (int64_t t = 0; t < T; t++) {
		int s = (int)(t & 63);
		if (s == 0 && t < nc) { ip = hp[t >> 6]; im = hm[t >> 6]; }
		#pragma GCC unroll 4
		for (int x = N - 1; x >= 0; x--) {
			int64_t q = t - x;   /* this word's column */
			if (q < 0 || q >= nc) continue;
			uint64_t h1 = x ? oh[x - 1] : ip >> s & 1, h2 = x ? om[x - 1] : im >> s & 1;
			aln_lev_word(peq[(int64_t)bc[q] * nw + x], &P[x], &M[x], &h1, &h2, x == N - 1 ? ob : 63);
			oh[x] = h1;
			om[x] = h2;
		}
		int64_t q = t - (N - 1);
		if (q < 0) continue;
		int u = (int)(q & 63);
		op |= oh[N - 1] << u;
		omm |= om[N - 1] << u;
		if (u == 63 || q == nc - 1) {
			uint64_t keep = u == 63 ? 0 : ~0ull << (u + 1);
			hp[q >> 6] = (hp[q >> 6] & keep) | op;
			hm[q >> 6] = (hm[q >> 6] & keep) | omm;
			op = omm = 0;
		}
	}
	for (int x = 0; x < N; x++) pv[x] = P[x], mv[x] = M[x];
}

static void lev_scalar_1(const aln_prep_t *p, int64_t r0, int64_t c0, int64_t c1, uint64_t *hp, uint64_t *hm, uint64_t *pv, uint64_t *mv, int ob) { lev_scalar_n(p, 1, r0, c0, c1, hp, hm, pv, mv, ob); }
static void lev_scalar_2(const aln_prep_t *p, int64_t r0, int64_t c0, int64_t c1, uint64_t *hp, uint64_t *hm, uint64_t *pv, uint64_t *mv, int ob) { lev_scalar_n(p, 2, r0, c0, c1, hp, hm, pv, mv, ob); }
static void lev_scalar_3(const aln_prep_t *p, int64_t r0, int64_t c0, int64_t c1, uint64_t *hp, uint64_t *hm, uint64_t *pv, uint64_t *mv, int ob) { lev_scalar_n(p, 3, r0, c0, c1, hp, hm, pv, mv, ob); }
static void lev_scalar_4(const aln_prep_t *p, int64_t r0, int64_t c0, int64_t c1, uint64_t *hp, uint64_t *hm, uint64_t *pv, uint64_t *mv, int ob) { lev_scalar_n(p, 4, r0, c0, c1, hp, hm, pv, mv, ob); }

static void lev_slab_scalar(const aln_prep_t *p, int64_t r0, int64_t r1, int64_t c0, int64_t c1, uint64_t *hp,
                            uint64_t *hm, uint64_t *pv, uint64_t *mv)
{
	typedef void (*fn_t)(const aln_prep_t *, int64_t, int64_t, int64_t, uint64_t *, uint64_t *, uint64_t *, uint64_t *, int);
	static const fn_t f[4] = { lev_scalar_1, lev_scalar_2, lev_scalar_3, lev_scalar_4 };
	for (int64_t r = r0; r < r1; r += 4) {
		int n = r1 - r < 4 ? (int)(r1 - r) : 4;
		int ob = r + n == p->nw && (p->la & 63) ? (int)((p->la - 1) & 63) : 63;
		f[n - 1](p, r, c0, c1, hp, hm, pv + (r - r0), mv + (r - r0), ob);
	}
}

#ifdef ALN_X86
#define ALN_ISA 2
#include "algo/aln_vec.h"
#include "algo/lev_kern.h"
#undef ALN_ISA
#define ALN_ISA 3
#include "algo/aln_vec.h"
#include "algo/lev_kern.h"
#undef ALN_ISA
#define ALN_ISA 4
#include "algo/aln_vec.h"
#include "algo/lev_kern.h"
#undef ALN_ISA
#endif

void lev_slab(const aln_prep_t *p, int simd, int64_t r0, int64_t r1, int64_t c0, int64_t c1, uint64_t *hp,
              uint64_t *hm, uint64_t *pv, uint64_t *mv)
{
	if (c1 <= c0 || r1 <= r0) return;
#ifdef ALN_X86
	if (simd >= 2 && p->simd >= 2 && r1 - r0 >= 3) {
		const int vl = simd >= 3 ? 8 : 4;
		for (int64_t r = r0; r < r1; r += 4 * vl) {
			int nr = (int)(r1 - r < 4 * vl ? r1 - r : 4 * vl);
			int ob = r + nr == p->nw && (p->la & 63) ? (int)((p->la - 1) & 63) : 63;
			uint64_t *x = pv + (r - r0), *y = mv + (r - r0);
			if (nr < 3) lev_slab_scalar(p, r, r + nr, c0, c1, hp, hm, x, y);
			else if (simd >= 4) lev_laneavx512v(p, r, nr, c0, c1, hp, hm, x, y, ob);
			else if (simd >= 3) lev_laneavx512(p, r, nr, c0, c1, hp, hm, x, y, ob);
			else lev_laneavx2(p, r, nr, c0, c1, hp, hm, x, y, ob);
		}
		return;
	}
#endif
	lev_slab_scalar(p, r0, r1, c0, c1, hp, hm, pv, mv);
}

static void lev_full_cols(const aln_prep_t *p, int64_t j0, int64_t j1, uint64_t *st)
{
	const int64_t nw = p->nw;
	for (int64_t j = j0; j < j1; j++) {
		const uint64_t *e = p->peq + (int64_t)p->bc[j] * nw, *pr = st + (j - j0 - 1) * 4 * nw;
		uint64_t *o = st + (j - j0) * 4 * nw, hp = 1, hm = 0;
		for (int64_t x = 0; x < nw; x++) {
			uint64_t Pv = j ? pr[4 * x] : ~0ull, Mv = j ? pr[4 * x + 1] : 0, eq = e[x];
			uint64_t Xv = eq | Mv;
			eq |= hm;
			uint64_t Xh = (((eq & Pv) + Pv) ^ Pv) | eq, Ph = Mv | ~(Xh | Pv), Mh = Pv & Xh;
			o[4 * x + 2] = Ph;
			o[4 * x + 3] = Mh;
			uint64_t op = Ph >> 63, om = Mh >> 63;
			Ph = Ph << 1 | hp;
			Mh = Mh << 1 | hm;
			o[4 * x] = Mh | ~(Xv | Ph);
			o[4 * x + 1] = Ph & Xv;
			hp = op;
			hm = om;
		}
	}
}

const aln_kind_t aln_lev = { ALN_LEV, lev_slab, lev_full_cols };
