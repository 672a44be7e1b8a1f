/* MaxLCP with <= k mismatches of one pair of reads, both directions in one sweep.
 *
 * Cell (x, y) lies on diagonal d = y - x. Along a diagonal, LCP(x) = E(x) - x where E(x)
 * is the position of the (k+1)-th mismatch at or after x (or the end of the overlap).
 * Sweeping x downwards, a queue of the k+1 nearest mismatch positions gives E(x) in O(k)
 * blends. Only diagonals d >= 0 are swept with a as the row read; d < 0 are the d > 0
 * diagonals of the swapped pair, so every cell is visited once and yields both the row
 * maximum (for a) and the column maximum (for b). */
#include <stdlib.h>
#include <string.h>
#include "algo/rkt.h"
#include "algo/maxlcp32.h"

#if defined(__x86_64__) && defined(__GNUC__)
#define RKT_X86 1
#include <immintrin.h>
#endif

struct rkt_ws_s {
	int32_t max_len;
	int simd;
	int32_t *mpos;          /* scalar: mismatch positions of one diagonal */
	int32_t *ra, *cb, *rb, *ca;
	uint8_t *row8;          /* byte lanes: one vector per row */
	uint8_t *col8a, *col8b; /* byte lanes: column maxima, padded */
	uint16_t *row16;        /* 16-bit lanes (reads over 255 bp): one vector per row */
	uint16_t *col16a, *col16b;
	int64_t n16;            /* entries of each col16 array */
	rkt_ws32_t *w32;        /* 32-bit lanes (reads over RKT_MAX16 bp; every pair with lanes32) */
	int lanes32;            /* rk_tune.rkt_lanes32: every SIMD pair in 32-bit lanes (tests) */
};

#define RKT_MAX16 65000     /* longest read of the 16-bit sweep (positions fit its lanes) */
#define RKT_SHARE_CELLS (1ll << 28)  /* a pair that threads share: ~50 ms in 32-bit lanes */

int rkt_simd_level(void)
{
#ifdef RKT_X86
	__builtin_cpu_init();
	if (rk_tune.simd >= 0) return rk_tune.simd > 3 ? 3 : rk_tune.simd;  /* forced (tests, benchmarks) */
	if (__builtin_cpu_supports("avx512bw")) return 3;
	if (__builtin_cpu_supports("avx2")) return 2;
#endif
	return 0;
}

const char *rkt_simd_name(void)
{
	int l = rkt_simd_level();
	return l >= 3 ? "avx512bw" : l == 2 ? "avx2" : "scalar";
}

rkt_ws_t *rkt_ws_init(int32_t max_len)
{
	rkt_ws_t *w = calloc(1, sizeof *w);
	if (!w) return 0;
	size_t L = (size_t)max_len + 1;
	w->max_len = max_len;
	w->simd = rkt_simd_level();
	w->lanes32 = w->simd && rk_tune.rkt_lanes32;
	w->mpos = malloc(L * sizeof(int32_t));
	w->ra = malloc(4 * L * sizeof(int32_t));
	if (!w->mpos || !w->ra) { rkt_ws_free(w); return 0; }
	w->cb = w->ra + L; w->rb = w->cb + L; w->ca = w->rb + L;
	if (w->simd) {  /* pairs of reads <= 255 bp use them even when longer reads exist */
		w->row8 = aligned_alloc(64, 256 * 64);
		w->col8a = aligned_alloc(64, 2 * 512);  /* 255 columns + 2 vectors of spill, each */
		if (!w->row8 || !w->col8a) { rkt_ws_free(w); return 0; }
		w->col8b = w->col8a + 512;
		if (max_len > 255) {  /* the 16-bit sweep for the longer reads */
			int64_t L16 = max_len < RKT_MAX16 ? max_len : RKT_MAX16;
			w->n16 = (L16 + 2 * 32 + 63) & ~63;
			w->row16 = aligned_alloc(64, sizeof(uint16_t) * 32 * (size_t)(L16 + 1));
			w->col16a = aligned_alloc(64, sizeof(uint16_t) * 2 * (size_t)w->n16);
			if (!w->row16 || !w->col16a) { rkt_ws_free(w); return 0; }
			w->col16b = w->col16a + w->n16;
		}
		if ((max_len > RKT_MAX16 || w->lanes32) && !(w->w32 = rkt_ws32_init(max_len))) { rkt_ws_free(w); return 0; }
	}
	return w;
}

