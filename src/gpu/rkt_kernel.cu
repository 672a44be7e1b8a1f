/* Rkt-LCS support counting on the GPU.
 *
 * support_i(x, l) = #{j != i : some y has <= k mismatches between s_i[x, x+l) and
 * s_j[y, y+l)}. A warp takes one task (i, x) at a time, each lane 32 reads j (one word of
 * a j-set, bit-sliced), and walks every start y of the j-set: step l compares s_i[x+l]
 * with position y+l of all 32 reads in one word load, adds the mismatch bits to a
 * bit-sliced counter of B bits that starts at 2^B - (k+1), so its carry out marks the
 * reads that passed k mismatches (sticky "dead"). Reads still alive after step l have
 * LCP >= l; for l >= tau their bits are OR-ed into G[l] (any y), and popcount(G[l])
 * summed over lanes is the support. The first tau steps record nothing, so the walk stops
 * as soon as the whole warp is dead, which on unrelated reads is after a few steps. */
#include "gpu/rkt_kern.h"

#define RG_FULL 0xffffffffu
#ifndef RG_Y
#define RG_Y 4
#endif

/* One step at position row r (lane's word already selected): the mismatch word is plane
 * `off` of the row, the exists plane is plane 5. */
template <int B, bool MIX>
__device__ __forceinline__ void rg_step(const uint32_t *r, uint32_t off, uint32_t *cnt, uint32_t &dead)
{
	uint32_t carry = __ldg(r + off);
#pragma unroll
	for (int b = 0; b < B; b++) {
		uint32_t t = cnt[b] & carry;
		cnt[b] ^= carry;
		carry = t;
	}
	dead |= carry;
	if (MIX) dead |= ~__ldg(r + RG_EX_PLANE * 32);
}

/* All starts y of one j-set for one task; G[(l - tau) * 32 + lane] collects alive bits.
 * RG_Y starts run side by side through the first tau steps: they share the symbol of s_i
 * and the address arithmetic (row y+1 is an immediate offset from row y), and give the
 * scheduler independent work. Starts past the last one begin dead; their loads may touch
 * up to RG_Y rows past the j-set, which the driver pads. */
template <int B, bool MIX>
__device__ void rg_task_set(const uint32_t *rows, const uint8_t *c, int32_t n_i, int32_t ls, int32_t tau,
                            const uint32_t *cinit, uint32_t *G, int lane)
{
	const int32_t ny = ls - tau + 1;
	for (int32_t y0 = 0; y0 < ny; y0 += RG_Y) {
		const uint32_t *rp = rows + (int64_t)y0 * RG_ROW;
		uint32_t cnt[RG_Y][B > 0 ? B : 1], dead[RG_Y];
#pragma unroll
		for (int q = 0; q < RG_Y; q++) {
			dead[q] = y0 + q < ny ? 0u : RG_FULL;
#pragma unroll
			for (int b = 0; b < B; b++) cnt[q][b] = cinit[b];
		}
		int32_t l = 0;
		bool gone = false;
		for (; l + 4 <= tau; l += 4) {
			const uint32_t cw = *(const uint32_t *)(c + l);
#pragma unroll
			for (int u = 0; u < 4; u++) {
				const uint32_t *r = rp + (l + u) * RG_ROW, off = (cw >> (8 * u)) & 0xffu;
#pragma unroll
				for (int q = 0; q < RG_Y; q++) rg_step<B, MIX>(r + q * RG_ROW, off, cnt[q], dead[q]);
			}
			uint32_t all = dead[0];
#pragma unroll
			for (int q = 1; q < RG_Y; q++) all &= dead[q];
			if (__all_sync(RG_FULL, all == RG_FULL)) { gone = true; break; }
		}
		if (gone) continue;
		for (; l < tau; l++) {
			const uint32_t *r = rp + l * RG_ROW;
#pragma unroll
			for (int q = 0; q < RG_Y; q++) rg_step<B, MIX>(r + q * RG_ROW, c[l], cnt[q], dead[q]);
		}
		/* past tau each start goes on alone, recording its alive reads at every level */
#pragma unroll
		for (int q = 0; q < RG_Y; q++) {
			if (__all_sync(RG_FULL, dead[q] == RG_FULL)) continue;
			const int32_t bound = min(n_i, ls - (y0 + q));
			const uint32_t *rq = rp + q * RG_ROW;
			G[lane] |= ~dead[q];
			for (int32_t m = tau; m < bound; m++) {
				rg_step<B, MIX>(rq + m * RG_ROW, c[m], cnt[q], dead[q]);
				const uint32_t alive = ~dead[q];
				if (!__any_sync(RG_FULL, alive != 0)) break;
				G[(m + 1 - tau) * 32 + lane] |= alive;
			}
		}
	}
}

