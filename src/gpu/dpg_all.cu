/* Every pair (i, j > i) of one set of reads (lev --all) on the device: the reads go up once,
 * as codes under one map for all of them (the kernels compare codes for equality only, so
 * one map of every byte the reads hold gives the values of the per-pair maps); the pairs of
 * a range of rows are enumerated on the device a tile at a time, valued by the batch kernel
 * (dpg_kernel.cu) at the class of the longest read, and only those kept (--max-dist) are
 * compacted there and copied back. The host packed and shipped both reads of each of the
 * 50M pairs of 10,000 reads before (13.8 s on an H100, for 2.5 ms a million pairs of kernel).
 * It takes reads of at most D_BATCH_MAX_LA bases; rgpu_dp_all_open says when it does not
 * suit, and the caller then takes the general path (rgpu_dp_batch). */
#include "gpu/dpg_drv.h"

#define D_ALL_TILE (1ll << 22)   /* pairs enumerated, valued and filtered per round of launches */
#define D_ALL_PINNED (1ll << 16)   /* hits a tile copies back through pinned memory (100 MB of it took tens of ms) */
#define D_ALL_BYTES (sizeof(dpg_pair_t) + 8 + sizeof(rgpu_dp_hit_t))   /* device bytes per pair of a tile */

struct rgpu_dp_all_s {
	dctx_t X;
	int64_t n, tile;
	int nc, cls;
	dbuf_t codes, off, len, pairs, val, hits, cnt;
	rgpu_dp_hit_t *hh;   /* pinned: a tile's hits when at most hcap */
	int64_t hcap;
	unsigned long long *hcnt;
};

/* the first pair index of row i among all pairs (i, j > i) of n reads */
static inline DPG_HD int64_t all_rowoff(int64_t i, int64_t n) { return i * (2 * n - i - 1) / 2; }

/* the pair of global index g, in rows [r0, r1): the last row whose first index is <= g */
static inline DPG_HD void all_pair_of(int64_t g, int64_t n, int64_t r0, int64_t r1, int64_t *i, int64_t *j)
{
	int64_t lo = r0, hi = r1 - 1;
	while (lo < hi) {
		const int64_t mid = lo + (hi - lo + 1) / 2;
		if (all_rowoff(mid, n) <= g) lo = mid;
		else hi = mid - 1;
	}
	*i = lo;
	*j = lo + 1 + (g - all_rowoff(lo, n));
}

typedef struct {
	int64_t n, r0, r1, base, cnt;   /* pairs [base, base + cnt) of rows [r0, r1) */
	const int64_t *off;
	const int32_t *len;
	dpg_pair_t *pairs;
	const int64_t *val;
	rgpu_dp_hit_t *hits;
	unsigned long long *nhit;
	int mode;
	int64_t k, max_dist;            /* lev: above k is -1; kept: max_dist < 0 every pair (in place), else 0 <= v <= max_dist */
} all_arg_t;

__global__ void __launch_bounds__(256) dpg_all_gen_kernel(const all_arg_t p)
{
	const int64_t t = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
	if (t >= p.cnt) return;
	int64_t i, j;
	all_pair_of(p.base + t, p.n, p.r0, p.r1, &i, &j);
	p.pairs[t] = dpg_pair_at(p.off, p.len, i, j);
}

__global__ void __launch_bounds__(256) dpg_all_keep_kernel(const all_arg_t p)
{
	const int64_t t = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
	if (t >= p.cnt) return;
	int64_t v = p.val[t];
	if (p.mode == DPG_LEV && p.k >= 0 && v > p.k) v = -1;
	if (p.max_dist >= 0 && (v < 0 || v > p.max_dist)) return;
	int64_t i, j;
	all_pair_of(p.base + t, p.n, p.r0, p.r1, &i, &j);
	const int64_t at = p.max_dist < 0 ? t : (int64_t)atomicAdd(p.nhit, 1ull);
	rgpu_dp_hit_t h;
	h.i = i;
	h.j = j;
	h.v = v;
	p.hits[at] = h;
}

typedef struct { const all_arg_t *a; int gen; } all_launch_t;
static cudaError_t all_fn(const void *x, cudaStream_t st)
{
	const all_launch_t *l = (const all_launch_t *)x;
	const all_arg_t arg = *l->a;
	const int64_t blocks = (arg.cnt + 255) / 256;
	if (blocks <= 0) return cudaSuccess;
	if (l->gen) return DPG_LAUNCH(dpg_all_gen_kernel, (unsigned)blocks, 256, 0, st, arg);
	return DPG_LAUNCH(dpg_all_keep_kernel, (unsigned)blocks, 256, 0, st, arg);
}