void rkt_ws_free(rkt_ws_t *w)
{
	if (!w) return;
	free(w->mpos); free(w->ra); free(w->row8); free(w->col8a); free(w->row16); free(w->col16a);
	rkt_ws32_free(w->w32);
	free(w);
}

/* Scalar sweep of diagonals d >= d0: row[x] (a) and col[y] (b) maxima, int32. */
static void rkt_pass_scalar(int32_t *mpos, const uint8_t *a, int32_t la, const uint8_t *b, int32_t lb,
                            int32_t d0, int64_t k, int32_t *row, int32_t *col)
{
	for (int32_t d = d0; d < lb; d++) {
		int32_t D = la < lb - d ? la : lb - d, nm = 0;
		const uint8_t *bd = b + d;
		for (int32_t p = 0; p < D; p++)
			if (a[p] != bd[p] || a[p] > 3) mpos[nm++] = p;
		int32_t c = 0;  /* first mismatch at or after p */
		for (int32_t p = 0; p < D; p++) {
			while (c < nm && mpos[c] < p) c++;
			int32_t E = (int64_t)c + k < nm ? mpos[c + k] : D;
			int32_t v = E - p;
			if (v > row[p]) row[p] = v;
			if (v > col[p + d]) col[p + d] = v;
		}
	}
}

#ifdef RKT_X86
/* AVX2: 32 lanes, blend by byte mask */
#define SX avx2
#define SX_ATTR __attribute__((target("avx2")))
#define V __m256i
#define VM __m256i
#define VL 32
#define V_LOADU(p) _mm256_loadu_si256((const __m256i *)(p))
#define V_STOREU(p, v) _mm256_storeu_si256((__m256i *)(p), v)
#define V_SET1(c) _mm256_set1_epi8((char)(c))
#define V_EQ(a, b) _mm256_cmpeq_epi8(a, b)
#define V_BLEND(m, if0, if1) _mm256_blendv_epi8(if0, if1, m)
#define V_MINU _mm256_min_epu8
#define V_MAXU _mm256_max_epu8
#define V_SUBSU _mm256_subs_epu8
#define V_ZERO _mm256_setzero_si256()
#define V_SHL1(v) _mm256_alignr_epi8(v, _mm256_permute2x128_si256(v, v, 0x08), 15)
#define V_SHIFTIN(o, c) _mm256_alignr_epi8(o, _mm256_permute2x128_si256(c, o, 0x21), 15)
#define V_HMAX rkt_hmax_avx2
#define V_LANES _mm256_setr_epi8(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, \
	20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31)
#define SX_T uint8_t
#define SX_TOP 0xff
#define V_LOADB(p) V_LOADU(p)

SX_ATTR static inline int rkt_hmax_avx2(__m256i v)
{
	__m128i m = _mm_max_epu8(_mm256_castsi256_si128(v), _mm256_extracti128_si256(v, 1));
	m = _mm_max_epu8(m, _mm_srli_si128(m, 8));
	m = _mm_max_epu8(m, _mm_srli_si128(m, 4));
	m = _mm_max_epu8(m, _mm_srli_si128(m, 2));
	m = _mm_max_epu8(m, _mm_srli_si128(m, 1));
	return _mm_cvtsi128_si32(m) & 0xff;
}
#include "algo/maxlcp_simd.h"
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
#undef V_MINU
#undef V_MAXU
#undef V_SUBSU
#undef V_ZERO
#undef V_SHL1
#undef V_HMAX
#undef V_SHIFTIN
#undef V_LANES

