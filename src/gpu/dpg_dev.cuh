/* The lev and lcs kernels' shared device side (dpg_kernel.cu: batch and traceback kernels,
 * dpg_long_kernel.cu: the long kernel): edge words and their packets, what a lane hands to the
 * lane below, the bit-parallel column step (Myers/Hyyro for lev, Allison-Dix / Hyyro for lcs,
 * 32 rows per word, exactly the recurrences of src/algo/lev_slab.c and lcs_slab.c), and the
 * lanes' match-word tables in shared memory. See dpg_kern.h for the layouts.
 *
 * Skewed lanes. Lane l of a group holds RW consecutive words of rows and works on column
 * t - l at step t; the horizontal delta leaving its bottom word at step t is what lane l + 1
 * needs at step t + 1 (the same column one word lower), handed over by __shfl_up_sync each
 * step (lev: the raw Ph and Mh words, two shuffles; lcs: the carry, one; see hand_t). Lane 0 takes the top edge instead (the boundary, or the strip above's bottom).
 * Lanes whose column is outside [0, lb) keep their state (masked steps: the first block of
 * 32 steps and the last ones of a strip); the long kernel runs the blocks in between without
 * any mask.
 *
 * Integer-op roofline (H100: 132 SMs x 64 INT32 lanes x 1.98 GHz = 1.67e13 ops/s). One step
 * of one word is 32 cells.
 *  - lev, per word: Xv, the carry-in bit (>> 31) and eq | it, and, add, xor|or (LOP3), Ph
 *    (LOP3), Mh, two funnel shifts (<< 1 with the bit in), pv (LOP3), mv = 12 INT ops; per lane
 *    and step on top: two shuffles, lane 0's two selects, the bottom-edge packet (3) and slot
 *    (1), the code load and the table address (LDG + IMAD + LDS per word, on the load/FMA pipes)
 *    ~ 12. RW = 4: ~15 ops / 32 cells. 10 Mb x 10 Mb = 1e14 cells: 3.1e12 word steps x 15 =
 *    4.7e13 ops -> 2.8 s at the INT peak (measured 4.26 s: 66%, docs/BENCHMARKS.md; a random
 *    pair's bound and band now leave 45% of the cells: 2.43 s, 52% of that pass's floor); 1 Mb
 *    (RW = 1, 24 ops a word step): 7.5e11 ops -> 45 ms, but a 1 Mb or 40 kb pair is latency
 *    bound, not op bound: (columns + strips x the pipeline lag of 2 blocks) steps of one step's
 *    dependent chain, 7 integer ops and a shuffle from lane to lane, ~60 cycles: 40 kb ~1.3 ms
 *    (measured 2.56 ms, 116 cycles a step, 725514c).
 *  - lcs, per word: U = V & M, S = V + U + c (IADD3), the carry (LOP3), V' (LOP3), c >> 31
 *    = 5 INT ops, + ~8 per lane and step: RW = 4 ~7 ops / 32 cells -> 10 Mb: 2.2e13 ops ->
 *    1.3 s (measured 1.68 s: 77%); 1 Mb (RW = 1): 4e11 -> 24 ms, latency bound as lev
 *    (~50-cycle chain: ~27 ms; measured 49.5 ms).
 *  - batch, 1e6 pairs of 150 x 150: 5 words in an 8-lane group (3 lanes idle), 157 masked
 *    steps of ~26 ops x 8 lanes: 3.3e10 ops -> 2 ms; global traffic ~0.3 GB of codes.
 *  - traceback: one thread per pair, la + lb dependent loads each: memory latency bound.
 *  - bands (similar pairs): the same ops per cell on about la x (band width + strip height)
 *    cells; a narrow band is latency bound instead, about la steps of the ~60-cycle chain
 *    (10 Mb: ~0.3 s), which is what the first, narrow bound costs on long similar pairs. */
#ifndef RGPU_DPG_DEV_CUH
#define RGPU_DPG_DEV_CUH

#include "gpu/dpg_kern.h"

#define FULLM 0xffffffffu

/* DPG_EMU: the same code compiled by the host compiler against the warp emulator of
 * tests/emu (CI runs the kernels' logic without a device); only these hooks differ. */
