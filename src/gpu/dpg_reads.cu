/* Sets of reads up once as codes under one map of every byte they hold (dpg_two.cu, dpg_all.cu):
 * the raw bytes cross the bus through two pinned stages, and the alphabet is found and mapped
 * on the device. The host used to scan every byte for the alphabet and encode each one into
 * the stages: two passes over the reads on its threads, where a copy is one and the device's
 * pass is far faster (docs/BENCHMARKS.md, lev batches, "the 2026-12-04 fifth round"). */
#include "gpu/dpg_drv.h"

#define D_READS_STAGE (8ull << 20)   /* bytes a stage: copied into while the other one's copy runs */

typedef struct { const uint8_t *s; int64_t n; unsigned *bits; int blocks; } seen_arg_t;

/* the bytes of s[0, n) as a 256-bit set into bits (8 words, or-ed): each thread keeps its own,
 * the warp ors them, one lane per warp writes */
__global__ void __launch_bounds__(256) dpg_seen_kernel(const seen_arg_t p)
{
	const uint8_t *s = p.s;
	const int64_t n = p.n;
	unsigned *bits = p.bits;
	unsigned long long m[4] = { 0, 0, 0, 0 };
	const int64_t t = (int64_t)blockIdx.x * blockDim.x + threadIdx.x, stride = (int64_t)gridDim.x * blockDim.x;
	const int64_t nw = ((uintptr_t)s & 7) ? 0 : n / 8;   /* whole 8-byte words; the rest a byte at a time */
	const unsigned long long *w = (const unsigned long long *)s;
	for (int64_t i = t; i < nw; i += stride) {
		const unsigned long long x = w[i];
		for (int k = 0; k < 64; k += 8) {
			const unsigned c = (unsigned)(x >> k) & 255;
			const unsigned long long b = 1ull << (c & 63);
			m[0] |= c < 64 ? b : 0;
			m[1] |= c >= 64 && c < 128 ? b : 0;
			m[2] |= c >= 128 && c < 192 ? b : 0;
			m[3] |= c >= 192 ? b : 0;
		}
	}
	for (int64_t i = 8 * nw + t; i < n; i += stride) {
		const unsigned c = s[i];
		m[c >> 6] |= 1ull << (c & 63);
	}
	for (int q = 0; q < 4; q++) {
		for (int o = 16; o > 0; o >>= 1) m[q] |= __shfl_xor_sync(0xffffffffu, m[q], o);
		if ((threadIdx.x & 31) == 0) {
			if ((unsigned)m[q]) atomicOr(&bits[2 * q], (unsigned)m[q]);
			if ((unsigned)(m[q] >> 32)) atomicOr(&bits[2 * q + 1], (unsigned)(m[q] >> 32));
		}
	}
}

static cudaError_t seen_fn(const void *x, cudaStream_t st)
{
	const seen_arg_t a = *(const seen_arg_t *)x;
	if (a.n <= 0) return cudaSuccess;
	return DPG_LAUNCH(dpg_seen_kernel, (unsigned)a.blocks, 256, 0, st, a);
}

/* the raw bytes up through two pinned stages (one if only one is had: copied into and sent in
 * turn); a stage holds whole reads, so it is at least the longest */
static rk_status_t raw_up(dctx_t *X, int nsets, const char *const *const sq[], const int64_t *const ln[], const int64_t n[],
                          const int64_t *hoff, int64_t tot, int64_t maxlen, uint8_t *codes, double tm[3])
{
	const int64_t s0 = imax(tune_or(rgpu_dp_tune.reads_stage, (int64_t)D_READS_STAGE), maxlen);
	const size_t want = (size_t)imin(tot, s0);
	size_t cap[2] = { 0, 0 };
	double t = rk_realtime(), u;
	uint8_t *stage[2] = { (uint8_t *)rgpu_pinned_get(want, &cap[0]), (uint8_t *)rgpu_pinned_get(want, &cap[1]) };
	tm[0] = (u = rk_realtime()) - t;
	const int nb = stage[1] ? 2 : 1;
	cudaEvent_t ev[2] = { 0, 0 };
	int used[2] = { 0, 0 }, b = 0;
	rk_status_t st = RK_OK;
	if (!stage[0]) { rk_set_error("out of pinned host memory for the reads' codes"); st = RK_ERES; goto out; }
	for (int x = 0; x < nb; x++) CUDA_CHECK_GOTO(cudaEventCreate(&ev[x]), out);
	for (int64_t s = 0, x0 = 0; s < nsets && !st; x0 += n[s], s++) {
		const int64_t *o = hoff + x0;
		for (int64_t i = 0; i < n[s] && !st; b = (b + 1) % nb) {
			/* a cached stage may be larger: no more than s0, so that the copies overlap */
			const int64_t lim = imin((int64_t)cap[b], s0);
			int64_t e = i, m = 0;
			while (e < n[s] && m + ln[s][e] <= lim) m += ln[s][e++];
			if (used[b]) CUDA_CHECK_GOTO(cudaEventSynchronize(ev[b]), out);   /* its last copy is over */
			tm[2] += (t = rk_realtime()) - u;
			dpg_gather_at(sq[s] + i, ln[s] + i, o + i, e - i, o[i], stage[b], X->threads);
			tm[1] += (u = rk_realtime()) - t;
			CUDA_CHECK_GOTO(cudaMemcpyAsync(codes + o[i], stage[b], (size_t)m, cudaMemcpyHostToDevice, X->rt.st), out);
			CUDA_CHECK_GOTO(cudaEventRecord(ev[b], X->rt.st), out);
			used[b] = 1;
			i = e;
		}
	}
	CUDA_CHECK_GOTO(cudaStreamSynchronize(X->rt.st), out);   /* before the stages go back */
	tm[2] += rk_realtime() - u;
out:
	if (st) cudaStreamSynchronize(X->rt.st);   /* unchecked: the first error is the one reported */
	for (int x = 0; x < 2; x++) {
		if (ev[x]) cudaEventDestroy(ev[x]);
		rgpu_pinned_put(stage[x], cap[x]);
	}
	return st;
}

