/* hamming on the GPU, host side: the bit planes stay resident; dense row bands sized to
 * the budget are computed and copied back for the matrix; for --max-dist only the kept
 * pairs come back, and a band whose pairs overflow the buffer is redone in halves. */
#include <stdlib.h>
#include <string.h>
#include "gpu/rgpu_rt.h"
#include "gpu/ham_gpu.h"
#include "gpu/ham_kern.h"

/* Device state shared by both entry points. */
typedef struct {
	uint64_t *bits;
	uint32_t *dense;
	ham_pair_t *pairs;
	unsigned long long *n_pairs;
	rgpu_rt_t rt;
	uint64_t budget;        /* what is left after the bit planes */
} hg_dev_t;

static void hg_free(hg_dev_t *d)
{
	/* unchecked: runs on error paths too, where the first error is the one to report */
	cudaFree(d->bits); cudaFree(d->dense); cudaFree(d->pairs); cudaFree(d->n_pairs);
	rgpu_rt_free(&d->rt);
	memset(d, 0, sizeof *d);
}

static rk_status_t hg_setup(hg_dev_t *d, const ham_set_t *h, const rgpu_opt_t *g, rgpu_stats_t *sp)
{
	memset(d, 0, sizeof *d);
	if (h->planes + h->valid > HG_MAXP) { rk_set_error("too many distinct symbols for the GPU kernel"); return RK_ERES; }
	rk_status_t st = rgpu_rt_init(&d->rt, g, sp);
	if (st) return st;
	d->budget = d->rt.budget;
	uint64_t bytes = (uint64_t)h->n * (uint64_t)h->stride * 8 + 8;
	if (bytes > d->budget / 2) {
		rk_set_error("the bit planes of %lld sequences need %.1f MB, more than half the device memory allowed (%.1f MB); use --backend cpu",
		             (long long)h->n, bytes / 1e6, d->budget / 1e6);
		return RK_ERES;
	}
	CUDA_CHECK(cudaMalloc(&d->bits, bytes));
	CUDA_CHECK(cudaMemcpyAsync(d->bits, h->bits, bytes, cudaMemcpyHostToDevice, d->rt.st));
	d->budget -= bytes;
	return RK_OK;
}

static void hg_params(hg_params_t *p, const hg_dev_t *d, const ham_set_t *h, const ham_opt_t *o)
{
	memset(p, 0, sizeof *p);
	p->bits = d->bits; p->stride = h->stride; p->W = h->words; p->n = h->n;
	p->P = h->planes; p->valid = h->valid; p->cap = o->cap;
}

typedef struct { const hg_params_t *p; int dflt; } hg_arg_t;
static cudaError_t hg_launch_arg(const void *a, cudaStream_t st)
{
	const hg_arg_t *x = (const hg_arg_t *)a;
	return hg_launch(x->p, x->dflt, st);
}

static rk_status_t hg_timed(hg_dev_t *d, const hg_params_t *p, int dflt)
{
	hg_arg_t a = { p, dflt };
	return rgpu_rt_timed(&d->rt, hg_launch_arg, &a);
}

extern "C" rk_status_t rgpu_ham_block(const ham_set_t *h, const ham_opt_t *o, int64_t r0, int64_t r1,
                                      const rgpu_opt_t *g, uint32_t *out, int64_t ld, rgpu_stats_t *stats)
{
	rgpu_stats_t dummy;
	rgpu_stats_t *sp = stats ? stats : &dummy;
	memset(sp, 0, sizeof *sp);
	double t0 = rk_realtime();
	hg_dev_t d;
	rk_status_t st = hg_setup(&d, h, g, sp);
	if (st) { hg_free(&d); return st; }
	int64_t n = h->n, cols = n - r0;
	/* bands of rows whose dense block takes at most half of what is left */
	int64_t band = cols > 0 ? (int64_t)(d.budget / 2 / 4 / (uint64_t)cols) / HG_T * HG_T : HG_T;
	if (band < HG_T) band = HG_T;
	if (band > r1 - r0) band = r1 - r0;
	if (band > 0) {
		CUDA_CHECK_GOTO(cudaMalloc(&d.dense, (size_t)band * (size_t)cols * 4 + 4), done);
		/* The kernel writes j >= i only; the copy back is a rectangle whose part below the
		 * diagonal the host overwrites by mirroring. Zeroed once, so no byte that leaves the
		 * device (or a rank, in the gather) was never written; about 1% of a large band's time. */
		CUDA_CHECK_GOTO(cudaMemsetAsync(d.dense, 0, (size_t)band * (size_t)cols * 4 + 4, d.rt.st), done);
	}
	for (int64_t a = r0; a < r1 && !st; a += band) {
		int64_t b = a + band < r1 ? a + band : r1;
		hg_params_t p;
		hg_params(&p, &d, h, o);
		p.r0 = a; p.r1 = b; p.dense = d.dense; p.ld = n - a;
		if ((st = hg_timed(&d, &p, h->valid)) != RK_OK) break;
		/* device band row i: columns a..n-1; host row i: columns r0..n-1 */
		CUDA_CHECK_GOTO(cudaMemcpy2DAsync(out + (a - r0) * ld + (a - r0), (size_t)ld * 4, d.dense, (size_t)(n - a) * 4,
		                                  (size_t)(n - a) * 4, (size_t)(b - a), cudaMemcpyDeviceToHost, d.rt.st), done);
		CUDA_CHECK_GOTO(cudaStreamSynchronize(d.rt.st), done);
	}
done:
	hg_free(&d);
	sp->total_s = rk_realtime() - t0;
	return st;
}

