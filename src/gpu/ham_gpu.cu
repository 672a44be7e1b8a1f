/* hamming on the GPU: 64 x 64 pairs per block, 16 x 16 threads of 4 x 4 pairs, the bit
 * planes of both tiles staged through shared memory HG_K words at a time, 64-bit popcount.
 * Tiles below the diagonal are skipped. Dense bands are copied back for the matrix; for
 * --max-dist only the kept pairs are written (compacted through one global counter). */
#include <stdlib.h>
#include <string.h>
#include "gpu/cuda_check.h"
#include "gpu/rgpu.h"

#define HG_T 64
#define HG_K 4
#define HG_MAXP 9      /* planes + validity: 256 symbols at most */
#define HG_RESERVE (256ull << 20)

typedef struct {
	const uint64_t *bits;
	int64_t stride, W, n, r0, r1;
	int P, valid;
	uint32_t cap, maxd;
	uint32_t *dense;           /* band rows x (n - r0), or NULL */
	int64_t ld;
	rkt_ham_pair_t *pairs;     /* or NULL */
	unsigned long long *n_pairs, max_pairs;
} hg_params_t;

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

static cudaError_t hg_launch(const hg_params_t *p, int dflt, cudaStream_t st)
{
	dim3 grid((unsigned)((p->n - p->r0 + HG_T - 1) / HG_T), (unsigned)((p->r1 - p->r0 + HG_T - 1) / HG_T));
	if (grid.x == 0 || grid.y == 0) return cudaSuccess;
	if (dflt) hg_kernel<true><<<grid, 256, 0, st>>>(*p);
	else hg_kernel<false><<<grid, 256, 0, st>>>(*p);
	return cudaGetLastError();
}

/* Device state shared by both entry points. */
typedef struct {
	uint64_t *bits;
	uint32_t *dense;
	rkt_ham_pair_t *pairs;
	unsigned long long *n_pairs;
	cudaStream_t st;
	cudaEvent_t e0, e1;
	uint64_t budget;
} hg_dev_t;

static void hg_free(hg_dev_t *d)
{
	cudaFree(d->bits); cudaFree(d->dense); cudaFree(d->pairs); cudaFree(d->n_pairs);
	if (d->e0) cudaEventDestroy(d->e0);
	if (d->e1) cudaEventDestroy(d->e1);
	if (d->st) cudaStreamDestroy(d->st);
	memset(d, 0, sizeof *d);
}

static rk_status_t hg_setup(hg_dev_t *d, const rkt_ham_set_t *h, const rgpu_opt_t *g)
{
	memset(d, 0, sizeof *d);
	if (h->planes + h->valid > HG_MAXP) { rk_set_error("too many distinct symbols for the GPU kernel"); return RK_ERES; }
	CUDA_CHECK(cudaSetDevice(g->device));
	size_t fr = 0, tot = 0;
	CUDA_CHECK(cudaMemGetInfo(&fr, &tot));
	d->budget = fr > 2 * HG_RESERVE ? fr - HG_RESERVE : fr / 2;
	if (g->mem_limit && g->mem_limit < d->budget) d->budget = g->mem_limit;
	uint64_t bytes = (uint64_t)h->n * (uint64_t)h->stride * 8 + 8;
	if (bytes > d->budget / 2) {
		rk_set_error("the bit planes of %lld sequences need %.1f MB, more than half the device memory allowed (%.1f MB); use --backend cpu",
		             (long long)h->n, bytes / 1e6, d->budget / 1e6);
		return RK_ERES;
	}
	CUDA_CHECK(cudaStreamCreateWithFlags(&d->st, cudaStreamNonBlocking));
	CUDA_CHECK(cudaEventCreate(&d->e0));
	CUDA_CHECK(cudaEventCreate(&d->e1));
	CUDA_CHECK(cudaMalloc(&d->bits, bytes));
	CUDA_CHECK(cudaMemcpyAsync(d->bits, h->bits, bytes, cudaMemcpyHostToDevice, d->st));
	d->budget -= bytes;
	return RK_OK;
}

static void hg_params(hg_params_t *p, const hg_dev_t *d, const rkt_ham_set_t *h, const rkt_ham_opt_t *o)
{
	memset(p, 0, sizeof *p);
	p->bits = d->bits; p->stride = h->stride; p->W = h->words; p->n = h->n;
	p->P = h->planes; p->valid = h->valid; p->cap = o->cap;
}

static rk_status_t hg_timed(hg_dev_t *d, const hg_params_t *p, int dflt, rgpu_stats_t *sp)
{
	CUDA_CHECK(cudaEventRecord(d->e0, d->st));
	CUDA_CHECK(hg_launch(p, dflt, d->st));
	CUDA_CHECK(cudaEventRecord(d->e1, d->st));
	CUDA_CHECK(cudaEventSynchronize(d->e1));
	float ms = 0;
	CUDA_CHECK(cudaEventElapsedTime(&ms, d->e0, d->e1));
	sp->kernel_s += ms / 1e3;
	sp->n_launch++;
	return RK_OK;
}

