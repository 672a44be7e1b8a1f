/* MaxLCP of one pair of reads in 32-bit lanes (maxlcp32.h): the sweep of maxlcp.c for reads
 * whose positions do not fit 16-bit lanes. Half the lanes of the 16-bit sweep per vector, but
 * one-instruction lane shifts (valignd; a permute on AVX2) and 4 bytes of row state per row
 * instead of a vector (a 300 kb read's rows: 1.2 MB, read in order, rather than 19 MB
 * streamed from memory once per group of diagonals). */
#include <stdlib.h>
#include <string.h>
#include "algo/rkt.h"
#include "algo/maxlcp32.h"

#if defined(__x86_64__) && defined(__GNUC__)
#define RKT_X86 1
#include <immintrin.h>
#endif

#define RKT32_PAD 128  /* entries past each array's read: vector loads and stores of 2 x 16 lanes */

struct rkt_ws32_s {
	int32_t max_len;
	/* each read in the two forms the sweep compares, widened to 32 bits: as the row read
	 * (unknown -> 0xfe) and as the column read (unknown 4, the 0xff padding kept), so that an
	 * unknown symbol matches nothing */
	int32_t *arow, *acol, *brow, *bcol;
	int32_t *rowa, *rowb;  /* row ends e (lcp + row), rows of a (d >= 0), of b (d < 0) */
	int32_t *cola, *colb;  /* column maxima: a's from the d < 0 pass, b's from the d >= 0 pass */
	int32_t *iota;         /* iota[x] = x */
};

rkt_ws32_t *rkt_ws32_init(int32_t max_len)
{
	rkt_ws32_t *w = calloc(1, sizeof *w);
	if (!w) return 0;
	size_t n = ((size_t)max_len + RKT32_PAD + 15) & ~(size_t)15;  /* 64 B multiples: rows stay aligned */
	w->max_len = max_len;
	w->arow = aligned_alloc(64, 9 * n * sizeof(int32_t));
	if (!w->arow) { free(w); return 0; }
	w->acol = w->arow + n; w->brow = w->acol + n; w->bcol = w->brow + n;
	w->rowa = w->bcol + n; w->rowb = w->rowa + n; w->cola = w->rowb + n; w->colb = w->cola + n;
	w->iota = w->colb + n;
	for (size_t x = 0; x < n; x++) w->iota[x] = (int32_t)x;
	return w;
}

void rkt_ws32_free(rkt_ws32_t *w)
{
	if (!w) return;
	free(w->arow);
	free(w);
}

#ifdef RKT_X86
/* AVX2: 8 lanes */
#define SX avx2d
#define SX_ATTR __attribute__((target("avx2")))
#define V __m256i
#define VM __m256i
#define VL 8
#define V_LOADU(p) _mm256_loadu_si256((const __m256i *)(p))
#define V_STOREU(p, v) _mm256_storeu_si256((__m256i *)(p), v)
#define V_SET1(c) _mm256_set1_epi32(c)
#define V_EQ(a, b) _mm256_cmpeq_epi32(a, b)
#define V_BLEND(m, if0, if1) _mm256_blendv_epi8(if0, if1, m)
#define V_MIN _mm256_min_epi32
#define V_MAX _mm256_max_epi32
#define V_ADD _mm256_add_epi32
#define V_SUB _mm256_sub_epi32
#define V_ZERO _mm256_setzero_si256()
/* lane i <- lane i-1 by one permute, which the two shifts of a step share */
#define V_ROT(v) _mm256_permutevar8x32_epi32(v, _mm256_setr_epi32(7, 0, 1, 2, 3, 4, 5, 6))
#define V_SHL1(v) _mm256_blend_epi32(V_ROT(v), _mm256_setzero_si256(), 1)
#define V_SHIFTIN(o, c) _mm256_blend_epi32(V_ROT(o), V_ROT(c), 1)
#define V_LANES _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7)
#define V_RMAX rkt_rmax32_avx2

