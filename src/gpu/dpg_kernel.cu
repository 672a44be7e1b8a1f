/* lev and lcs kernels of many pairs at once: the batch kernel (one group of G lanes per pair,
 * every step masked), the traceback kernel (one thread per pair, the rule of aln_trace), the
 * encode kernel (bytes to codes), and their launches. The column step they run, and its cost,
 * is dpg_dev.cuh; the long kernel (a pipeline of strips over a persistent grid) is
 * dpg_long_kernel.cu. See dpg_kern.h for the layouts. */
#include "gpu/dpg_dev.cuh"
extern "C" {
#include "algo/aln.h"   /* a C header: its declarations keep C linkage */
}

/* ------------------------------------------------------------------------------------------ */
/* batch kernel: one group of G lanes per pair, every step masked */

template <int MODE, int G, int RW>
__global__ void __launch_bounds__(32 * DPG_WARPS) dpg_batch_kernel(const dpg_batch_t p)
{
	typedef typename dpg_ew<MODE>::T ew_t;
	DPG_DSM(dsm);
	const int lane = threadIdx.x & 31, wib = threadIdx.x >> 5, li = lane & (G - 1);
	uint32_t *tbl = dsm + (size_t)wib * p.nc * RW * 32;
	const int64_t gid = ((int64_t)blockIdx.x * (blockDim.x >> 5) + wib) * (32 / G) + lane / G;
	const bool have = gid < p.n;
	dpg_pair_t P;
	if (have) P = p.pairs[gid];
	else { P.a = P.b = 0; P.la = P.lb = 0; P.cs = P.bot = P.ops = -1; }
	const int la = P.la, lb = P.lb, nw = (la + 31) >> 5, nl = (nw + RW - 1) / RW, nwb = (lb + 31) >> 5;
	/* every lane of the warp runs the same steps (the shuffles need all 32): those of its
	 * longest pair */
	const int nblk = (int)__reduce_max_sync(FULLM, have ? (unsigned)(nwb + 1) : 0u);
	const uint8_t *ac = p.codes + P.a, *bc = p.codes + P.b;
	peq_build<RW>(tbl, p.nc, lane, ac, (int64_t)li * RW * 32, la);
	uint32_t s0[RW], s1[RW];
#pragma unroll
	for (int r = 0; r < RW; r++) { s0[r] = ~0u; s1[r] = 0; }   /* the left boundary: +1 per row / V all ones */
	const int ol = nw > 0 ? (nw - 1) / RW : 0, wo = nw > 0 ? (nw - 1) % RW : 0, ob = (la - 1) & 31;
	const bool rowlane = li < nl;
	uint32_t *cs = p.cs && P.cs >= 0 ? p.cs + P.cs : nullptr;
	ew_t *bot = p.bot && P.bot >= 0 ? (ew_t *)p.bot + P.bot : nullptr;
	const bool outlane = bot && li == ol;
	constexpr int PL = MODE == DPG_LEV ? 4 : 1;
	ew_t acc_cur = 0, acc_nxt = 0;   /* bottom edge: word b - 1 and word b of block b */
	hand_t hd = { 0u, 0u };
	for (int b = 0; b < nblk; b++) {
#pragma unroll 4
		for (int u = 0; u < 32; u++) {
			hand_t x = hand_up<MODE>(hd, G);
			if (li == 0) x = hand_of<MODE>(top_boundary<MODE>());
			const int c = 32 * b + u - li;
			const bool act = rowlane && c >= 0 && c < lb;
			const uint32_t code = act ? bc[c] : 0u;
			uint32_t k0[RW], k1[RW], r0[RW], r1[RW];
#pragma unroll
			for (int r = 0; r < RW; r++) { k0[r] = s0[r]; k1[r] = s1[r]; r0[r] = r1[r] = 0; }
			hd = dp_step<MODE, RW>(s0, s1, tbl, lane, code, x, r0, r1);
			if (!act) {
#pragma unroll
				for (int r = 0; r < RW; r++) { s0[r] = k0[r]; s1[r] = k1[r]; }
			} else {
				if (cs) {
#pragma unroll
					for (int r = 0; r < RW; r++) {
						const int w = li * RW + r;
						if (w < nw) {
							uint32_t *q = cs + (int64_t)c * PL * nw + w;
							if constexpr (MODE == DPG_LEV) {
								q[0] = s0[r];
								q[nw] = s1[r];
								q[2 * nw] = r0[r];
								q[3 * nw] = r1[r];
							} else {
								q[0] = r0[r];
							}
						}
					}
				}
				if (outlane) {
					const ew_t v = ew_put<MODE>(out_packet<MODE, RW>(r0, r1, wo, ob), (u - li) & 31);
					if (u >= li) acc_nxt |= v;   /* column 32 b + (u - li): word b */
					else acc_cur |= v;           /* word b - 1 */
				}
			}
		}
		/* word b - 1 is complete: the out lane reached column 32 b + 31 - ol >= 32 b - 1 */
		if (outlane && b >= 1 && b - 1 < nwb) bot[b - 1] = acc_cur;
		acc_cur = acc_nxt;
		acc_nxt = 0;
	}
	if (p.val) {
		/* the last column's vertical deltas: lev D(la, lb) = lb + sum, lcs L(la, lb) = rows - popcount(V) */
		long long sv = 0;
		if (rowlane) {
#pragma unroll
			for (int r = 0; r < RW; r++) {
				const int w = li * RW + r;
				if (w < nw) {
					const uint32_t m = w == nw - 1 && (la & 31) ? (1u << (la & 31)) - 1 : ~0u;
					if constexpr (MODE == DPG_LEV) sv += __popc(s0[r] & m) - __popc(s1[r] & m);
					else sv += __popc(m) - __popc(s0[r] & m);
				}
			}
		}
#pragma unroll
		for (int off = 1; off < G; off <<= 1) sv += __shfl_xor_sync(FULLM, sv, off, G);
		if (have && li == 0) p.val[gid] = MODE == DPG_LEV ? (long long)lb + sv : sv;
	}
}