/* the bytes at codes [0, tot) to their codes in place: the set of bytes found on the device,
 * its map made here (dpg_map_seen, as the host's own), applied there */
static rk_status_t map_on_device(dctx_t *X, uint8_t *codes, int64_t tot, int *nc)
{
	dbuf_t aux = { 0, 0 };
	unsigned hb[8];
	uint8_t map[256];
	rk_status_t st = dalloc(X, &aux, 256 + 8 * sizeof(unsigned), "the reads' codes");
	if (st) return st;
	{
		unsigned *bits = (unsigned *)((uint8_t *)aux.p + 256);
		const seen_arg_t a = { codes, tot, bits, (int)imax(1, imin((tot / 8 + 255) / 256, 8 * (int64_t)(X->nsm > 0 ? X->nsm : 1))) };
		CUDA_CHECK_GOTO(cudaMemsetAsync(bits, 0, 8 * sizeof(unsigned), X->rt.st), done);
		if ((st = rgpu_rt_timed(&X->rt, seen_fn, &a))) goto done;
		CUDA_CHECK_GOTO(cudaMemcpyAsync(hb, bits, sizeof hb, cudaMemcpyDeviceToHost, X->rt.st), done);
		CUDA_CHECK_GOTO(cudaStreamSynchronize(X->rt.st), done);
		const uint64_t seen[4] = { hb[0] | (uint64_t)hb[1] << 32, hb[2] | (uint64_t)hb[3] << 32, hb[4] | (uint64_t)hb[5] << 32,
		                           hb[6] | (uint64_t)hb[7] << 32 };
		*nc = dpg_map_seen(seen, map);
		const dpg_enc_t e = { (const uint8_t *)aux.p, codes, codes, tot, 0 };   /* in place: a thread reads its byte, then writes it */
		CUDA_CHECK_GOTO(cudaMemcpyAsync(aux.p, map, 256, cudaMemcpyHostToDevice, X->rt.st), done);
		CUDA_CHECK_GOTO(dpg_encode_launch(&e, X->rt.st), done);
		CUDA_CHECK_GOTO(cudaStreamSynchronize(X->rt.st), done);   /* before aux goes */
	}
done:
	dfree(X, &aux);
	return st;
}

rk_status_t reads_up(dctx_t *X, int nsets, const char *const *const sq[], const int64_t *const ln[], const int64_t n[],
                     const int64_t *hoff, int64_t tot, int64_t maxlen, uint8_t *codes, int *nc)
{
	if (tot <= 0) { *nc = 1; return RK_OK; }
	const double t0 = rk_realtime();
	double tm[3] = { 0, 0, 0 };   /* the stages got, the bytes gathered into them, the copies waited for */
	rk_status_t st = raw_up(X, nsets, sq, ln, n, hoff, tot, maxlen, codes, tm);
	const double t1 = rk_realtime();
	if (!st) st = map_on_device(X, codes, tot, nc);
	rk_debug("reads on the device: %.1f MB up %.3f s (pinned stages got in %.3f s, filled on %d threads in %.3f s, copies waited for %.3f s), mapped there %.3f s",
	         (double)tot / 1e6, t1 - t0, tm[0], X->threads, tm[1], tm[2], rk_realtime() - t1);
	return st;
}