/* Transposed max: lane i = the largest lane of v[i] (an unpack tree, 7 merges of 2 shuffles
 * and a max for 8 rows, where 8 separate horizontal maxima take 24 of each). */
SX_ATTR static inline __m256i rkt_rmax32_avx2(const __m256i *v)
{
	__m256i u[4], w[2];
	for (int i = 0; i < 4; i++)  /* per 128-bit half: v[2i] lanes {0,2},{1,3} and v[2i+1] likewise */
		u[i] = _mm256_max_epi32(_mm256_unpacklo_epi32(v[2 * i], v[2 * i + 1]), _mm256_unpackhi_epi32(v[2 * i], v[2 * i + 1]));
	for (int i = 0; i < 2; i++)  /* per half: v[4i .. 4i+3] in order */
		w[i] = _mm256_max_epi32(_mm256_unpacklo_epi64(u[2 * i], u[2 * i + 1]), _mm256_unpackhi_epi64(u[2 * i], u[2 * i + 1]));
	return _mm256_max_epi32(_mm256_permute2x128_si256(w[0], w[1], 0x20), _mm256_permute2x128_si256(w[0], w[1], 0x31));
}
#include "algo/maxlcp32_simd.h"
#undef SX
#undef SX_ATTR
#undef V
#undef VM
#undef VL
#undef V_LOADU
#undef V_STOREU
#undef V_SET1
#undef V_EQ
#undef V_BLEND
#undef V_MIN
#undef V_MAX
#undef V_ADD
#undef V_SUB
#undef V_ZERO
#undef V_ROT
#undef V_SHL1
#undef V_SHIFTIN
#undef V_LANES
#undef V_RMAX

/* AVX-512: 16 lanes, blend by mask register, valignd shifts across the whole vector */
#define SX avx512d
#define SX_ATTR __attribute__((target("avx512f")))
#define V __m512i
#define VM __mmask16
#define VL 16
#define V_LOADU(p) _mm512_loadu_si512((const void *)(p))
#define V_STOREU(p, v) _mm512_storeu_si512((void *)(p), v)
#define V_SET1(c) _mm512_set1_epi32(c)
#define V_EQ(a, b) _mm512_cmpeq_epi32_mask(a, b)
#define V_BLEND(m, if0, if1) _mm512_mask_blend_epi32(m, if0, if1)
#define V_MIN _mm512_min_epi32
#define V_MAX _mm512_max_epi32
#define V_ADD _mm512_add_epi32
#define V_SUB _mm512_sub_epi32
#define V_ZERO _mm512_setzero_si512()
#define V_SHL1(v) _mm512_alignr_epi32(v, _mm512_setzero_si512(), 15)
#define V_SHIFTIN(o, c) _mm512_alignr_epi32(o, c, 15)
#define V_LANES _mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15)
#define V_RMAX rkt_rmax32_avx512

/* Transposed max of 16 rows: the AVX2 tree within 128-bit quarters, then two merges of quarters. */
SX_ATTR static inline __m512i rkt_rmax32_avx512(const __m512i *v)
{
	__m512i u[8], w[4], x[2];
	for (int i = 0; i < 8; i++)
		u[i] = _mm512_max_epi32(_mm512_unpacklo_epi32(v[2 * i], v[2 * i + 1]), _mm512_unpackhi_epi32(v[2 * i], v[2 * i + 1]));
	for (int i = 0; i < 4; i++)  /* per quarter: v[4i .. 4i+3] in order */
		w[i] = _mm512_max_epi32(_mm512_unpacklo_epi64(u[2 * i], u[2 * i + 1]), _mm512_unpackhi_epi64(u[2 * i], u[2 * i + 1]));
	for (int i = 0; i < 2; i++)  /* quarters: w[2i] over its quarters {0,1}, {2,3}, then w[2i+1] likewise */
		x[i] = _mm512_max_epi32(_mm512_shuffle_i32x4(w[2 * i], w[2 * i + 1], 0x88), _mm512_shuffle_i32x4(w[2 * i], w[2 * i + 1], 0xdd));
	return _mm512_max_epi32(_mm512_shuffle_i32x4(x[0], x[1], 0x88), _mm512_shuffle_i32x4(x[0], x[1], 0xdd));
}
#include "algo/maxlcp32_simd.h"
#endif