/* AVX-512BW: 64 lanes, blend by mask register; one vector covers a 64-bp read's diagonals */
#define SX avx512
#define SX_ATTR __attribute__((target("avx512f,avx512bw")))
#define V __m512i
#define VM __mmask64
#define VL 64
#define V_LOADU(p) _mm512_loadu_si512((const void *)(p))
#define V_STOREU(p, v) _mm512_storeu_si512((void *)(p), v)
#define V_SET1(c) _mm512_set1_epi8((char)(c))
#define V_EQ(a, b) _mm512_cmpeq_epi8_mask(a, b)
#define V_BLEND(m, if0, if1) _mm512_mask_blend_epi8(m, if0, if1)
#define V_MINU _mm512_min_epu8
#define V_MAXU _mm512_max_epu8
#define V_SUBSU _mm512_subs_epu8
#define V_ZERO _mm512_setzero_si512()
#define V_SHL1(v) _mm512_alignr_epi8(v, _mm512_maskz_shuffle_i64x2(0xfc, v, v, 0x90), 15)
#define V_SHIFTIN(o, c) _mm512_alignr_epi8(o, _mm512_permutex2var_epi64(o, _mm512_setr_epi64(14, 15, 0, 1, 2, 3, 4, 5), c), 15)
#define V_HMAX rkt_hmax_avx512
#define V_LANES rkt_lanes_avx512()

SX_ATTR static inline int rkt_hmax_avx512(__m512i v)
{
	__m256i h = _mm256_max_epu8(_mm512_castsi512_si256(v), _mm512_extracti64x4_epi64(v, 1));
	return rkt_hmax_avx2(h);
}
SX_ATTR static inline __m512i rkt_lanes_avx512(void)
{
	static const uint8_t l[64] = { 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21,
		22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43, 44, 45, 46, 47,
		48, 49, 50, 51, 52, 53, 54, 55, 56, 57, 58, 59, 60, 61, 62, 63 };
	return _mm512_loadu_si512((const void *)l);
}
#include "algo/maxlcp_simd.h"
#undef SX
#undef SX_ATTR
#undef V
#undef VM
#undef VL
#undef V_SET1
#undef V_EQ
#undef V_BLEND
#undef V_MINU
#undef V_MAXU
#undef V_SUBSU
#undef V_SHL1
#undef V_SHIFTIN
#undef V_HMAX
#undef V_LANES
#undef SX_T
#undef SX_TOP
#undef V_LOADB

/* Reads of 256 to 65,535 bp: the same sweep with 16-bit lanes (half the lanes per vector,
 * so about twice the work per cell of the byte lanes, instead of the scalar sweep's ~35x). */
#define SX_T uint16_t
#define SX_TOP 0xffff

#undef V_LOADU
#undef V_STOREU
#undef V_ZERO
#define SX avx2w
#define SX_ATTR __attribute__((target("avx2")))
#define V_LOADU(p) _mm256_loadu_si256((const __m256i *)(p))
#define V_STOREU(p, v) _mm256_storeu_si256((__m256i *)(p), v)
#define V_ZERO _mm256_setzero_si256()
#define V __m256i
#define VM __m256i
#define VL 16
#define V_LOADB(p) _mm256_cvtepu8_epi16(_mm_loadu_si128((const __m128i *)(p)))
#define V_SET1(c) _mm256_set1_epi16((short)(c))
#define V_EQ(a, b) _mm256_cmpeq_epi16(a, b)
#define V_BLEND(m, if0, if1) _mm256_blendv_epi8(if0, if1, m)
#define V_MINU _mm256_min_epu16
#define V_MAXU _mm256_max_epu16
#define V_SUBSU _mm256_subs_epu16
#define V_SHL1(v) _mm256_alignr_epi8(v, _mm256_permute2x128_si256(v, v, 0x08), 14)
#define V_SHIFTIN(o, c) _mm256_alignr_epi8(o, _mm256_permute2x128_si256(c, o, 0x21), 14)
#define V_HMAX rkt_hmax16_avx2
#define V_LANES _mm256_setr_epi16(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15)