size_t rg_smem_bytes(int warps, int32_t lr, int32_t lpad, int32_t tpw)
{
	return (size_t)warps * ((size_t)lr * 32 * 4 + (size_t)tpw * lr * 4 + (size_t)tpw * lpad);
}

template <int B>
__global__ void rg_support_kernel(rg_kparams_t p)
{
	extern __shared__ uint32_t rg_sm[];
	const int lane = threadIdx.x & 31, w = threadIdx.x >> 5, nw = blockDim.x >> 5;
	const int32_t lr = p.lr, tpw = p.tpw, tau = p.tau;
	uint32_t *G = (uint32_t *)((uint8_t *)rg_sm + (size_t)w * ((size_t)lr * 32 * 4 + (size_t)tpw * lr * 4 + (size_t)tpw * p.lpad));
	uint32_t *S = G + lr * 32;
	uint8_t *cb = (uint8_t *)(S + tpw * lr);
	const int64_t t0 = ((int64_t)blockIdx.x * nw + w) * tpw;
	if (t0 >= p.n_tasks) return;
	const int32_t nt = (int32_t)min((int64_t)tpw, p.n_tasks - t0);

	for (int32_t q = lane; q < lr * 32; q += 32) G[q] = 0;
	for (int32_t q = lane; q < tpw * lr; q += 32) S[q] = 0;
	for (int32_t t = 0; t < nt; t++) {
		const rg_task_t tk = p.tasks[t0 + t];
		/* codes pre-scaled to the plane offset: base c -> c * 32, unknown -> plane 4 */
		for (int32_t q = lane; q < p.lpad; q += 32)
			cb[t * p.lpad + q] = (uint8_t)(q < tk.n ? min((int)p.codes[tk.code + q], 4) * 32 : 4 * 32);
	}
	uint32_t cinit[B > 0 ? B : 1];
	const uint32_t iv = (1u << B) - (uint32_t)(p.k + 1);
#pragma unroll
	for (int b = 0; b < B; b++) cinit[b] = (iv >> b) & 1u ? RG_FULL : 0u;
	__syncwarp();

	for (int32_t s = p.j0; s < p.j1; s++) {
		const int32_t ls = p.jlen[s];
		if (ls < tau) continue;
		const uint32_t *rows = p.ne + (p.jrow[s] - p.row0) * RG_ROW + lane;
		const bool mixed = p.jmixed[s] != 0;
		for (int32_t t = 0; t < nt; t++) {
			const rg_task_t tk = p.tasks[t0 + t];
			const uint32_t self = (tk.slot / RG_SET == s && (tk.slot >> 5 & 31) == lane) ? 1u << (tk.slot & 31) : 0u;
			const uint8_t *c = cb + t * p.lpad;
			if (mixed) rg_task_set<B, true>(rows, c, tk.n, ls, tau, cinit, G, lane);
			else rg_task_set<B, false>(rows, c, tk.n, ls, tau, cinit, G, lane);
			/* G[l] shrinks as l grows, so the first all-zero level ends the scan */
			for (int32_t l = 0; l <= tk.n - tau; l++) {
				uint32_t g = G[l * 32 + lane];
				if (!__any_sync(RG_FULL, g != 0)) break;
				G[l * 32 + lane] = 0;
				uint32_t v = __reduce_add_sync(RG_FULL, (uint32_t)__popc(g & ~self));
				if (lane == 0) S[t * lr + l] += v;
			}
			__syncwarp();
		}
	}
	for (int32_t t = 0; t < nt; t++) {
		const rg_task_t tk = p.tasks[t0 + t];
		for (int32_t l = lane; l <= tk.n - tau; l += 32) {
			uint32_t v = S[t * lr + l];
			if (v) p.S[tk.soff + l] += v;  /* each task belongs to one warp of one launch */
		}
	}
}

