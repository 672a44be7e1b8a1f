/* hamming on the GPU: 64 x 64 pairs per block, 16 x 16 threads of 4 x 4 pairs, the bit
 * planes of both tiles staged through shared memory HG_K words at a time, 64-bit popcount.
 * Tiles below the diagonal are skipped. Dense bands are written whole; for --max-dist only
 * the kept pairs are written (compacted through one global counter). */
#include "gpu/ham_kern.h"

template <bool DFLT>
__global__ void __launch_bounds__(256) hg_kernel(hg_params_t p)
{
	__shared__ uint64_t As[HG_T][HG_K * HG_MAXP + 1], Bs[HG_T][HG_K * HG_MAXP + 1];
	const int tx = threadIdx.x & 15, ty = threadIdx.x >> 4;
	const int64_t ib = p.r0 + (int64_t)blockIdx.y * HG_T, jb = p.r0 + (int64_t)blockIdx.x * HG_T;
	if (ib >= p.r1 || jb >= p.n || jb + HG_T <= ib) return;  /* outside, or below the diagonal */
	const int NP = p.P + p.valid;
	uint32_t acc[4][4];
#pragma unroll
	for (int a = 0; a < 4; a++)
#pragma unroll
		for (int b = 0; b < 4; b++) acc[a][b] = 0;
	for (int64_t w0 = 0; w0 < p.W; w0 += HG_K) {
		for (int q = threadIdx.x; q < HG_T * HG_K * NP; q += 256) {
			int row = q / (HG_K * NP), r = q % (HG_K * NP), k = r / NP, pl = r % NP;
			int64_t w = w0 + k, ia = ib + row, jbb = jb + row;
			As[row][r] = ia < p.r1 && w < p.W ? p.bits[ia * p.stride + pl * p.W + w] : 0;
			Bs[row][r] = jbb < p.n && w < p.W ? p.bits[jbb * p.stride + pl * p.W + w] : 0;
		}
		__syncthreads();
#pragma unroll
		for (int k = 0; k < HG_K; k++)
#pragma unroll
			for (int a = 0; a < 4; a++)
#pragma unroll
				for (int b = 0; b < 4; b++) {
					const uint64_t *x = &As[ty * 4 + a][k * NP], *y = &Bs[tx * 4 + b][k * NP];
					uint64_t d;
					if (DFLT) d = ((x[0] ^ y[0]) | (x[1] ^ y[1])) & x[2] & y[2];
					else { d = 0; for (int pl = 0; pl < p.P; pl++) d |= x[pl] ^ y[pl]; }
					acc[a][b] += (uint32_t)__popcll(d);
				}
		__syncthreads();
	}
#pragma unroll
	for (int a = 0; a < 4; a++)
#pragma unroll
		for (int b = 0; b < 4; b++) {
			int64_t i = ib + ty * 4 + a, j = jb + tx * 4 + b;
			if (i >= p.r1 || j >= p.n || j < i) continue;
			uint32_t d = i == j ? 0 : acc[a][b];
			if (p.cap && d > p.cap) d = p.cap;
			if (p.dense) p.dense[(i - p.r0) * p.ld + (j - p.r0)] = d;
			else if (j > i && d <= p.maxd) {  /* kept pairs are few: one atomic each */
				unsigned long long s = atomicAdd(p.n_pairs, 1ull);
				if (s < p.max_pairs) { p.pairs[s].i = (int32_t)i; p.pairs[s].j = (int32_t)j; p.pairs[s].d = d; }
			}
		}
}

cudaError_t hg_launch(const hg_params_t *p, int dflt, cudaStream_t st)
{
	dim3 grid((unsigned)((p->n - p->r0 + HG_T - 1) / HG_T), (unsigned)((p->r1 - p->r0 + HG_T - 1) / HG_T));
	if (grid.x == 0 || grid.y == 0) return cudaSuccess;
	if (dflt) hg_kernel<true><<<grid, 256, 0, st>>>(*p);
	else hg_kernel<false><<<grid, 256, 0, st>>>(*p);
	return cudaGetLastError();
}