SX_ATTR static inline int rkt_hmax16_avx2(__m256i v)
{
	__m128i m = _mm_max_epu16(_mm256_castsi256_si128(v), _mm256_extracti128_si256(v, 1));
	m = _mm_max_epu16(m, _mm_srli_si128(m, 8));
	m = _mm_max_epu16(m, _mm_srli_si128(m, 4));
	m = _mm_max_epu16(m, _mm_srli_si128(m, 2));
	return _mm_cvtsi128_si32(m) & 0xffff;
}
#include "algo/maxlcp_simd.h"
#undef SX
#undef SX_ATTR
#undef V
#undef VM
#undef VL
#undef V_LOADB
#undef V_SET1
#undef V_EQ
#undef V_BLEND
#undef V_MINU
#undef V_MAXU
#undef V_SUBSU
#undef V_SHL1
#undef V_SHIFTIN
#undef V_HMAX
#undef V_LANES

#undef V_LOADU
#undef V_STOREU
#undef V_ZERO
#define SX avx512w
#define SX_ATTR __attribute__((target("avx512f,avx512bw")))
#define V_LOADU(p) _mm512_loadu_si512((const void *)(p))
#define V_STOREU(p, v) _mm512_storeu_si512((void *)(p), v)
#define V_ZERO _mm512_setzero_si512()
#define V __m512i
#define VM __mmask32
#define VL 32
#define V_LOADB(p) _mm512_cvtepu8_epi16(_mm256_loadu_si256((const __m256i *)(p)))
#define V_SET1(c) _mm512_set1_epi16((short)(c))
#define V_EQ(a, b) _mm512_cmpeq_epi16_mask(a, b)
#define V_BLEND(m, if0, if1) _mm512_mask_blend_epi16(m, if0, if1)
#define V_MINU _mm512_min_epu16
#define V_MAXU _mm512_max_epu16
#define V_SUBSU _mm512_subs_epu16
#define V_SHL1(v) _mm512_alignr_epi8(v, _mm512_maskz_shuffle_i64x2(0xfc, v, v, 0x90), 14)
#define V_SHIFTIN(o, c) _mm512_alignr_epi8(o, _mm512_permutex2var_epi64(o, _mm512_setr_epi64(14, 15, 0, 1, 2, 3, 4, 5), c), 14)
#define V_HMAX rkt_hmax16_avx512
#define V_LANES rkt_lanes16_avx512()

SX_ATTR static inline int rkt_hmax16_avx512(__m512i v)
{
	__m256i h = _mm256_max_epu16(_mm512_castsi512_si256(v), _mm512_extracti64x4_epi64(v, 1));
	return rkt_hmax16_avx2(h);
}
SX_ATTR static inline __m512i rkt_lanes16_avx512(void)
{
	static const uint16_t l[32] = { 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21,
		22, 23, 24, 25, 26, 27, 28, 29, 30, 31 };
	return _mm512_loadu_si512((const void *)l);
}
#include "algo/maxlcp_simd.h"
#endif

