/* Vector vocabulary of the SIMD kernels, included once per instruction set by the kernel
 * files: define ALN_ISA to 2 (AVX2, 4 lanes), 3 (AVX-512, 8 lanes) or 4 (AVX-512 with VBMI2's
 * funnel shift) first. Lanes are 64-bit
 * words. Three-input logic is written once as a macro F(a, b, c) of C operators: AVX-512
 * evaluates it on the ternlog truth-table constants, AVX2 on GCC vector operands. */
#undef SX
#undef SX_ATTR
#undef V
#undef VL
#undef V_LOAD
#undef V_STORE
#undef V_SET1
#undef V_ZERO
#undef V_ADD
#undef V_SRL
#undef V_SLL
#undef V_SLLN
#undef V_EXP8
#undef V_TL
#undef V_SHIFT_IN
#undef V_MSB
#undef V_BLEND
#undef V_LANEBIT
#undef V_SRA63
#undef V_SHLD1

#if ALN_ISA == 3 || ALN_ISA == 4
#if ALN_ISA == 4
#define SX avx512v
#define SX_ATTR __attribute__((target("avx512f,avx512bw,avx512dq,avx512vl,avx512vbmi2")))
#define V_SHLD1(a, b) _mm512_shldi_epi64(a, b, 1)
#else
#define SX avx512
#define SX_ATTR __attribute__((target("avx512f,avx512bw,avx512dq,avx512vl")))
#define V_SHLD1(a, b) (V_ADD(a, a) | V_SRL(b, 63))
#endif
#define V __m512i
#define VL 8
#define V_LOAD(p) _mm512_loadu_si512((const void *)(p))
#define V_STORE(p, v) _mm512_storeu_si512((void *)(p), v)
#define V_SET1(x) _mm512_set1_epi64((long long)(x))
#define V_ZERO _mm512_setzero_si512()
#define V_ADD _mm512_add_epi64
#define V_SRL(v, n) _mm512_srli_epi64(v, n)
#define V_SLL(v, n) _mm512_slli_epi64(v, n)
#define V_SLLN(v, n) _mm512_sll_epi64(v, _mm_cvtsi32_si128(n))
/* 8 bytes (0x00 / 0xff) to 8 lane masks */
#define V_EXP8(p) _mm512_cvtepi8_epi64(_mm_loadl_epi64((const __m128i *)(p)))
#define V_TL(a, b, c, F) _mm512_ternarylogic_epi64(a, b, c, (F(0xF0, 0xCC, 0xAA)) & 0xFF)
/* lanes up by one; lane 0 = lane VL-1 of s */
#define V_SHIFT_IN(v, s) _mm512_alignr_epi64(v, s, 7)
/* bit 63 of every lane as an int bit mask */
#define V_MSB(v) ((unsigned)_mm512_movepi64_mask(v))
#define V_BLEND(old, nw, bits) _mm512_mask_mov_epi64(old, (__mmask8)(bits), nw)
/* every lane: all ones where bit 63 is set */
#define V_SRA63(v) _mm512_srai_epi64(v, 63)
#elif ALN_ISA == 2
#define SX avx2
#define SX_ATTR __attribute__((target("avx2")))
#define V_SHLD1(a, b) (V_ADD(a, a) | V_SRL(b, 63))
#define V __m256i
#define VL 4
#define V_LOAD(p) _mm256_loadu_si256((const __m256i *)(p))
#define V_STORE(p, v) _mm256_storeu_si256((__m256i *)(p), v)
#define V_SET1(x) _mm256_set1_epi64x((long long)(x))
#define V_ZERO _mm256_setzero_si256()
#define V_ADD _mm256_add_epi64
#define V_SRL(v, n) _mm256_srli_epi64(v, n)
#define V_SLL(v, n) _mm256_slli_epi64(v, n)
#define V_SLLN(v, n) _mm256_sll_epi64(v, _mm_cvtsi32_si128(n))
#define V_EXP8(p) _mm256_cvtepi8_epi64(aln_load32(p))
#define V_TL(a, b, c, F) ((__m256i)(F((a), (b), (c))))
#define V_SHIFT_IN(v, s) _mm256_alignr_epi8(v, _mm256_permute2x128_si256(s, v, 0x21), 8)
#define V_MSB(v) ((unsigned)_mm256_movemask_pd(_mm256_castsi256_pd(v)))
#define V_BLEND(old, nw, bits) _mm256_blendv_epi8(old, nw, V_LANEBIT(bits))
#define V_SRA63(v) _mm256_cmpgt_epi64(_mm256_setzero_si256(), v)
#define V_LANEBIT(bits) _mm256_cmpgt_epi64(_mm256_and_si256(_mm256_set1_epi64x(bits), \
	_mm256_setr_epi64x(1, 2, 4, 8)), _mm256_setzero_si256())
#else
#error "define ALN_ISA to 2, 3 or 4"
#endif

#ifndef SX_FN
/* 4 bytes from anywhere (no alignment) */
static inline __m128i aln_load32(const void *p)
{
	int32_t x;
	memcpy(&x, p, 4);
	return _mm_cvtsi32_si128(x);
}
#define SX_CAT2(a, b) a##b
#define SX_CAT(a, b) SX_CAT2(a, b)
#define SX_FN(name) SX_CAT(name, SX)
#endif

/* The three-input functions of the kernels (a, b, c in argument order). */
#ifndef F_OR_XOR
#define F_OR_XOR(a, b, c) ((a) | ((b) ^ (c)))         /* x | (plane ^ mask) */
#define F_NOT_OR(a, b, c) (~(a) | (b))                 /* ~x | y (c unused) */
#define F_XH(a, b, c) (((a) ^ (b)) | (c))              /* (sum ^ pv) | eq */
#define F_OR_NOR(a, b, c) ((a) | ~((b) | (c)))         /* mv | ~(xh | pv), mh | ~(xv | ph) */
#define F_ANDNOT(a, b, c) ((a) & ~(b))                 /* v & ~x (c unused) */
#define F_CARRY(a, b, c) (((a) & (b)) | (((a) | (b)) & ~(c)))  /* carry out of a + b (+1) = c */
#define F_OR_AND(a, b, c) ((a) | ((b) & (c)))          /* s | (v & x) */
#define F_XOR3(a, b, c) ((a) ^ (b) ^ (c))
#endif
/* V_SHLD1(a, b): a shifted up one bit, bit 63 of b coming in (a + a, as x << 1 runs on half
 * the vector pipes of some cores) */