/* The two forms of a read (struct rkt_ws32_s), its RKT_PAD bytes of 0xff included. */
static void rkt_widen(const uint8_t *s, int32_t l, int32_t *row, int32_t *col)
{
	for (int32_t x = 0; x < l + RKT_PAD; x++) {
		col[x] = s[x];
		row[x] = s[x] < 4 ? s[x] : 0xfe;
	}
}

void rkt_maxlcp32_part(rkt_ws32_t *w, int simd, const uint8_t *a, int32_t la, const uint8_t *b, int32_t lb, int K1,
                       int part, int nparts)
{
	rkt_widen(a, la, w->arow, w->acol);
	rkt_widen(b, lb, w->brow, w->bcol);
	memset(w->rowa, 0, sizeof(int32_t) * ((size_t)la + RKT32_PAD));
	memset(w->cola, 0, sizeof(int32_t) * ((size_t)la + RKT32_PAD));
	memset(w->rowb, 0, sizeof(int32_t) * ((size_t)lb + RKT32_PAD));
	memset(w->colb, 0, sizeof(int32_t) * ((size_t)lb + RKT32_PAD));
#ifdef RKT_X86
	if (simd == 3) {
		rkt_pass32_avx512d(w->arow, la, w->bcol, lb, 0, K1, w->rowa, w->colb, w->iota, part, nparts);  /* d >= 0 */
		rkt_pass32_avx512d(w->brow, lb, w->acol, la, 1, K1, w->rowb, w->cola, w->iota, part, nparts);  /* d < 0 */
	} else {
		rkt_pass32_avx2d(w->arow, la, w->bcol, lb, 0, K1, w->rowa, w->colb, w->iota, part, nparts);
		rkt_pass32_avx2d(w->brow, lb, w->acol, la, 1, K1, w->rowb, w->cola, w->iota, part, nparts);
	}
#else
	(void)simd; (void)K1; (void)part; (void)nparts;
#endif
}

void rkt_maxlcp32_fold(rkt_ws32_t *into, const rkt_ws32_t *from, int32_t la, int32_t lb)
{
	for (int32_t x = 0; x < la; x++) {
		if (from->rowa[x] > into->rowa[x]) into->rowa[x] = from->rowa[x];
		if (from->cola[x] > into->cola[x]) into->cola[x] = from->cola[x];
	}
	for (int32_t y = 0; y < lb; y++) {
		if (from->rowb[y] > into->rowb[y]) into->rowb[y] = from->rowb[y];
		if (from->colb[y] > into->colb[y]) into->colb[y] = from->colb[y];
	}
}

void rkt_maxlcp32_out(const rkt_ws32_t *w, int32_t la, int32_t lb, int32_t *ma, int32_t *mb)
{
	for (int32_t x = 0; x < la; x++) {
		int32_t r = w->rowa[x] - x;  /* < 0 where no diagonal d >= 0 reaches row x */
		ma[x] = r > w->cola[x] ? r : w->cola[x];
	}
	for (int32_t y = 0; y < lb; y++) {
		int32_t r = w->rowb[y] - y;
		mb[y] = r > w->colb[y] ? r : w->colb[y];
	}
}

void rkt_maxlcp32(rkt_ws32_t *w, int simd, const uint8_t *a, int32_t la, const uint8_t *b, int32_t lb, int K1,
                  int32_t *ma, int32_t *mb)
{
	rkt_maxlcp32_part(w, simd, a, la, b, lb, K1, 0, 1);
	rkt_maxlcp32_out(w, la, lb, ma, mb);
}