/* the reads' codes under one map (h->nc: its codes), their offsets and lengths, on the device */
static rk_status_t all_upload(rgpu_dp_all_t *h, const char *const *seqs, const int64_t *lens, int64_t n, int64_t maxl)
{
	dctx_t *X = &h->X;
	int64_t tot = 0;
	rk_status_t st = RK_OK;
	int64_t *hoff = (int64_t *)malloc(sizeof(int64_t) * (size_t)(n + 1));
	int32_t *hlen = (int32_t *)malloc(sizeof(int32_t) * (size_t)(n + 1));
	if (!hoff || !hlen) { free(hoff); free(hlen); rk_set_error("out of memory for the codes of %lld reads", (long long)n); return RK_ERES; }
	for (int64_t i = 0; i < n; i++) {
		hoff[i] = tot;
		hlen[i] = (int32_t)lens[i];
		tot += lens[i];
	}
	const char *const *const sq[1] = { seqs };
	const int64_t *const ln[1] = { lens };
	if (!(st = dalloc(X, &h->codes, (uint64_t)(tot ? tot : 1), "the reads' codes")) && !(st = dalloc(X, &h->off, 8 * (uint64_t)n, "the reads' codes")) &&
	    !(st = dalloc(X, &h->len, 4 * (uint64_t)n, "the reads' codes")) &&
	    !(st = reads_up(X, 1, sq, ln, &n, hoff, tot, maxl, (uint8_t *)h->codes.p, &h->nc))) {
		CUDA_CHECK_GOTO(cudaMemcpyAsync(h->off.p, hoff, 8 * (size_t)n, cudaMemcpyHostToDevice, X->rt.st), done);
		CUDA_CHECK_GOTO(cudaMemcpyAsync(h->len.p, hlen, 4 * (size_t)n, cudaMemcpyHostToDevice, X->rt.st), done);
		CUDA_CHECK_GOTO(cudaStreamSynchronize(X->rt.st), done);   /* before the host copies go */
	}
done:
	free(hoff); free(hlen);
	return st;
}

extern "C" rk_status_t rgpu_dp_all_open(int mode, const rgpu_opt_t *g, const char *const *seqs, const int64_t *lens, int64_t n,
                                        rgpu_dp_all_t **out, rgpu_stats_t *sp)
{
	*out = 0;
	int64_t maxl = 0;
	for (int64_t i = 0; i < n; i++)
		if (lens[i] > maxl && (maxl = lens[i]) > D_BATCH_MAX_LA) return RK_OK;   /* a long read: the general path routes its pairs */
	if (n < 2) return RK_OK;
	rgpu_dp_all_t *h = (rgpu_dp_all_t *)calloc(1, sizeof *h);
	if (!h) { rk_set_error("out of memory"); return RK_ERES; }
	h->n = n;
	h->cls = dpg_class_of(maxl > 0 ? maxl : 1);
	rk_status_t st = ctx_init(&h->X, mode, g, sp);
	if (!st) st = all_upload(h, seqs, lens, n, maxl);
	if (!st) {
		/* a tile of what is left of the budget, halved for the runtime's own */
		const uint64_t left = h->X.rt.budget > h->X.used ? h->X.rt.budget - h->X.used : 0;
		const int64_t fit = (int64_t)(left / 2 / D_ALL_BYTES);
		h->tile = imin(tune_or(rgpu_dp_tune.all_tile, D_ALL_TILE), fit);
		if (fit < 256) {
			rgpu_dp_all_close(h);   /* too little memory for tiles worth it: the general path */
			return RK_OK;
		}
		const uint64_t T = (uint64_t)h->tile;
		if (!(st = dalloc(&h->X, &h->pairs, T * sizeof(dpg_pair_t), "a tile of pairs")) &&
		    !(st = dalloc(&h->X, &h->val, T * 8, "a tile of pairs")) && !(st = dalloc(&h->X, &h->hits, T * sizeof(rgpu_dp_hit_t), "a tile of pairs")) &&
		    !(st = dalloc(&h->X, &h->cnt, 8, "a tile of pairs"))) {
			h->hcap = imin(h->tile, D_ALL_PINNED);
			if (cudaMallocHost((void **)&h->hh, (size_t)h->hcap * sizeof(rgpu_dp_hit_t)) != cudaSuccess || cudaMallocHost((void **)&h->hcnt, 8) != cudaSuccess) {
				cudaGetLastError();
				rk_set_error("out of pinned host memory for a tile of pairs");
				st = RK_ERES;
			}
		}
	}
	if (st == RK_ERES) {
		/* the budget holds no copy of the reads with a tile: the general path, in smaller chunks */
		rk_debug("lev --all on the device: %s; pairs packed per chunk instead", rk_error());
		rk_clear_error();
		rgpu_dp_all_close(h);
		return RK_OK;
	}
	if (st) { rgpu_dp_all_close(h); return st; }
	*out = h;
	return RK_OK;
}

void rgpu_dp_all_close(rgpu_dp_all_t *h)
{
	if (!h) return;
	dctx_t *X = &h->X;
	if (h->hh) cudaFreeHost(h->hh);
	if (h->hcnt) cudaFreeHost(h->hcnt);
	dfree(X, &h->codes); dfree(X, &h->off); dfree(X, &h->len); dfree(X, &h->pairs); dfree(X, &h->val); dfree(X, &h->hits);
	dfree(X, &h->cnt);
	ctx_free(X);
	free(h);
}