/* Traceback of one pair per thread over its column store, exactly aln_trace (rule b of
 * aln.h: D first, then the diagonal, then I, each only where the values allow it); ops are
 * written from the end. Codes compare like bytes. */
template <int MODE>
__global__ void __launch_bounds__(128) dpg_trace_kernel(const dpg_batch_t p)
{
	const int64_t gid = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
	if (gid >= p.n) return;
	const dpg_pair_t P = p.pairs[gid];
	if (P.ops < 0 || P.cs < 0) return;
	const uint8_t *ac = p.codes + P.a, *bc = p.codes + P.b;
	const int nw = (P.la + 31) >> 5;
	constexpr int PL = MODE == DPG_LEV ? 4 : 1;
	const uint32_t *cs = p.cs + P.cs;
	uint8_t *ops = p.ops + P.ops;
	int32_t n = 0, i = P.la, j = P.lb;
	while (i > 0 && j > 0) {
		const int w = (i - 1) >> 5, sh = (i - 1) & 31;
		const uint32_t *col = cs + (int64_t)(j - 1) * PL * nw;
		if constexpr (MODE == DPG_LEV) {
			const int dh = (int)(col[2 * nw + w] >> sh & 1u) - (int)(col[3 * nw + w] >> sh & 1u);
			if (dh == 1) { ops[n++] = ALN_D; j--; continue; }
			if (ac[i - 1] == bc[j - 1]) { ops[n++] = ALN_EQ; i--; j--; continue; }
			int dv = 1;   /* column 0: D(i, 0) - D(i - 1, 0) */
			if (j > 1) {
				const uint32_t *pc = col - PL * nw;
				dv = (int)(pc[w] >> sh & 1u) - (int)(pc[nw + w] >> sh & 1u);
			}
			if (dh + dv == 1) { ops[n++] = ALN_X; i--; j--; continue; }
			ops[n++] = ALN_I;
			i--;
		} else {
			if (!(col[w] >> sh & 1u)) { ops[n++] = ALN_D; j--; continue; }
			if (ac[i - 1] == bc[j - 1]) { ops[n++] = ALN_M; i--; j--; continue; }
			ops[n++] = ALN_I;
			i--;
		}
	}
	while (j > 0) { ops[n++] = ALN_D; j--; }
	while (i > 0) { ops[n++] = ALN_I; i--; }
	p.nops[gid] = n;
}