#ifdef DPG_EMU
#define DPG_DSM(name) uint32_t *name = (uint32_t *)emu_dyn_smem()
#else
#define DPG_DSM(name) extern __shared__ uint32_t name[]
#endif

template <int MODE> struct dpg_ew;
template <> struct dpg_ew<DPG_LEV> { typedef unsigned long long T; };
template <> struct dpg_ew<DPG_LCS> { typedef unsigned int T; };

/* packet of slot u of an edge word, and a packet placed in slot u */
template <int MODE>
__device__ __forceinline__ uint32_t ew_get(typename dpg_ew<MODE>::T w, int u)
{
	if constexpr (MODE == DPG_LEV) return (uint32_t)(w >> (2 * u)) & 3u;
	else return (w >> u) & 1u;
}
template <int MODE>
__device__ __forceinline__ typename dpg_ew<MODE>::T ew_put(uint32_t pk, int u)
{
	typedef typename dpg_ew<MODE>::T T;
	if constexpr (MODE == DPG_LEV) return (T)pk << (2 * u);
	else return (T)pk << u;
}
/* sum of the deltas in a word: lev +1/-1, lcs the carries (LCS increments) */
template <int MODE>
__device__ __forceinline__ int ew_sum(typename dpg_ew<MODE>::T w)
{
	if constexpr (MODE == DPG_LEV) return __popcll(w & 0x5555555555555555ull) - __popcll(w & 0xaaaaaaaaaaaaaaaaull);
	else return __popc(w);
}
/* the top boundary D(0, j + 1) - D(0, j) = +1; L(0, .) = 0 */
template <int MODE>
__device__ __forceinline__ uint32_t top_boundary() { return MODE == DPG_LEV ? 1u : 0u; }
/* an edge word of boundary (or virtual) packets: +1 per column, no LCS increment */
template <int MODE>
__device__ __forceinline__ typename dpg_ew<MODE>::T ew_virtual()
{
	if constexpr (MODE == DPG_LEV) return 0x5555555555555555ull;
	else return 0u;
}

/* What a lane hands to the lane below after a column. lev: the raw Ph and Mh words of its last
 * word, bit 31 being the +1 / -1 horizontal delta that leaves its bottom row; lcs: the carry out
 * of its bottom row in bit 0. Raw words spare the sender the packing and the receiver the
 * unpacking, both on the step's chain from lane to lane (11 dependent integer ops a step for
 * lev with packets, 7 now); the receiver shifts them in with one funnel shift each. */
struct hand_t {
	uint32_t p, m;
};
template <int MODE>
__device__ __forceinline__ hand_t hand_up(hand_t h, int width)
{
	hand_t x;
	x.p = __shfl_up_sync(FULLM, h.p, 1, width);
	if constexpr (MODE == DPG_LEV) x.m = __shfl_up_sync(FULLM, h.m, 1, width);
	else x.m = 0;
	return x;
}
/* a packet (dpg_kern.h: lev bit 0 +1, bit 1 -1; lcs bit 0 the increment) as handed words, and back */
template <int MODE>
__device__ __forceinline__ hand_t hand_of(uint32_t pk)
{
	if constexpr (MODE == DPG_LEV) return hand_t{ pk << 31, (pk >> 1) << 31 };
	else return hand_t{ pk, 0u };
}
template <int MODE>
__device__ __forceinline__ uint32_t pk_of(hand_t h)
{
	if constexpr (MODE == DPG_LEV) return (h.p >> 31) | ((h.m >> 31) << 1);
	else return h.p;
}

/* lev, one column over a lane's RW words (lev_word of lev_slab.c on 32-bit words): h in, from
 * the lane above; h out, for the lane below (hand_t). rp / rm: each word's raw horizontal
 * deltas (bit b: row 32 w + b + 1). */