static int cmp_hit(const void *x, const void *y)
{
	const rgpu_dp_hit_t *a = (const rgpu_dp_hit_t *)x, *b = (const rgpu_dp_hit_t *)y;
	if (a->i != b->i) return a->i < b->i ? -1 : 1;
	return a->j < b->j ? -1 : a->j > b->j;
}

/* one tile: pairs [base, base + cnt) of rows [r0, r1), their hits appended to *hits */
static rk_status_t all_tile(rgpu_dp_all_t *h, all_arg_t *a, rgpu_dp_hit_t **hits, int64_t *nh, int64_t *cap)
{
	dctx_t *X = &h->X;
	rk_status_t st;
	dpg_batch_t bp;
	memset(&bp, 0, sizeof bp);
	bp.pairs = (const dpg_pair_t *)h->pairs.p;
	bp.n = a->cnt;
	bp.codes = (const uint8_t *)h->codes.p;
	bp.nc = h->nc;
	bp.val = (int64_t *)h->val.p;
	all_launch_t gen = { a, 1 }, keep = { a, 0 };
	dpg_batch_job_t bb = { X->mode, h->cls, &bp };
	if (a->max_dist >= 0) CUDA_CHECK(cudaMemsetAsync(h->cnt.p, 0, 8, X->rt.st));
	if ((st = rgpu_rt_timed(&X->rt, all_fn, &gen)) || (st = rgpu_rt_timed(&X->rt, dpg_batch_job_fn, &bb)) ||
	    (st = rgpu_rt_timed(&X->rt, all_fn, &keep)))
		return st;
	int64_t m = a->cnt;
	if (a->max_dist >= 0) {
		CUDA_CHECK(cudaMemcpyAsync(h->hcnt, h->cnt.p, 8, cudaMemcpyDeviceToHost, X->rt.st));
		CUDA_CHECK(cudaStreamSynchronize(X->rt.st));
		m = (int64_t)*h->hcnt;
	}
	if (m > 0) {
		if (*nh + m > *cap) {
			int64_t c = imax(*nh + m, 2 * *cap);
			rgpu_dp_hit_t *x = (rgpu_dp_hit_t *)realloc(*hits, sizeof *x * (size_t)c);
			if (!x) { rk_set_error("out of memory for %lld pairs kept", (long long)(*nh + m)); return RK_ERES; }
			*hits = x;
			*cap = c;
		}
		/* few hits through the pinned buffer, many straight to the (pageable) result */
		rgpu_dp_hit_t *to = m <= h->hcap ? h->hh : *hits + *nh;
		CUDA_CHECK(cudaMemcpyAsync(to, h->hits.p, (size_t)m * sizeof(rgpu_dp_hit_t), cudaMemcpyDeviceToHost, X->rt.st));
		CUDA_CHECK(cudaStreamSynchronize(X->rt.st));
		if (a->max_dist >= 0) qsort(to, (size_t)m, sizeof *to, cmp_hit);   /* compacted in any order */
		if (to == h->hh) memcpy(*hits + *nh, h->hh, sizeof *h->hh * (size_t)m);
		*nh += m;
	}
	if (X->sp) X->sp->n_ichunk++;
	return RK_OK;
}

extern "C" rk_status_t rgpu_dp_all_rows(rgpu_dp_all_t *h, int64_t k, int64_t max_dist, int64_t r0, int64_t r1, rgpu_dp_hit_t **hits,
                                        int64_t *nhits)
{
	*hits = 0;
	*nhits = 0;
	if (r0 < 0 || r1 > h->n || r0 >= r1) return RK_OK;
	const int64_t p0 = all_rowoff(r0, h->n), p1 = all_rowoff(r1, h->n);
	all_arg_t a;
	memset(&a, 0, sizeof a);
	a.n = h->n; a.r0 = r0; a.r1 = r1;
	a.off = (const int64_t *)h->off.p;
	a.len = (const int32_t *)h->len.p;
	a.pairs = (dpg_pair_t *)h->pairs.p;
	a.val = (const int64_t *)h->val.p;
	a.hits = (rgpu_dp_hit_t *)h->hits.p;
	a.nhit = (unsigned long long *)h->cnt.p;
	a.mode = h->X.mode;
	a.k = h->X.mode == DPG_LEV ? k : -1;
	a.max_dist = max_dist;
	int64_t cap = 0;
	rk_status_t st = RK_OK;
	for (int64_t b = p0; b < p1 && !st; b += h->tile) {
		a.base = b;
		a.cnt = imin(h->tile, p1 - b);
		st = all_tile(h, &a, hits, nhits, &cap);
	}
	if (st) { free(*hits); *hits = 0; *nhits = 0; }
	return st;
}