extern "C" rk_status_t rgpu_ham_pairs(const ham_set_t *h, const ham_opt_t *o, int64_t r0, int64_t r1, uint32_t maxd,
                                      const rgpu_opt_t *g, ham_pair_t **pairs, int64_t *n_pairs, rgpu_stats_t *stats)
{
	rgpu_stats_t dummy;
	rgpu_stats_t *sp = stats ? stats : &dummy;
	memset(sp, 0, sizeof *sp);
	double t0 = rk_realtime();
	hg_dev_t d;
	ham_pair_t *all = 0;
	int64_t n_all = 0, m_all = 0;
	*pairs = 0; *n_pairs = 0;
	rk_status_t st = hg_setup(&d, h, g, sp);
	if (st) { hg_free(&d); return st; }
	unsigned long long cap_pairs = d.budget / 2 / sizeof(ham_pair_t);
	if (cap_pairs > (1ull << 28)) cap_pairs = 1ull << 28;
	if (cap_pairs < HG_T * HG_T) cap_pairs = HG_T * HG_T;
	CUDA_CHECK_GOTO(cudaMalloc(&d.pairs, cap_pairs * sizeof(ham_pair_t)), done);
	CUDA_CHECK_GOTO(cudaMalloc(&d.n_pairs, sizeof(unsigned long long)), done);
	{
		int64_t band = r1 - r0;
		for (int64_t a = r0; a < r1;) {
			int64_t b = a + band < r1 ? a + band : r1;
			hg_params_t p;
			hg_params(&p, &d, h, o);
			p.r0 = a; p.r1 = b; p.maxd = maxd; p.pairs = d.pairs; p.n_pairs = d.n_pairs; p.max_pairs = cap_pairs;
			if (o->cap && o->cap <= maxd) p.maxd = o->cap;  /* every capped value is kept */
			CUDA_CHECK_GOTO(cudaMemsetAsync(d.n_pairs, 0, sizeof(unsigned long long), d.rt.st), done);
			if ((st = hg_timed(&d, &p, h->valid)) != RK_OK) goto done;
			unsigned long long cnt = 0;
			CUDA_CHECK_GOTO(cudaMemcpyAsync(&cnt, d.n_pairs, sizeof cnt, cudaMemcpyDeviceToHost, d.rt.st), done);
			CUDA_CHECK_GOTO(cudaStreamSynchronize(d.rt.st), done);
			if (cnt > cap_pairs) {  /* more pairs than the buffer: the same rows in smaller bands */
				if (b - a <= HG_T) { st = RK_ERES; rk_set_error("more than %llu pairs within --max-dist in 64 rows", cap_pairs); goto done; }
				band = (b - a) / 2 / HG_T * HG_T;
				if (band < HG_T) band = HG_T;
				continue;
			}
			if (n_all + (int64_t)cnt > m_all) {
				m_all = (n_all + (int64_t)cnt) * 2 + 1024;
				ham_pair_t *t = (ham_pair_t *)realloc(all, sizeof *all * (size_t)m_all);
				if (!t) { st = RK_ERES; rk_set_error("out of memory for the pairs"); goto done; }
				all = t;
			}
			CUDA_CHECK_GOTO(cudaMemcpyAsync(all + n_all, d.pairs, sizeof *all * cnt, cudaMemcpyDeviceToHost, d.rt.st), done);
			CUDA_CHECK_GOTO(cudaStreamSynchronize(d.rt.st), done);
			n_all += (int64_t)cnt;
			a = b;
		}
	}
	ham_pairs_sort(all, n_all, o->n_threads);
	*pairs = all; *n_pairs = n_all;
	all = 0;
done:
	free(all);
	hg_free(&d);
	sp->total_s = rk_realtime() - t0;
	return st;
}