/* a byte a thread: 20 MB of text in well under a millisecond (the host took 20-40 ms) */
__global__ void __launch_bounds__(256) dpg_encode_kernel(const dpg_enc_t p)
{
	const int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
	if (i < p.n) p.out[i] = p.map[p.s[p.rev ? p.n - 1 - i : i]];
}

/* ------------------------------------------------------------------------------------------ */
/* launches */

template <int MODE, int G, int RW>
static cudaError_t batch_one(const dpg_batch_t *p, cudaStream_t st)
{
	const int W = smem_warps(p->nc, RW);
	const size_t smem = (size_t)W * p->nc * RW * 128;
	if (smem > (48u << 10)) {
		cudaError_t e = cudaFuncSetAttribute((const void *)dpg_batch_kernel<MODE, G, RW>, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem);
		if (e != cudaSuccess) return e;
	}
	const int64_t per_block = (int64_t)W * (32 / G);
	const int64_t blocks = (p->n + per_block - 1) / per_block;
	if (blocks <= 0) return cudaSuccess;
	if (blocks > 0x7fffffff) return cudaErrorInvalidValue;
	void (*kfn)(dpg_batch_t) = dpg_batch_kernel<MODE, G, RW>;
	const dpg_batch_t arg = *p;
	return DPG_LAUNCH(kfn, (unsigned)blocks, 32 * W, smem, st, arg);
}

template <int MODE>
static cudaError_t batch_mode(int cls, const dpg_batch_t *p, cudaStream_t st)
{
	switch (cls) {
	case 0: return batch_one<MODE, 1, 1>(p, st);
	case 1: return batch_one<MODE, 2, 1>(p, st);
	case 2: return batch_one<MODE, 4, 1>(p, st);
	case 3: return batch_one<MODE, 8, 1>(p, st);
	case 4: return batch_one<MODE, 16, 1>(p, st);
	case 5: return batch_one<MODE, 32, 1>(p, st);
	case 6: return batch_one<MODE, 32, 2>(p, st);
	case 7: return batch_one<MODE, 32, 4>(p, st);
	}
	return cudaErrorInvalidValue;
}

extern "C" cudaError_t dpg_batch_launch(int mode, int cls, const dpg_batch_t *p, cudaStream_t st)
{
	return mode == DPG_LEV ? batch_mode<DPG_LEV>(cls, p, st) : batch_mode<DPG_LCS>(cls, p, st);
}

extern "C" cudaError_t dpg_batch_job_fn(const void *job, cudaStream_t st)
{
	const dpg_batch_job_t *x = (const dpg_batch_job_t *)job;
	return dpg_batch_launch(x->mode, x->cls, x->p, st);
}

extern "C" cudaError_t dpg_trace_launch(int mode, const dpg_batch_t *p, cudaStream_t st)
{
	const int64_t blocks = (p->n + 127) / 128;
	if (blocks <= 0) return cudaSuccess;
	void (*kfn)(dpg_batch_t) = mode == DPG_LEV ? dpg_trace_kernel<DPG_LEV> : dpg_trace_kernel<DPG_LCS>;
	const dpg_batch_t arg = *p;
	return DPG_LAUNCH(kfn, (unsigned)blocks, 128, 0, st, arg);
}

extern "C" cudaError_t dpg_encode_launch(const dpg_enc_t *p, cudaStream_t st)
{
	const int64_t blocks = (p->n + 255) / 256;
	if (blocks <= 0) return cudaSuccess;
	if (blocks > 0x7fffffff) return cudaErrorInvalidValue;
	const dpg_enc_t arg = *p;
	return DPG_LAUNCH(dpg_encode_kernel, (unsigned)blocks, 256, 0, st, arg);
}
