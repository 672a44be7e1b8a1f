/* Pairs given by index into two read sets (lev/lcs values, no path), valued on the device from
 * the reads uploaded once: the reads of A and B go up as codes under one map of every byte
 * they hold (the kernels compare codes for equality only, as in dpg_all.cu), and a block of
 * pairs goes up as two arrays of indices; the device builds the pairs and values them with
 * the batch kernel at the class of the longest read of A. Before, the host counted each
 * pair's symbols, sorted the pairs by shape, packed both reads of every pair and copied them
 * up: 25-50 ms a block of 131,072 pairs of 150 bp on 16 threads of an H100 host, longer than
 * the 16 threads' own compute of the block (~25 ms). Used by lev and lcs pairs and by the
 * candidates of `lev --all --max-dist`; reads over D_TWO_MAX_LEN bases, empty reads, or
 * too little device memory: declined (the caller packs per block as before). */
#include <pthread.h>
#include "gpu/dpg_drv.h"

/* The longest read taken. Whole process on one H100 and 16 cores, median of 3, against the
 * packing per block: 1M pairs of 150 bp 0.55 / 0.61 s, lev --all --max-dist 10 of 100,000 x
 * 72 bp 1.62 / 2.01 s; 200,000 pairs of 500 bp lev 0.42 / 0.39 s, lcs 0.38 / 0.43 s; 20,000
 * of 2 kb lev 0.35 / 0.31 s, lcs 0.37 / 0.31 s (one class for every pair of the launch, where
 * the packed blocks are sorted by shape). */
#define D_TWO_MAX_LEN 320

struct rgpu_dp_two_s {
	dctx_t X;
	pthread_mutex_t mu;     /* one call at a time: pair_run's helper threads share the handle */
	int64_t na, nb, cap;    /* reads of A, of B (0: B is A), pairs a launch */
	int nc, cls;
	dbuf_t codes, off, len, idx, pairs, val;
	int64_t *hidx, *hval;   /* pinned: a launch's indices (A's, then B's) up, its values back */
};

typedef struct {
	const int64_t *off, *ai, *bi;
	const int32_t *len;
	int64_t bbase, n;       /* B's reads follow A's at bbase (0: B is A) */
	dpg_pair_t *pairs;
} two_arg_t;

__global__ void __launch_bounds__(256) dpg_two_gen_kernel(const two_arg_t p)
{
	const int64_t t = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
	if (t >= p.n) return;
	p.pairs[t] = dpg_pair_at(p.off, p.len, p.ai[t], p.bbase + p.bi[t]);
}

static cudaError_t two_gen_fn(const void *x, cudaStream_t st)
{
	const two_arg_t arg = *(const two_arg_t *)x;
	const int64_t blocks = (arg.n + 255) / 256;
	if (blocks <= 0) return cudaSuccess;
	return DPG_LAUNCH(dpg_two_gen_kernel, (unsigned)blocks, 256, 0, st, arg);
}

/* every read's offset and length (A's then B's), and whether they suit: none empty or over
 * D_TWO_MAX_LEN; *maxa: the longest of A */
static int two_index(const int64_t *const ln[2], const int64_t n[2], int64_t *off, int32_t *len,
                     int64_t *maxa, int64_t *tot)
{
	int64_t at = 0, x = 0;
	*maxa = 0;
	for (int s = 0; s < 2; s++)
		for (int64_t i = 0; i < n[s]; i++, x++) {
			const int64_t l = ln[s][i];
			if (l < 1 || l > D_TWO_MAX_LEN) return 0;
			if (s == 0 && l > *maxa) *maxa = l;
			off[x] = at;
			len[x] = (int32_t)l;
			at += l;
		}
	*tot = at;
	return 1;
}

/* the device's copies and buffers: codes, offsets and lengths, and a launch's indices, pairs
 * and values; the pinned host ends of a launch */