template <int RW>
__device__ __forceinline__ hand_t lev_col(uint32_t (&pv)[RW], uint32_t (&mv)[RW], const uint32_t (&eq)[RW], hand_t h,
                                          uint32_t (&rp)[RW], uint32_t (&rm)[RW])
{
#pragma unroll
	for (int r = 0; r < RW; r++) {
		const uint32_t Pv = pv[r], Mv = mv[r];
		const uint32_t Xv = eq[r] | Mv, e = eq[r] | (h.m >> 31);
		const uint32_t Xh = (((e & Pv) + Pv) ^ Pv) | e;
		const uint32_t Ph = Mv | ~(Xh | Pv), Mh = Pv & Xh;
		rp[r] = Ph;
		rm[r] = Mh;
		const uint32_t Phs = __funnelshift_l(h.p, Ph, 1), Mhs = __funnelshift_l(h.m, Mh, 1);   /* << 1, the delta in */
		pv[r] = Mhs | ~(Xv | Phs);
		mv[r] = Phs & Xv;
		h.p = Ph;
		h.m = Mh;
	}
	return h;
}

/* lcs, one column over a lane's RW words: V' = (V + (V & M) + c) | (V & ~M), the carry out
 * of every bit (raw, into rc) being the LCS increment at its row. */
template <int RW>
__device__ __forceinline__ hand_t lcs_col(uint32_t (&v)[RW], const uint32_t (&eq)[RW], hand_t h, uint32_t (&rc)[RW])
{
	uint32_t c = h.p & 1u;
#pragma unroll
	for (int r = 0; r < RW; r++) {
		const uint32_t V = v[r], M = eq[r], U = V & M, S = V + U + c;
		const uint32_t cr = (V & U) | ((V | U) & ~S);
		rc[r] = cr;
		v[r] = S | (V & ~M);
		c = cr >> 31;
	}
	return hand_t{ c, 0u };
}

/* One column: the match words of `code` from the lane's private table column, then the step. */
template <int MODE, int RW>
__device__ __forceinline__ hand_t dp_step(uint32_t (&s0)[RW], uint32_t (&s1)[RW], const uint32_t *tbl, int lane,
                                          uint32_t code, hand_t hin, uint32_t (&r0)[RW], uint32_t (&r1)[RW])
{
	uint32_t eq[RW];
#pragma unroll
	for (int r = 0; r < RW; r++) eq[r] = tbl[(code * RW + r) * 32 + lane];
	if constexpr (MODE == DPG_LEV) return lev_col<RW>(s0, s1, eq, hin, r0, r1);
	else return lcs_col<RW>(s0, eq, hin, r0);
}

/* the packet of row `ob` of word `wo` (the bottom row when it is not bit 31 of the last word) */
template <int MODE, int RW>
__device__ __forceinline__ uint32_t out_packet(const uint32_t (&r0)[RW], const uint32_t (&r1)[RW], int wo, int ob)
{
	uint32_t a = 0, m = 0;
#pragma unroll
	for (int r = 0; r < RW; r++)
		if (r == wo) {
			a = r0[r];
			if constexpr (MODE == DPG_LEV) m = r1[r];
		}
	if constexpr (MODE == DPG_LEV) return ((a >> ob) & 1u) | (((m >> ob) & 1u) << 1);
	else return (a >> ob) & 1u;
}

/* The match words of the lane's rows: entry (code c, word r) at tbl[(c * RW + r) * 32 + lane],
 * a column of the table only this lane reads or writes (no synchronization, no bank
 * conflicts). Rows first + 32 r + b of ac[0, rows). */
template <int RW>
__device__ __forceinline__ void peq_build(uint32_t *tbl, int nc, int lane, const uint8_t *ac, int64_t first, int64_t rows)
{
	for (int c = 0; c < nc; c++)
#pragma unroll
		for (int r = 0; r < RW; r++) tbl[(c * RW + r) * 32 + lane] = 0;
#pragma unroll
	for (int r = 0; r < RW; r++) {
		const int64_t r0 = first + 32 * r;
		if (r0 >= rows) continue;
		const int n = rows - r0 < 32 ? (int)(rows - r0) : 32;
		for (int b = 0; b < n; b++) tbl[((uint32_t)ac[r0 + b] * RW + r) * 32 + lane] |= 1u << b;
	}
}

/* warps per block whose tables (peq_build: nc codes x rw words x 32 lanes) fit 96 KiB of
 * shared memory, at most DPG_WARPS: the batch and long launches size their blocks by it */
static inline int smem_warps(int nc, int rw)
{
	const size_t per = (size_t)nc * rw * 128;
	int w = DPG_WARPS;
	while (w > 1 && (size_t)w * per > (96u << 10)) w--;
	return w;
}

#endif