template <int B>
static cudaError_t rg_launch_b(const rg_kparams_t *p, int warps, cudaStream_t st)
{
	size_t sm = rg_smem_bytes(warps, p->lr, p->lpad, p->tpw);
	cudaError_t e = cudaFuncSetAttribute(rg_support_kernel<B>, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)sm);
	if (e != cudaSuccess) return e;
	if (p->carveout >= 0) {
		e = cudaFuncSetAttribute(rg_support_kernel<B>, cudaFuncAttributePreferredSharedMemoryCarveout, p->carveout);
		if (e != cudaSuccess) return e;
	}
	int64_t per = (int64_t)warps * p->tpw, nb = (p->n_tasks + per - 1) / per;
	if (nb <= 0) return cudaSuccess;
	rg_support_kernel<B><<<(unsigned)nb, warps * 32, sm, st>>>(*p);
	return cudaGetLastError();
}

cudaError_t rg_launch_support(const rg_kparams_t *p, int warps, cudaStream_t st)
{
	int k1 = p->k + 1, B = 0;
	while ((1 << B) < k1) B++;
	switch (B) {  /* a wider counter than needed is still exact: it starts at 2^B - (k+1) */
	case 0: return rg_launch_b<0>(p, warps, st);
	case 1: return rg_launch_b<1>(p, warps, st);
	case 2: return rg_launch_b<2>(p, warps, st);
	case 3: return rg_launch_b<3>(p, warps, st);
	case 4: return rg_launch_b<4>(p, warps, st);
	case 5: case 6: return rg_launch_b<6>(p, warps, st);
	case 7: case 8: return rg_launch_b<8>(p, warps, st);
	case 9: case 10: case 11: return rg_launch_b<11>(p, warps, st);
	default: return cudaErrorInvalidValue;  /* the driver caps k at the longest read */
	}
}

/* Largest l >= tau with support >= t over the starts of one read; ties keep the smaller x. */
__global__ void rg_cand_kernel(const uint32_t *S, const int64_t *rtask, const rg_task_t *tasks, int64_t nr,
                               int32_t tau, int64_t t, rkt_cand_t *out)
{
	int64_t r = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
	if (r >= nr) return;
	rkt_cand_t c = { -1, 0, 0 };
	for (int64_t q = rtask[r]; q < rtask[r + 1]; q++) {
		const int32_t n = tasks[q].n - tau + 1;  /* values tau .. len_i - x */
		if (tau + n - 1 <= c.len) break;     /* later starts are shorter and can only tie */
		const uint32_t *row = S + tasks[q].soff;  /* row[v] = support_i(x, tau + v), falling in v */
		for (int32_t v = n - 1; v >= 0; v--)
			if (row[v] >= t) {
				if (tau + v > c.len) { c.len = tau + v; c.pos = q - rtask[r]; c.support = row[v]; }
				break;
			}
	}
	out[r] = c;
}

cudaError_t rg_launch_cand(const uint32_t *S, const int64_t *rtask, const rg_task_t *tasks, int64_t nr,
                           int32_t tau, int64_t t, rkt_cand_t *out, cudaStream_t st)
{
	if (nr <= 0) return cudaSuccess;
	rg_cand_kernel<<<(unsigned)((nr + 127) / 128), 128, 0, st>>>(S, rtask, tasks, nr, tau, t, out);
	return cudaGetLastError();
}