static rk_status_t two_alloc(rgpu_dp_two_t *h, int64_t nr, int64_t tot)
{
	dctx_t *X = &h->X;
	const uint64_t C = (uint64_t)h->cap;
	rk_status_t st;
	if ((st = dalloc(X, &h->codes, (uint64_t)tot, "the reads' codes")) || (st = dalloc(X, &h->off, 8 * (uint64_t)nr, "the reads' codes")) ||
	    (st = dalloc(X, &h->len, 4 * (uint64_t)nr, "the reads' codes")) || (st = dalloc(X, &h->idx, 16 * C, "a block of pairs")) ||
	    (st = dalloc(X, &h->pairs, C * sizeof(dpg_pair_t), "a block of pairs")) || (st = dalloc(X, &h->val, 8 * C, "a block of pairs")))
		return st;
	if (cudaMallocHost((void **)&h->hidx, (size_t)(16 * C)) != cudaSuccess || cudaMallocHost((void **)&h->hval, (size_t)(8 * C)) != cudaSuccess) {
		cudaGetLastError();
		rk_set_error("out of pinned host memory for a block of pairs");
		return RK_ERES;
	}
	return RK_OK;
}

extern "C" rk_status_t rgpu_dp_two_open(int mode, const rgpu_opt_t *g, const char *const *sa, const int64_t *la, int64_t na,
                                        const char *const *sb, const int64_t *lb, int64_t nb, int64_t cap, rgpu_dp_two_t **out,
                                        rgpu_stats_t *sp)
{
	*out = 0;
	const char *const *const sq[2] = { sa, sb };
	const int64_t *const ln[2] = { la, lb };
	const int64_t n[2] = { na, sb ? nb : 0 }, nr = n[0] + n[1];
	if (na < 1 || (sb && nb < 1) || cap < 1) return RK_OK;
	int64_t *hoff = (int64_t *)malloc(sizeof(int64_t) * (size_t)nr);
	int32_t *hlen = (int32_t *)malloc(sizeof(int32_t) * (size_t)nr);
	rgpu_dp_two_t *h = (rgpu_dp_two_t *)calloc(1, sizeof *h);
	int64_t maxa = 0, tot = 0;
	rk_status_t st = RK_OK;
	if (h) pthread_mutex_init(&h->mu, 0);
	if (!hoff || !hlen || !h) { st = RK_ERES; rk_set_error("out of memory for the reads' offsets"); goto done; }
	if (!two_index(ln, n, hoff, hlen, &maxa, &tot)) goto done;   /* declined: h freed below */
	h->na = na; h->nb = n[1]; h->cap = cap;
	h->cls = dpg_class_of(maxa);
	{
		const double t0 = rk_realtime();
		if ((st = ctx_init(&h->X, mode, g, sp))) goto done;
		h->X.rt.stats = 0;   /* each call names its own (rgpu_dp_two_vals) */
		h->X.sp = 0;
		const double t1 = rk_realtime();
		if ((st = two_alloc(h, nr, tot))) goto done;
		const double t2 = rk_realtime();
		if ((st = reads_up(&h->X, 2, sq, ln, n, hoff, tot, D_TWO_MAX_LEN, (uint8_t *)h->codes.p, &h->nc))) goto done;
		rk_debug("reads on the device: context %.3f s, buffers %.3f s, %.1f MB of codes up and mapped %.3f s", t1 - t0, t2 - t1,
		         (double)tot / 1e6, rk_realtime() - t2);
	}
	CUDA_CHECK_GOTO(cudaMemcpyAsync(h->off.p, hoff, 8 * (size_t)nr, cudaMemcpyHostToDevice, h->X.rt.st), done);
	CUDA_CHECK_GOTO(cudaMemcpyAsync(h->len.p, hlen, 4 * (size_t)nr, cudaMemcpyHostToDevice, h->X.rt.st), done);
	CUDA_CHECK_GOTO(cudaStreamSynchronize(h->X.rt.st), done);   /* before the host arrays go */
	*out = h;
	h = 0;
done:
	if (h && h->X.live) {   /* declined after the context, or failed */
		rgpu_dp_two_close(h);
		h = 0;
	}
	if (st == RK_ERES) {   /* too little memory for the copy: the caller packs per block */
		rk_debug("pairs on the device from the reads: %s; packed per block instead", rk_error());
		rk_clear_error();
		st = RK_OK;
	}
	if (h) pthread_mutex_destroy(&h->mu);
	free(h); free(hoff); free(hlen);
	return st;
}

