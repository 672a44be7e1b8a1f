/* The context of one lev/lcs GPU call (dctx_t): the device and its stream (rgpu_rt_t), the
 * number of SMs the long kernel's sizing needs, and the device memory held, counted against
 * the budget so that a limit too small for one unit is RK_ERES with a message rather than a
 * failed cudaMalloc; and a pair's codes on the device. It decides no strategy: the runners
 * (dpg_batch.cu, dpg_long.cu) and the strategies over them allocate through it. */
#include "gpu/dpg_drv.h"

rk_status_t ctx_init(dctx_t *X, int mode, const rgpu_opt_t *g, rgpu_stats_t *sp)
{
	X->mode = mode;
	X->sp = sp;
	X->threads = g->n_threads;
	X->live = 1;   /* rgpu_rt_free also after a failed init */
	rk_status_t st = rgpu_rt_init(&X->rt, g, sp);
	if (st) return st;
	CUDA_CHECK(cudaDeviceGetAttribute(&X->nsm, cudaDevAttrMultiProcessorCount, X->rt.device));
	return RK_OK;
}

void ctx_free(dctx_t *X)
{
	if (X->live) rgpu_rt_free(&X->rt);
	X->live = 0;
}

rk_status_t dalloc(dctx_t *X, dbuf_t *b, uint64_t bytes, const char *what)
{
	b->p = 0;
	b->n = bytes ? bytes : 16;
	if (X->used + b->n > X->rt.budget) {
		rk_set_error("device memory limit of %.3f MB is too small for %s (%.3f MB more needed); raise --device-memory or use --backend cpu",
		             X->rt.budget / 1e6, what, b->n / 1e6);
		b->n = 0;
		return RK_ERES;
	}
	cudaError_t e = cudaMalloc(&b->p, b->n);
	if (e != cudaSuccess) {
		b->p = 0;
		b->n = 0;
		CUDA_SET_ERROR(e);
		return RK_ERES;
	}
	X->used += b->n;
	if (X->used > X->peak) X->peak = X->used;
	return RK_OK;
}

void dfree(dctx_t *X, dbuf_t *b)
{
	/* unchecked: also on error paths, where the first error is the one to report */
	if (b->p) {
		cudaFree(b->p);
		X->used -= b->n;
	}
	b->p = 0;
	b->n = 0;
}

/* The codes of a pair on the device, into dc (allocated here): a then b (dir CODES_FWD), a and
 * b reversed (CODES_REV), or both, the reversed ones after (CODES_BOTH). The texts go up as they
 * are with the map and are mapped there: the same bytes cross the bus, and the host's encoding
 * and reversing cost 20-40 ms of a split 10 Mb pair. */
rk_status_t codes_up(dctx_t *X, const uint8_t map[256], const char *a, int64_t la, const char *b, int64_t lb, int dir,
                            dbuf_t *dc, const char *what)
{
	dbuf_t raw = { 0, 0 };
	rk_status_t st;
	if ((st = dalloc(X, dc, (uint64_t)((dir == CODES_BOTH ? 2 : 1) * (la + lb)), what)) ||
	    (st = dalloc(X, &raw, 256 + (uint64_t)(la + lb), what)))
		return st;
	{
		uint8_t *r = (uint8_t *)raw.p, *d = (uint8_t *)dc->p, *dr = d + (dir == CODES_BOTH ? la + lb : 0);
		const dpg_enc_t e[4] = { { r, r + 256, d, la, 0 }, { r, r + 256 + la, d + la, lb, 0 },
		                         { r, r + 256, dr, la, 1 }, { r, r + 256 + la, dr + la, lb, 1 } };
		CUDA_CHECK_GOTO(cudaMemcpyAsync(r, map, 256, cudaMemcpyHostToDevice, X->rt.st), done);
		CUDA_CHECK_GOTO(cudaMemcpyAsync(r + 256, a, (size_t)la, cudaMemcpyHostToDevice, X->rt.st), done);
		CUDA_CHECK_GOTO(cudaMemcpyAsync(r + 256 + la, b, (size_t)lb, cudaMemcpyHostToDevice, X->rt.st), done);
		for (int q = dir & CODES_FWD ? 0 : 2; q < (dir & CODES_REV ? 4 : 2); q++) CUDA_CHECK_GOTO(dpg_encode_launch(&e[q], X->rt.st), done);
		CUDA_CHECK_GOTO(cudaStreamSynchronize(X->rt.st), done);   /* before raw goes */
	}
done:
	dfree(X, &raw);
	return st;
}