extern "C" rk_status_t rgpu_ham_block(const rkt_ham_set_t *h, const rkt_ham_opt_t *o, int64_t r0, int64_t r1,
                                      const rgpu_opt_t *g, uint32_t *out, int64_t ld, rgpu_stats_t *stats)
{
	rgpu_stats_t dummy;
	rgpu_stats_t *sp = stats ? stats : &dummy;
	memset(sp, 0, sizeof *sp);
	double t0 = rk_realtime();
	hg_dev_t d;
	rk_status_t st = hg_setup(&d, h, g);
	if (st) { hg_free(&d); return st; }
	int64_t n = h->n, cols = n - r0;
	/* bands of rows whose dense block takes at most half of what is left */
	int64_t band = cols > 0 ? (int64_t)(d.budget / 2 / 4 / (uint64_t)cols) / HG_T * HG_T : HG_T;
	if (band < HG_T) band = HG_T;
	if (band > r1 - r0) band = r1 - r0;
	if (band > 0) CUDA_CHECK_GOTO(cudaMalloc(&d.dense, (size_t)band * (size_t)cols * 4 + 4), done);
	for (int64_t a = r0; a < r1 && !st; a += band) {
		int64_t b = a + band < r1 ? a + band : r1;
		hg_params_t p;
		hg_params(&p, &d, h, o);
		p.r0 = a; p.r1 = b; p.dense = d.dense; p.ld = n - a;
		if ((st = hg_timed(&d, &p, h->valid, sp)) != RK_OK) break;
		/* device band row i: columns a..n-1; host row i: columns r0..n-1 */
		CUDA_CHECK_GOTO(cudaMemcpy2DAsync(out + (a - r0) * ld + (a - r0), (size_t)ld * 4, d.dense, (size_t)(n - a) * 4,
		                                  (size_t)(n - a) * 4, (size_t)(b - a), cudaMemcpyDeviceToHost, d.st), done);
		CUDA_CHECK_GOTO(cudaStreamSynchronize(d.st), done);
	}
done:
	hg_free(&d);
	sp->total_s = rk_realtime() - t0;
	return st;
}

extern "C" rk_status_t rgpu_ham_pairs(const rkt_ham_set_t *h, const rkt_ham_opt_t *o, int64_t r0, int64_t r1, uint32_t maxd,
                                      const rgpu_opt_t *g, rkt_ham_pair_t **pairs, int64_t *n_pairs, rgpu_stats_t *stats)
{
	rgpu_stats_t dummy;
	rgpu_stats_t *sp = stats ? stats : &dummy;
	memset(sp, 0, sizeof *sp);
	double t0 = rk_realtime();
	hg_dev_t d;
	rkt_ham_pair_t *all = 0;
	int64_t n_all = 0, m_all = 0;
	*pairs = 0; *n_pairs = 0;
	rk_status_t st = hg_setup(&d, h, g);
	if (st) { hg_free(&d); return st; }
	unsigned long long cap_pairs = d.budget / 2 / sizeof(rkt_ham_pair_t);
	if (cap_pairs > (1ull << 28)) cap_pairs = 1ull << 28;
	if (cap_pairs < HG_T * HG_T) cap_pairs = HG_T * HG_T;
	CUDA_CHECK_GOTO(cudaMalloc(&d.pairs, cap_pairs * sizeof(rkt_ham_pair_t)), done);
	CUDA_CHECK_GOTO(cudaMalloc(&d.n_pairs, sizeof(unsigned long long)), done);
	{
		int64_t band = r1 - r0;
		for (int64_t a = r0; a < r1;) {
			int64_t b = a + band < r1 ? a + band : r1;
			hg_params_t p;
			hg_params(&p, &d, h, o);
			p.r0 = a; p.r1 = b; p.maxd = maxd; p.pairs = d.pairs; p.n_pairs = d.n_pairs; p.max_pairs = cap_pairs;
			if (o->cap && o->cap <= maxd) p.maxd = o->cap;  /* every capped value is kept */
			CUDA_CHECK_GOTO(cudaMemsetAsync(d.n_pairs, 0, sizeof(unsigned long long), d.st), done);
			if ((st = hg_timed(&d, &p, h->valid, sp)) != RK_OK) goto done;
			unsigned long long cnt = 0;
			CUDA_CHECK_GOTO(cudaMemcpyAsync(&cnt, d.n_pairs, sizeof cnt, cudaMemcpyDeviceToHost, d.st), done);
			CUDA_CHECK_GOTO(cudaStreamSynchronize(d.st), done);
			if (cnt > cap_pairs) {  /* more pairs than the buffer: the same rows in smaller bands */
				if (b - a <= HG_T) { st = RK_ERES; rk_set_error("more than %llu pairs within --max-dist in 64 rows", cap_pairs); goto done; }
				band = (b - a) / 2 / HG_T * HG_T;
				if (band < HG_T) band = HG_T;
				continue;
			}
			if (n_all + (int64_t)cnt > m_all) {
				m_all = (n_all + (int64_t)cnt) * 2 + 1024;
				rkt_ham_pair_t *t = (rkt_ham_pair_t *)realloc(all, sizeof *all * (size_t)m_all);
				if (!t) { st = RK_ERES; rk_set_error("out of memory for the pairs"); goto done; }
				all = t;
			}
			CUDA_CHECK_GOTO(cudaMemcpyAsync(all + n_all, d.pairs, sizeof *all * cnt, cudaMemcpyDeviceToHost, d.st), done);
			CUDA_CHECK_GOTO(cudaStreamSynchronize(d.st), done);
			n_all += (int64_t)cnt;
			a = b;
		}
	}
	rkt_ham_pairs_sort(all, n_all);
	*pairs = all; *n_pairs = n_all;
	all = 0;
done:
	free(all);
	hg_free(&d);
	sp->total_s = rk_realtime() - t0;
	return st;
}