extern "C" void rgpu_dp_two_close(rgpu_dp_two_t *h)
{
	if (!h) return;
	dctx_t *X = &h->X;
	if (h->hidx) cudaFreeHost(h->hidx);
	if (h->hval) cudaFreeHost(h->hval);
	dfree(X, &h->codes); dfree(X, &h->off); dfree(X, &h->len); dfree(X, &h->idx); dfree(X, &h->pairs); dfree(X, &h->val);
	ctx_free(X);
	pthread_mutex_destroy(&h->mu);
	free(h);
}

/* one launch: pairs [s, s + m) of the call */
static rk_status_t two_launch(rgpu_dp_two_t *h, int64_t k, const int64_t *ai, const int64_t *bi, int64_t m, int64_t *val)
{
	dctx_t *X = &h->X;
	rk_status_t st;
	int64_t *dai = (int64_t *)h->idx.p, *dbi = dai + h->cap;
	memcpy(h->hidx, ai, 8 * (size_t)m);
	memcpy(h->hidx + h->cap, bi, 8 * (size_t)m);
	CUDA_CHECK(cudaMemcpyAsync(dai, h->hidx, 8 * (size_t)m, cudaMemcpyHostToDevice, X->rt.st));
	CUDA_CHECK(cudaMemcpyAsync(dbi, h->hidx + h->cap, 8 * (size_t)m, cudaMemcpyHostToDevice, X->rt.st));
	two_arg_t a;
	a.off = (const int64_t *)h->off.p; a.len = (const int32_t *)h->len.p;
	a.ai = dai; a.bi = dbi; a.bbase = h->nb ? h->na : 0; a.n = m;
	a.pairs = (dpg_pair_t *)h->pairs.p;
	dpg_batch_t bp;
	memset(&bp, 0, sizeof bp);
	bp.pairs = a.pairs; bp.n = m; bp.codes = (const uint8_t *)h->codes.p; bp.nc = h->nc; bp.val = (int64_t *)h->val.p;
	dpg_batch_job_t bb = { X->mode, h->cls, &bp };
	if ((st = rgpu_rt_timed(&X->rt, two_gen_fn, &a)) || (st = rgpu_rt_timed(&X->rt, dpg_batch_job_fn, &bb))) return st;
	CUDA_CHECK(cudaMemcpyAsync(h->hval, h->val.p, 8 * (size_t)m, cudaMemcpyDeviceToHost, X->rt.st));
	CUDA_CHECK(cudaStreamSynchronize(X->rt.st));
	for (int64_t q = 0; q < m; q++) val[q] = X->mode == DPG_LEV && k >= 0 && h->hval[q] > k ? -1 : h->hval[q];
	if (X->sp) X->sp->n_ichunk++;
	return RK_OK;
}

extern "C" rk_status_t rgpu_dp_two_vals(rgpu_dp_two_t *h, int64_t k, const int64_t *ai, const int64_t *bi, int64_t n, int64_t *val,
                                        rgpu_stats_t *sp)
{
	rgpu_stats_t dummy;
	if (!sp) sp = &dummy;
	memset(sp, 0, sizeof *sp);
	const double t0 = rk_realtime();
	for (int64_t q = 0; q < n; q++)
		if (ai[q] < 0 || ai[q] >= h->na || bi[q] < 0 || bi[q] >= (h->nb ? h->nb : h->na)) {
			rk_set_error("internal error: pair %lld indexes a read that is not there", (long long)q);
			return RK_ERES;
		}
	pthread_mutex_lock(&h->mu);
	rk_status_t st = RK_OK;
	h->X.rt.stats = sp;
	h->X.sp = sp;
	cudaError_t e = cudaSetDevice(h->X.rt.device);   /* this thread's device: a helper thread starts on device 0 */
	if (e != cudaSuccess) { CUDA_SET_ERROR(e); st = RK_ERES; }
	for (int64_t s = 0; s < n && !st; s += h->cap) st = two_launch(h, k, ai + s, bi + s, imin(h->cap, n - s), val + s);
	h->X.rt.stats = 0;
	h->X.sp = 0;
	pthread_mutex_unlock(&h->mu);
	sp->total_s = rk_realtime() - t0;
	return st;
}