void rkt_maxlcp_pair(rkt_ws_t *w, const uint8_t *a, int32_t la, const uint8_t *b, int32_t lb, int64_t k,
                     int32_t *ma, int32_t *mb)
{
	int32_t lmin = la < lb ? la : lb;
	/* more mismatches than overlap positions cannot occur: cap k so the queue stays short */
	int64_t kk = k < lmin ? k : lmin;
#ifdef RKT_X86
	/* positions past the 16-bit lanes: 32-bit lanes (maxlcp32.c; rates in docs/BENCHMARKS.md) */
	if (w->w32 && kk < 256 && (w->lanes32 || la > RKT_MAX16 || lb > RKT_MAX16)) {
		rkt_maxlcp32(w->w32, w->simd, a, la, b, lb, (int)kk + 1, ma, mb);
		return;
	}
	if (w->simd && la <= 255 && lb <= 255) {
		int K1 = (int)kk + 1;
		memset(w->col8a, 0, 1024);
		if (w->simd == 3) {
			rkt_pass_avx512(a, la, b, lb, 0, K1, w->row8, w->col8b, w->ra);   /* d >= 0 */
			rkt_pass_avx512(b, lb, a, la, 1, K1, w->row8, w->col8a, w->rb);   /* d < 0 */
		} else {
			rkt_pass_avx2(a, la, b, lb, 0, K1, w->row8, w->col8b, w->ra);
			rkt_pass_avx2(b, lb, a, la, 1, K1, w->row8, w->col8a, w->rb);
		}
		for (int32_t x = 0; x < la; x++) ma[x] = w->ra[x] > w->col8a[x] ? w->ra[x] : w->col8a[x];
		for (int32_t y = 0; y < lb; y++) mb[y] = w->rb[y] > w->col8b[y] ? w->rb[y] : w->col8b[y];
		return;
	}
	if (w->row16 && la <= RKT_MAX16 && lb <= RKT_MAX16 && kk < 256) {
		int K1 = (int)kk + 1;
		memset(w->col16a, 0, sizeof(uint16_t) * 2 * (size_t)w->n16);
		if (w->simd == 3) {
			rkt_pass_avx512w(a, la, b, lb, 0, K1, w->row16, w->col16b, w->ra);
			rkt_pass_avx512w(b, lb, a, la, 1, K1, w->row16, w->col16a, w->rb);
		} else {
			rkt_pass_avx2w(a, la, b, lb, 0, K1, w->row16, w->col16b, w->ra);
			rkt_pass_avx2w(b, lb, a, la, 1, K1, w->row16, w->col16a, w->rb);
		}
		for (int32_t x = 0; x < la; x++) ma[x] = w->ra[x] > w->col16a[x] ? w->ra[x] : w->col16a[x];
		for (int32_t y = 0; y < lb; y++) mb[y] = w->rb[y] > w->col16b[y] ? w->rb[y] : w->col16b[y];
		return;
	}
#endif
	memset(w->ra, 0, sizeof(int32_t) * (size_t)la);
	memset(w->cb, 0, sizeof(int32_t) * (size_t)lb);
	memset(w->rb, 0, sizeof(int32_t) * (size_t)lb);
	memset(w->ca, 0, sizeof(int32_t) * (size_t)la);
	rkt_pass_scalar(w->mpos, a, la, b, lb, 0, kk, w->ra, w->cb);
	rkt_pass_scalar(w->mpos, b, lb, a, la, 1, kk, w->rb, w->ca);
	for (int32_t x = 0; x < la; x++) ma[x] = w->ra[x] > w->ca[x] ? w->ra[x] : w->ca[x];
	for (int32_t y = 0; y < lb; y++) mb[y] = w->rb[y] > w->cb[y] ? w->rb[y] : w->cb[y];
}

int rkt_pair_shared(const rkt_ws_t *w, int32_t la, int32_t lb, int64_t k)
{
	int32_t lmin = la < lb ? la : lb;
	if (!w->w32 || (k < lmin ? k : lmin) >= 256) return 0;
	if (w->lanes32) return 1;  /* tests: every pair, short ones too */
	return (la > RKT_MAX16 || lb > RKT_MAX16) && (int64_t)la * lb >= RKT_SHARE_CELLS;
}

void rkt_maxlcp_pair_part(rkt_ws_t *w, const uint8_t *a, int32_t la, const uint8_t *b, int32_t lb, int64_t k, int part,
                          int nparts)
{
	int32_t lmin = la < lb ? la : lb;
	rkt_maxlcp32_part(w->w32, w->simd, a, la, b, lb, (int)(k < lmin ? k : lmin) + 1, part, nparts);
}

void rkt_maxlcp_pair_merge(rkt_ws_t *const *w, int n, int32_t la, int32_t lb, int32_t *ma, int32_t *mb)
{
	for (int t = 1; t < n; t++) rkt_maxlcp32_fold(w[0]->w32, w[t]->w32, la, lb);
	rkt_maxlcp32_out(w[0]->w32, la, lb, ma, mb);
}
