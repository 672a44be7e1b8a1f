/* lev and lcs on the GPU, host side, both modes (lev_gpu.cu and lcs_gpu.cu are the entry
 * points). Everything goes to the call's stream (rgpu_rt_t).
 *
 * Routing: a pair with an empty side is answered here; otherwise A of at most 4096 rows (and
 * not too many cells) goes to the batch kernel, many pairs per launch, sorted by shape so that
 * a warp's pairs have similar lengths; longer pairs go one at a time to the long kernel.
 * Paths: batch pairs keep every column's state on the device and are traced there; long pairs
 * (or pairs whose column store would be large) by Hirschberg: forward and reverse passes of the
 * long or batch kernel give the two rows around a split, the host picks the crossing, and the
 * small sub-problems left are traced as a batch. The canonical path does not depend on where
 * the splits fall (aln.h), so the result is the CPU's exactly.
 *
 * Long pairs are pruned as on the CPU (aln_sweep.c, aln_cost): a bound (-k, the cost in a narrow
 * band about the corner diagonals, or a sub-problem's known cost in Hirschberg) limits the
 * long kernel to a diagonal band when that is well under the matrix; values outside are
 * virtual upper bounds, so the cost and every optimal path inside are exact.
 *
 * Memory: the batch runner takes one arena of min(budget, 1 GB, what the jobs need) and fills
 * it chunk by chunk; a long pair needs its codes (and reversed codes for paths) and O(lb)
 * edges. A budget too small for one unit is RK_ERES with a message. */
#include <stdlib.h>
#include <string.h>
#include "gpu/rgpu_rt.h"
#include "gpu/dpg_gpu.h"
#include "gpu/dpg_kern.h"
#include "gpu/dpg_host.h"

extern "C" {
rgpu_dp_tune_t rgpu_dp_tune;
}
static_assert((int)RGPU_DP_LEV == (int)DPG_LEV && (int)RGPU_DP_LCS == (int)DPG_LCS, "one mode numbering");

#define D_BATCH_MAX_LA 4096
#define D_COL_CUT_ROWS 65536   /* Hirschberg: sub-problems cut at a column have this many rows or more */
#define D_BAND_FRAC 0.75       /* a band pays when it holds at most this fraction of the matrix */
#define D_BAND_CUT_FRAC 0.5    /* ... and beats a Hirschberg column cut at most this fraction */
#define D_LONG_CELLS (1ll << 28)
#define D_PATH_CELLS (1ll << 24)
#define D_LEAF_ROWS 1024
#define D_LEAF_BYTES (1ll << 20)
#define D_RING 16
#define D_CWW 16
#define D_CHUNK_PAIRS (1ll << 20)
#define D_ALIGN 256
#define D_ARENA_MAX (1ull << 30)   /* batch arenas: chunks of at most 1 GB keep a long path's peak low */
#define D_MAX_LEN (1ll << 30)   /* lengths the kernels' int columns and counters take */

static inline int64_t tune_or(int64_t v, int64_t d) { return v > 0 ? v : d; }
static inline int64_t imin(int64_t a, int64_t b) { return a < b ? a : b; }
static inline int64_t imax(int64_t a, int64_t b) { return a > b ? a : b; }
static inline int64_t up(int64_t x, int64_t a) { return (x + a - 1) / a * a; }

typedef struct {
	rgpu_rt_t rt;
	int mode, nsm, threads, live;
	uint64_t used, peak;
	rgpu_stats_t *sp;
} dctx_t;

typedef struct {
	void *p;
	uint64_t n;
} dbuf_t;

static int ew_bytes(int mode) { return mode == DPG_LEV ? 8 : 4; }
static int planes(int mode) { return mode == DPG_LEV ? 4 : 1; }

static rk_status_t ctx_init(dctx_t *X, int mode, const rgpu_opt_t *g, rgpu_stats_t *sp)
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

static void ctx_free(dctx_t *X)
{
	if (X->live) rgpu_rt_free(&X->rt);
	X->live = 0;
}

static rk_status_t dalloc(dctx_t *X, dbuf_t *b, uint64_t bytes, const char *what)
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

static void dfree(dctx_t *X, dbuf_t *b)
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
enum { CODES_FWD = 1, CODES_REV = 2, CODES_BOTH = 3 };
static rk_status_t codes_up(dctx_t *X, const uint8_t map[256], const char *a, int64_t la, const char *b, int64_t lb, int dir,
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

/* ---- timed launches ---- */
typedef struct { int mode, cls; const dpg_batch_t *p; } batch_arg_t;
static cudaError_t batch_fn(const void *a, cudaStream_t st)
{
	const batch_arg_t *x = (const batch_arg_t *)a;
	return dpg_batch_launch(x->mode, x->cls, x->p, st);
}
typedef struct { int mode; const dpg_batch_t *p; } trace_arg_t;
static cudaError_t trace_fn(const void *a, cudaStream_t st)
{
	const trace_arg_t *x = (const trace_arg_t *)a;
	return dpg_trace_launch(x->mode, x->p, st);
}
typedef struct { int mode; const dpg_long_t *p; } long_arg_t;
static cudaError_t long_fn(const void *a, cudaStream_t st)
{
	const long_arg_t *x = (const long_arg_t *)a;
	dpg_long_t p = *x->p;
	for (;;) {
		const cudaError_t e = dpg_long_launch(x->mode, &p, st);
		if (e != cudaErrorCooperativeLaunchTooLarge || p.G <= 1) return e;
		/* fewer SMs than the occupancy said (MPS, another context): fewer warps give the same
		 * result, and the rings and counters allocated for G serve any smaller grid */
		cudaGetLastError();
		p.G = (p.G + 1) / 2;
	}
}

/* ------------------------------------------------------------------------------------------ */
/* the batch runner */

typedef struct {
	int64_t la, lb;
	int64_t a, b;        /* resident codes: offsets of A's and B's codes */
	int64_t src;         /* packed codes: index of the pair in the source array */
	int nc, cls;
	aln_path_t *dst;     /* trace and append the path here, or NULL */
	void *edge;          /* copy the bottom edge here (host), or NULL */
	int64_t *val;        /* the value (lev D, lcs L) here, or NULL */
} bjob_t;

typedef struct {
	const aln_pair_t *p;     /* pairs whose codes are packed per chunk, or NULL ... */
	const uint8_t *dcodes;   /* ... codes already on the device (offsets in the jobs) */
} bsrc_t;

static int nc_class(int nc) { return nc <= 8 ? 0 : nc <= 64 ? 1 : 2; }

static uint64_t job_bytes(int mode, const bjob_t *j, int resident)
{
	const uint64_t nw = (uint64_t)(j->la + 31) / 32, nwb = (uint64_t)(j->lb + 31) / 32;
	uint64_t b = sizeof(dpg_pair_t) + 8 + 4;
	if (!resident) b += (uint64_t)(j->la + j->lb);
	if (j->dst) b += (uint64_t)j->lb * nw * planes(mode) * 4 + (uint64_t)(j->la + j->lb);
	if (j->edge) b += nwb * ew_bytes(mode);
	return b;
}

static int cmp_job(const void *x, const void *y)
{
	const bjob_t *a = (const bjob_t *)x, *b = (const bjob_t *)y;
	if (a->cls != b->cls) return a->cls < b->cls ? -1 : 1;
	if (nc_class(a->nc) != nc_class(b->nc)) return nc_class(a->nc) < nc_class(b->nc) ? -1 : 1;
	if (a->lb != b->lb) return a->lb < b->lb ? -1 : 1;
	if (a->la != b->la) return a->la < b->la ? -1 : 1;
	return a->src < b->src ? -1 : a->src > b->src;
}

/* Runs jobs[0, m) (sorted by cmp_job) in chunks of consecutive jobs of one class. */
static rk_status_t run_batch(dctx_t *X, bjob_t *jobs, int64_t m, const bsrc_t *src, const char *what)
{
	if (m <= 0) return RK_OK;
	const int mode = X->mode, PL = planes(mode), EWB = ew_bytes(mode), resident = !src->p;
	const int64_t cap_pairs = tune_or(rgpu_dp_tune.chunk_pairs, D_CHUNK_PAIRS);
	const uint64_t slack = 8 * D_ALIGN;
	uint64_t total = slack, maxjob = 0;
	for (int64_t i = 0; i < m; i++) {
		const uint64_t b = job_bytes(mode, &jobs[i], resident);
		total += b;
		if (b > maxjob) maxjob = b;
	}
	const uint64_t avail = X->rt.budget > X->used ? X->rt.budget - X->used : 0;
	if (maxjob + slack > avail) {
		rk_set_error("device memory limit of %.3f MB is too small for %s (a %lld x %lld pair needs %.3f MB); raise --device-memory or use --backend cpu",
		             X->rt.budget / 1e6, what, (long long)jobs[0].la, (long long)jobs[0].lb, (maxjob + slack) / 1e6);
		for (int64_t i = 0; i < m; i++)
			if (job_bytes(mode, &jobs[i], resident) == maxjob) {
				rk_set_error("device memory limit of %.3f MB is too small for %s (a %lld x %lld pair needs %.3f MB); raise --device-memory or use --backend cpu",
				             X->rt.budget / 1e6, what, (long long)jobs[i].la, (long long)jobs[i].lb, (maxjob + slack) / 1e6);
				break;
			}
		return RK_ERES;
	}
	uint64_t cap = total < avail ? total : avail;
	if (cap > D_ARENA_MAX && maxjob + slack <= D_ARENA_MAX) cap = D_ARENA_MAX;
	dbuf_t arena = { 0, 0 };
	rk_status_t st = dalloc(X, &arena, cap, what);
	if (st) return st;
	dpg_pair_t *hd = 0;
	int64_t *hval = 0, *hopsoff = 0;
	int32_t *hnops = 0;
	int64_t *hpidx = 0, *hcoff = 0;
	uint8_t *hcodes = 0, *hops = 0, *hedge = 0;
	aln_path_t **hdst = 0;
	rk_progress_t prog;
	const int show = !resident && m >= (1 << 16);
	if (show) rk_progress_start(&prog, mode == DPG_LEV ? "lev: GPU pairs" : "lcs: GPU pairs", (double)m);
	for (int64_t s = 0; s < m && !st;) {
		/* the chunk [s, e): one class, within the arena */
		int64_t e = s, ncode = 0, ncs = 0, nops = 0, nedge = 0;
		uint64_t used = slack;
		int ncmax = resident ? jobs[s].nc : 1;
		int any_path = 0;
		while (e < m && e - s < cap_pairs && jobs[e].cls == jobs[s].cls && nc_class(jobs[e].nc) == nc_class(jobs[s].nc)) {
			const uint64_t b = job_bytes(mode, &jobs[e], resident);
			if (used + b > cap) break;
			used += b;
			if (jobs[e].nc > ncmax) ncmax = jobs[e].nc;
			e++;
		}
		const int64_t n = e - s;   /* >= 1: every job fits the arena alone */
		hd = (dpg_pair_t *)malloc(sizeof *hd * (size_t)n);
		hval = (int64_t *)malloc(sizeof *hval * (size_t)n);
		hnops = (int32_t *)malloc(sizeof *hnops * (size_t)n);
		hopsoff = (int64_t *)malloc(sizeof *hopsoff * (size_t)n);
		hdst = (aln_path_t **)calloc((size_t)n, sizeof *hdst);
		if (!resident) {
			hpidx = (int64_t *)malloc(sizeof *hpidx * (size_t)n);
			hcoff = (int64_t *)malloc(sizeof *hcoff * (size_t)n);
		}
		if (!hd || !hval || !hnops || !hopsoff || !hdst || (!resident && (!hpidx || !hcoff))) {
			st = RK_ERES;
			rk_set_error("out of memory for a batch of %lld pairs", (long long)n);
			break;
		}
		for (int64_t i = 0; i < n; i++) {
			const bjob_t *j = &jobs[s + i];
			dpg_pair_t *d = &hd[i];
			d->la = (int32_t)j->la;
			d->lb = (int32_t)j->lb;
			if (resident) {
				d->a = j->a;
				d->b = j->b;
			} else {
				d->a = ncode;
				d->b = ncode + j->la;
				hpidx[i] = j->src;
				hcoff[i] = ncode;
				ncode += j->la + j->lb;
			}
			d->cs = d->ops = d->bot = -1;
			hopsoff[i] = 0;
			if (j->dst) {
				d->cs = ncs;
				ncs += j->lb * ((j->la + 31) / 32) * PL;
				d->ops = hopsoff[i] = nops;
				nops += j->la + j->lb;
				hdst[i] = j->dst;
				any_path = 1;
			}
			if (j->edge) {
				d->bot = nedge;
				nedge += (j->lb + 31) / 32;
			}
		}
		/* the arena: pairs | values | op counts | codes | column stores | ops | edges */
		char *base = (char *)arena.p;
		int64_t off = 0;
		dpg_pair_t *dd = (dpg_pair_t *)(base + off); off = up(off + (int64_t)sizeof *hd * n, D_ALIGN);
		int64_t *dval = (int64_t *)(base + off); off = up(off + 8 * n, D_ALIGN);
		int32_t *dnops = (int32_t *)(base + off); off = up(off + 4 * n, D_ALIGN);
		uint8_t *dcodes = (uint8_t *)(base + off); off = up(off + ncode, D_ALIGN);
		uint32_t *dcs = (uint32_t *)(base + off); off = up(off + 4 * ncs, D_ALIGN);
		uint8_t *dops = (uint8_t *)(base + off); off = up(off + nops, D_ALIGN);
		void *dedge = base + off; off = up(off + (int64_t)EWB * nedge, D_ALIGN);
		if ((uint64_t)off > cap) {   /* cannot happen: slack covers the alignment */
			st = RK_ERES;
			rk_set_error("internal error: batch arena overflow");
			break;
		}
		if (!resident) {
			hcodes = (uint8_t *)malloc((size_t)(ncode ? ncode : 1));
			if (!hcodes) { st = RK_ERES; rk_set_error("out of memory packing %lld pairs", (long long)n); break; }
			dpg_pack_many(src->p, hpidx, n, hcoff, hcodes, 0, X->threads);
			CUDA_CHECK_GOTO(cudaMemcpyAsync(dcodes, hcodes, (size_t)ncode, cudaMemcpyHostToDevice, X->rt.st), done);
		}
		CUDA_CHECK_GOTO(cudaMemcpyAsync(dd, hd, sizeof *hd * (size_t)n, cudaMemcpyHostToDevice, X->rt.st), done);
		if (nops) {
			/* a path is shorter than its la + lb slots, and pairs without a path write no op
			 * count: the copies back read whole ranges, so none of it may be left unwritten */
			CUDA_CHECK_GOTO(cudaMemsetAsync(dops, 0, (size_t)nops, X->rt.st), done);
			CUDA_CHECK_GOTO(cudaMemsetAsync(dnops, 0, 4 * (size_t)n, X->rt.st), done);
		}
		{
			dpg_batch_t bp;
			bp.pairs = dd;
			bp.n = n;
			bp.codes = resident ? src->dcodes : dcodes;
			bp.nc = ncmax;
			bp.val = dval;
			bp.cs = ncs ? dcs : 0;
			bp.bot = nedge ? dedge : 0;
			bp.ops = nops ? dops : 0;
			bp.nops = dnops;
			batch_arg_t ba = { mode, jobs[s].cls, &bp };
			if ((st = rgpu_rt_timed(&X->rt, batch_fn, &ba)) != RK_OK) break;
			if (any_path) {
				trace_arg_t ta = { mode, &bp };
				if ((st = rgpu_rt_timed(&X->rt, trace_fn, &ta)) != RK_OK) break;
			}
		}
		CUDA_CHECK_GOTO(cudaMemcpyAsync(hval, dval, 8 * (size_t)n, cudaMemcpyDeviceToHost, X->rt.st), done);
		if (nedge) {
			hedge = (uint8_t *)malloc((size_t)(EWB * nedge));
			if (!hedge) { st = RK_ERES; rk_set_error("out of memory for the rows of a batch"); break; }
			CUDA_CHECK_GOTO(cudaMemcpyAsync(hedge, dedge, (size_t)(EWB * nedge), cudaMemcpyDeviceToHost, X->rt.st), done);
		}
		if (nops) {
			hops = (uint8_t *)malloc((size_t)nops);
			if (!hops) { st = RK_ERES; rk_set_error("out of memory for the paths of a batch"); break; }
			CUDA_CHECK_GOTO(cudaMemcpyAsync(hnops, dnops, 4 * (size_t)n, cudaMemcpyDeviceToHost, X->rt.st), done);
			CUDA_CHECK_GOTO(cudaMemcpyAsync(hops, dops, (size_t)nops, cudaMemcpyDeviceToHost, X->rt.st), done);
		}
		CUDA_CHECK_GOTO(cudaStreamSynchronize(X->rt.st), done);
		for (int64_t i = 0; i < n; i++) {
			const bjob_t *j = &jobs[s + i];
			if (j->val) *j->val = hval[i];
			if (j->edge) memcpy(j->edge, hedge + (size_t)EWB * hd[i].bot, (size_t)(EWB * ((j->lb + 31) / 32)));
			if (!j->dst) hnops[i] = 0;
		}
		if (nops && (st = dpg_ops_path_many(hops, hopsoff, hnops, hdst, n, X->threads)) != RK_OK) break;
		if (X->sp) X->sp->n_ichunk++;
		free(hd); free(hval); free(hnops); free(hopsoff); free(hdst); free(hpidx); free(hcoff); free(hcodes); free(hops); free(hedge);
		hd = 0; hval = 0; hnops = 0; hopsoff = 0; hdst = 0; hpidx = 0; hcoff = 0; hcodes = 0; hops = 0; hedge = 0;
		s = e;
		if (show) rk_progress(&prog, (double)s);
	}
done:
	if (show) rk_progress_end(&prog);
	free(hd); free(hval); free(hnops); free(hopsoff); free(hdst); free(hpidx); free(hcoff); free(hcodes); free(hops); free(hedge);
	dfree(X, &arena);
	return st;
}

/* warps of the long kernel resident at once on the whole device, for nc codes and rw words per
 * lane (*G = 0: it does not fit) */
static rk_status_t long_warps(const dctx_t *X, int nc, int rw, int64_t *G)
{
	int bps = 0;
	CUDA_CHECK(dpg_long_occupancy(X->mode, rw, nc, &bps));
	*G = (int64_t)bps * X->nsm * dpg_long_warps(nc, rw);
	return RK_OK;
}

/* ------------------------------------------------------------------------------------------ */
/* the long kernel: passes ps[0, np) (first set here) over the device codes; res (np entries,
 * or NULL): each pass's last strip: its columns [c0, c1] and values at c0 and at c1 (lev D,
 * lcs L), from the strips' bottom-row sums and their corners (dpg_kern.h) */
typedef struct {
	int64_t c0, c1, v0, total;
} pres_t;

static rk_status_t long_run(dctx_t *X, const uint8_t *dcodes, dpg_pass_t *ps, int64_t np, int nc, pres_t *res)
{
	const int mode = X->mode;
	int64_t rows = 0, maxlb = 0;
	for (int64_t i = 0; i < np; i++) {
		rows += ps[i].la;
		maxlb = imax(maxlb, ps[i].lb);
	}
	int banded = 1;
	int64_t conc = 0, minla = INT64_MAX;   /* rows at work at once: a pass's rows, or its band's width when narrower */
	for (int64_t i = 0; i < np; i++) {
		if (ps[i].dhi - ps[i].dlo >= ps[i].lb / 2) banded = 0;
		conc += imin(ps[i].la, ps[i].dhi - ps[i].dlo);
		minla = imin(minla, ps[i].la);
	}
	int coop = 0;
	CUDA_CHECK(cudaDeviceGetAttribute(&coop, cudaDevAttrCooperativeLaunch, X->rt.device));
	if (!coop) {
		rk_set_error("device %d cannot run cooperative kernels (the long-pair kernel needs them); use --backend cpu", X->rt.device);
		return RK_ERES;
	}
	/* words per lane: strips and resident warps of each choice */
	int64_t ns_of[5] = { 0 }, G_of[5] = { 0 };
	for (int c = 1; c <= 4; c *= 2) {
		rk_status_t st = long_warps(X, nc, c, &G_of[c]);
		if (st) return st;
		for (int64_t i = 0; i < np; i++) ns_of[c] += (ps[i].la + 1024ll * c - 1) / (1024ll * c);
	}
	int rw = rgpu_dp_tune.long_rw;
	int64_t Gcap = INT64_MAX;   /* fewer warps than the grid holds (below) */
	if (rw != 1 && rw != 2 && rw != 4) {
		/* Fewest rounds of strips over the resident warps first: a second round runs on what is
		 * left over, for a whole strip's time. Then more words per lane (fewer shuffles per cell,
		 * a longer chain per step) when its strips give every SM 4 warps or more (H100, lev 4 Mb:
		 * 977 strips of 4 words 0.87 s, 1,954 of 2 words 0.99 s; 1 Mb: 1 word 0.120 s, 2 words
		 * 0.125 s); never for narrow bands, where the wavefront's latency is the time. */
		int64_t best = INT64_MAX;
		for (int c = 1; c <= 4; c *= 2)
			if (G_of[c] > 0) best = imin(best, (ns_of[c] + G_of[c] - 1) / G_of[c]);
		rw = 0;
		if (!banded)
			for (int c = 4; c >= 2 && !rw; c /= 2)
				if (G_of[c] > 0 && (ns_of[c] + G_of[c] - 1) / G_of[c] == best && ns_of[c] >= 4ll * X->nsm * best) rw = c;
		for (int c = 1; c <= 4 && !rw; c *= 2)
			if (G_of[c] > 0 && (banded || (ns_of[c] + G_of[c] - 1) / G_of[c] == best)) rw = c;
		/* Fewer words per lane when the choice leaves a quarter of the resident warps idle and
		 * fewer would not. A band's strips start one after another (each a strip's height of
		 * columns after the one above), so only those within a band's width of rows work at once
		 * (H100, 10 Mb in a band of half its length: lev 2 words 2.43 s, 4 words 2.56 s; its half,
		 * as a rank of two runs it, 1.35 and 1.52 s; a 5 Mb path, whose levels are two banded
		 * passes of half the rows, 1.87 -> 1.68 s). Passes of a million rows or more: below, the
		 * levels of a 10 Mb path lost 3% to it. */
		if (!banded && minla >= (1ll << 20))
			for (int c = rw / 2; c >= 2 && conc / (1024ll * rw) < 3 * G_of[rw] / 4; c /= 2)
				if (G_of[c] > 0 && conc / (1024ll * c) >= 3 * G_of[c] / 4) rw = c;
		if (!rw) rw = 1;
		/* Fewer warps than the strips at work, 4 words per lane, the same number on every SM.
		 * With a warp for every strip at work, each strip runs right behind the one above it
		 * (two blocks of lag), so every hiccup of one stalls all below it, and the strips at
		 * work, a run of consecutive warps, crowd some SMs more than others. With fewer warps,
		 * a strip waits for its warp's previous one and then runs on a backlog of the ring:
		 * more steps, each cheaper. H100, 10 Mb random pairs (kernel; 528 = a block of 4 warps
		 * on each of 132 SMs): lev, 1,265 strips at work, 2 words on 2,640 warps 2.44 s, 4 words
		 * on 528 / 1,056 / 1,584 / 2,112 warps 2.49 / 1.74 / 2.27 / 2.61 s; lcs, 1,696 at work,
		 * 1.24 s, 4 words on 1,056 / 1,584 / 2,112: 1.24 / 1.03 / 1.30 s; lev 4 Mb (505 at work)
		 * 0.574 -> 0.478 s on 528. A lcs step is short: on 4 warps an SM it waits on its
		 * latency (lcs 10 Mb on 528 warps: 76 ns a step, on 1,056: 93), so lcs keeps 8. One
		 * pass only: the passes of a launch (a meeting, Hirschberg's levels) were chosen to fit
		 * the warps in one round (lev 2 Mb, meeting: 0.149 -> 0.212 s with fewer). */
		if (np == 1 && !banded && minla >= (1ll << 20) && rgpu_dp_tune.fewer_warps >= 0 && G_of[4] > 0) {
			const int64_t B = (int64_t)X->nsm * dpg_long_warps(nc, 4), w4 = conc / 4096, k = (w4 + B / 8) / B;
			const int64_t cap = G_of[4] >= B ? imin(k, G_of[4] / B) * B : 0;
			if (k >= (mode == DPG_LEV ? 1 : 2) && cap > 0 && cap < ns_of[4]) {   /* else a warp a strip anyway */
				rw = 4;
				Gcap = cap;
				if (X->sp) X->sp->n_fewer++;
			}
		}
	}
	const int64_t SR = 1024ll * rw;
	const int64_t ns = ns_of[rw];
	for (int64_t i = 0, f = 0; i < np; i++) {
		ps[i].first = f;
		f += (ps[i].la + SR - 1) / SR;
	}
	int64_t G = G_of[rw];
	if (G < 1) {
		rk_set_error("the long-pair kernel does not fit on device %d (%d symbols)", X->rt.device, nc);
		return RK_ERES;
	}
	G = imin(imin(G, ns), Gcap);
	if (rgpu_dp_tune.max_warps > 0) G = imin(G, rgpu_dp_tune.max_warps);
	/* chunk of the rings: a strip waits for each word it needs (its slot's number), so the chunk
	 * only sets how often the reader says which slots are free; large chunks (H100, lcs 1 Mb:
	 * 2 words 0.0526 s, 16 words 0.0515 s); rings of at least 128 words */
	const int cww = rgpu_dp_tune.chunk_words > 0 ? (int)rgpu_dp_tune.chunk_words : D_CWW;
	const int ring = (int)imax(2, tune_or(rgpu_dp_tune.ring, imax(D_RING, 128 / cww)));
	int32_t *hsp = (int32_t *)malloc(sizeof(int32_t) * (size_t)ns);
	long long *hpart = (long long *)malloc(sizeof(long long) * (size_t)ns);
	if (!hsp || !hpart) {
		free(hsp);
		free(hpart);
		rk_set_error("out of memory for %lld strips", (long long)ns);
		return RK_ERES;
	}
	for (int64_t i = 0; i < np; i++)
		for (int64_t s = ps[i].first; s < ps[i].first + (ps[i].la + SR - 1) / SR; s++) hsp[s] = (int32_t)i;
	dbuf_t dps = { 0, 0 }, dsp = { 0, 0 }, drings = { 0, 0 }, dwrap = { 0, 0 }, dcnt = { 0, 0 }, dpart = { 0, 0 };
	rk_status_t st = RK_OK;
	const uint64_t cnt_bytes = (uint64_t)G * DPG_CNT_STRIDE * 8, SB = (uint64_t)dpg_slot_bytes(mode);
	const uint64_t ring_bytes = (uint64_t)(G - 1) * ring * cww * SB, wrap_bytes = (uint64_t)((maxlb + 31) / 32 + 1) * SB;
	if ((st = dalloc(X, &dps, sizeof(dpg_pass_t) * (uint64_t)np, "the passes of a long pair")) ||
	    (st = dalloc(X, &dsp, 4 * (uint64_t)ns, "the strips of a long pair")) ||
	    (st = dalloc(X, &dpart, 8 * (uint64_t)ns, "the strips of a long pair")) ||
	    (st = dalloc(X, &drings, ring_bytes, "the rings between warps")) ||
	    (st = dalloc(X, &dwrap, wrap_bytes, "the wrap-around row")) ||
	    (st = dalloc(X, &dcnt, cnt_bytes, "the pipeline counters")))
		goto done;
	CUDA_CHECK_GOTO(cudaMemsetAsync(dcnt.p, 0, cnt_bytes, X->rt.st), done);
	if (ring_bytes) CUDA_CHECK_GOTO(cudaMemsetAsync(drings.p, 0, ring_bytes, X->rt.st), done);
	CUDA_CHECK_GOTO(cudaMemsetAsync(dwrap.p, 0, wrap_bytes, X->rt.st), done);
	CUDA_CHECK_GOTO(cudaMemcpyAsync(dps.p, ps, sizeof(dpg_pass_t) * (size_t)np, cudaMemcpyHostToDevice, X->rt.st), done);
	CUDA_CHECK_GOTO(cudaMemcpyAsync(dsp.p, hsp, 4 * (size_t)ns, cudaMemcpyHostToDevice, X->rt.st), done);
	{
		dpg_long_t lp;
		lp.pass = (const dpg_pass_t *)dps.p;
		lp.strip_pass = (const int32_t *)dsp.p;
		lp.ns = ns;
		lp.codes = dcodes;
		lp.nc = nc;
		lp.rw = rw;
		lp.G = (int)G;
		lp.ring = ring;
		lp.cww = cww;
		lp.rings = (unsigned long long *)drings.p;
		lp.wrap = (unsigned long long *)dwrap.p;
		lp.cnt = (unsigned long long *)dcnt.p;
		lp.part = (long long *)dpart.p;
		long_arg_t la = { mode, &lp };
		const double tk = X->rt.stats ? X->rt.stats->kernel_s : 0;
		if ((st = rgpu_rt_timed(&X->rt, long_fn, &la)) != RK_OK) goto done;
		if (X->sp) X->sp->n_jchunk++;
		rk_debug("gpu long kernel: %lld pass(es), %lld strips of %d word(s) a lane on %lld warps, %lld rows at work at once, %.4f s",
		         (long long)np, (long long)ns, rw, (long long)G, (long long)conc, X->rt.stats ? X->rt.stats->kernel_s - tk : 0.0);
	}
	if (res) {
		CUDA_CHECK_GOTO(cudaMemcpyAsync(hpart, dpart.p, 8 * (size_t)ns, cudaMemcpyDeviceToHost, X->rt.st), done);
		CUDA_CHECK_GOTO(cudaStreamSynchronize(X->rt.st), done);
		for (int64_t i = 0; i < np; i++) {
			/* corners: the top-left one of the first strip is 0; down a strip's left edge lev
			 * adds a row each (boundary or virtual), lcs nothing; along its bottom row to the
			 * strip below's first column, its part */
			const dpg_pass_t *q = &ps[i];
			const int64_t n = (q->la + SR - 1) / SR;
			int64_t v = 0;
			for (int64_t x = 0; x < n; x++) {
				const int64_t r0 = x * SR, r1 = imin(q->la, r0 + SR);
				const int64_t bl = v + (mode == DPG_LEV ? r1 - r0 : 0);
				if (x == n - 1) {
					res[i].c0 = dpg_clo(r0, q->dlo, q->lb);
					res[i].c1 = dpg_chi(r1, q->dhi, q->lb);
					res[i].v0 = bl;
					res[i].total = bl + hpart[q->first + x];
				} else {
					v = bl + hpart[q->first + x];
				}
			}
		}
	}
done:
	free(hsp);
	free(hpart);
	dfree(X, &dps);
	dfree(X, &dsp);
	dfree(X, &dpart);
	dfree(X, &drings);
	dfree(X, &dwrap);
	dfree(X, &dcnt);
	return st;
}

/* Bands (dpg_kern.h). A pass over the top rows of a problem of la x lb (or of the problem
 * reversed: the band is symmetric) that only needs the paths of cost <= k: |j - i| + |(lb - j)
 * - (la - i)| <= k, i.e. j - i within min(0, d) - h .. max(0, d) + h with d = lb - la and
 * h = (k - |d|) / 2 (k >= |d|); the full band is every cell. */
static void band_full(dpg_pass_t *p)
{
	p->dlo = -p->la;
	p->dhi = p->lb;
}
/* a pass over the whole of a pair whose codes are A at 0 and B at la, every cell, no edges */
static void pass_whole(dpg_pass_t *p, int64_t la, int64_t lb)
{
	memset(p, 0, sizeof *p);
	p->b = la;
	p->la = la;
	p->lb = lb;
	band_full(p);
}
static void band_k(dpg_pass_t *p, int64_t k, int64_t la, int64_t lb)
{
	const int64_t d = lb - la, h = (k - (d < 0 ? -d : d)) / 2;
	p->dlo = imin(0, d) - h;
	p->dhi = imax(0, d) + h;
}
/* The band of cost k pays when it is well under the matrix (or the tests say so). A wide band
 * leaves SMs part idle (its strips start one after another, each a strip's height of columns
 * later), so it must cut the cells by more than that: at most D_BAND_FRAC of them (a random
 * 10 Mb lev pair: 45%, lcs 57%). */
static double band_frac(int64_t k, int64_t la, int64_t lb)
{
	dpg_pass_t p;
	band_k(&p, k, la, lb);
	double cells = 0;   /* the band's cells, from 256 rows */
	for (int q = 0; q < 256; q++) {
		const int64_t i = (int64_t)((q + 0.5) * (double)la / 256);
		cells += (double)imax(0, imin(lb, i + p.dhi) - imax(0, i + p.dlo));
	}
	return cells / 256 / (double)lb;
}
static int band_pays(int64_t k, int64_t la, int64_t lb)
{
	if (rgpu_dp_tune.band < 0 || k < 0) return 0;
	if (rgpu_dp_tune.band > 0) return 1;
	if ((double)la * (double)lb < (double)(1ll << 24)) return 0;
	return band_frac(k, la, lb) <= D_BAND_FRAC;
}
/* Hirschberg: a sub-problem whose column cut fills the resident warps is cut so, every cell,
 * unless its band holds at most half of them (H200, a 5M x 5M piece: lev, band 45%: band 1.87 s,
 * column cut 2.52 s; lcs, band 57%: 1.46-1.56 s against 1.33 s) */
static int band_beats_cut(int64_t k, int64_t la, int64_t lb)
{
	return band_pays(k, la, lb) && (rgpu_dp_tune.band > 0 || band_frac(k, la, lb) <= D_BAND_CUT_FRAC);
}

/* a cost (lev D, lcs la + lb - 2 L) from a pass value */
static int64_t to_cost(int mode, int64_t v, int64_t rows, int64_t cols)
{
	return mode == DPG_LEV ? v : rows + cols - 2 * v;
}

/* An upper bound of the cost of the pair on the device codes (A at 0, B at la), or -1 when a
 * bound would not pay (pairs under 2^32 cells): the sum of the costs of K diagonal pieces,
 * piece q being A[q la / K, (q + 1) la / K) against B[q lb / K, (q + 1) lb / K), each in a band
 * of half-width band_w about its corner diagonals. The pieces' alignments, end to end, align
 * the pair, so the sum bounds its cost. They run at once, so the pass is about a piece's rows of
 * wavefront steps; one band over the whole pair took la steps (0.3 s for 10 Mb), so it only ran
 * when a prefix looked similar, and an unrelated pair got no band at all. Yet random DNA
 * pairs cost about half their length, and the band of that cost is under half of the matrix:
 * 30 kb random, band 128 either side, on the CPU: 4 pieces 0.5196 n, one band 0.5185 n,
 * the true cost 0.5171 n. *exact: one piece whose band covered the matrix. */
static rk_status_t long_bound(dctx_t *X, const uint8_t *dc, int nc, int64_t la, int64_t lb, int64_t *ub, int *exact)
{
	*ub = -1;
	*exact = 0;
	if (rgpu_dp_tune.band < 0 || (rgpu_dp_tune.band == 0 && (double)la * (double)lb < 4294967296.0)) return RK_OK;
	const int64_t w = tune_or(rgpu_dp_tune.band_w, 256), P = tune_or(rgpu_dp_tune.probe_rows, 1 << 14);
	const int64_t K = imax(1, la / P);
	dpg_pass_t *ps = (dpg_pass_t *)calloc((size_t)K, sizeof *ps);
	pres_t *res = (pres_t *)calloc((size_t)K, sizeof *res);
	int64_t np = 0, sum = 0;
	rk_status_t st = RK_OK;
	if (!ps || !res) { st = RK_ERES; rk_set_error("out of memory for %lld pieces", (long long)K); goto done; }
	for (int64_t q = 0; q < K; q++) {
		const int64_t a0 = q * la / K, a1 = (q + 1) * la / K, b0 = q * lb / K, b1 = (q + 1) * lb / K;
		if (a1 == a0 || b1 == b0) { sum += (a1 - a0) + (b1 - b0); continue; }   /* all gaps, either mode */
		dpg_pass_t *p = &ps[np++];
		const int64_t d = (b1 - b0) - (a1 - a0);
		p->a = a0;
		p->b = la + b0;
		p->la = a1 - a0;
		p->lb = b1 - b0;
		p->dlo = imin(0, d) - w;
		p->dhi = imax(0, d) + w;
	}
	if (np && (st = long_run(X, dc, ps, np, nc, res))) goto done;
	for (int64_t q = 0; q < np; q++) sum += to_cost(X->mode, res[q].total, ps[q].la, ps[q].lb);
	*ub = sum;
	*exact = K == 1 && np == 1 && ps[0].dlo <= -la && ps[0].dhi >= lb;
done:
	free(ps);
	free(res);
	return st;
}

/* Meet in the middle when one pass leaves most resident warps idle: a pass over every row
 * takes about lb wavefront steps whatever its rows, and at a few thousand rows its strips fill
 * a fraction of the device (40 kb: 40 strips of 1024 rows, against thousands of resident warps),
 * so the step's latency is the time. The forward pass over B's columns [0, c) and the reverse
 * pass over [c, lb) run at once in one launch, each lb / 2 steps, and the value is the best
 * sum over the rows of column c of their right edges (dpg_col_cross): every path crosses it.
 * Only when every strip of both passes has a resident warp of its own, at one or two words per
 * lane: a warp runs its strips in order, so a second round would start the reverse pass's
 * strips after the forward pass's (H100, lev 10 Mb 1%-divergent, banded: one pass 0.57 s,
 * meeting in rounds 1.01 s). At two words per lane a step is longer, yet half the steps still
 * pay (H100, 1 Mb random, one pass against meeting at two words: lev 0.061 -> 0.053 s, lcs
 * 0.049 -> 0.032 s). */
static rk_status_t meet_pays(dctx_t *X, int nc, const dpg_pass_t *p, int *pays)
{
	*pays = 0;
	if (rgpu_dp_tune.meet < 0 || p->lb < 2) return RK_OK;
	if (rgpu_dp_tune.meet > 0) { *pays = 1; return RK_OK; }
	for (int rw = 1; rw <= 2 && !*pays; rw *= 2) {
		int64_t G = 0;
		const int64_t SR = 1024ll * rw;
		rk_status_t st = long_warps(X, nc, rw, &G);
		if (st) return st;
		*pays = 2 * ((p->la + SR - 1) / SR) <= G;
	}
	return RK_OK;
}

/* the two meeting passes of pass p (its band and sizes) on codes at off: A, B, A reversed, B
 * reversed (codes_up's CODES_BOTH, dpg_pack_many's rev), the forward one over B's columns
 * [0, lb / 2), the reverse one over the rest; right edges at right and right + nw (the band
 * is symmetric: the reverse pass has the same) */
static void meet_passes(const dpg_pass_t *p, int64_t off, uint32_t *right, int64_t nw, dpg_pass_t ps[2])
{
	const int64_t la = p->la, lb = p->lb, c = lb / 2;
	for (int r = 0; r < 2; r++) {
		ps[r] = *p;
		ps[r].a = off + (r ? la + lb : 0);
		ps[r].b = off + (r ? 2 * la + lb : la);
		ps[r].lb = r ? lb - c : c;
		ps[r].right = right + r * nw;
	}
}

/* the value of pass p (A at dc + 0, B at dc + la; the reversed codes after them) by the meeting
 * at column lb / 2: the best cost over the column (lev D, lcs the indel cost; within the band
 * exact, never below the true cost) */
static rk_status_t meet_value(dctx_t *X, const uint8_t *dc, int nc, const dpg_pass_t *p, int64_t *cost)
{
	const int64_t la = p->la, lb = p->lb, c = lb / 2, nw = (X->mode == DPG_LEV ? 2 : 1) * ((la + 31) / 32);
	dbuf_t dr = { 0, 0 };
	uint32_t *hr = (uint32_t *)malloc(sizeof(uint32_t) * (size_t)(2 * nw));
	rk_status_t st = RK_OK;
	int64_t at = 0, cf = 0;
	if (!hr) { rk_set_error("out of memory for the meeting of a %lld x %lld pair", (long long)la, (long long)lb); return RK_ERES; }
	if ((st = dalloc(X, &dr, sizeof(uint32_t) * (uint64_t)(2 * nw), "the meeting column of a long pair"))) goto done;
	{
		dpg_pass_t ps[2];
		meet_passes(p, 0, (uint32_t *)dr.p, nw, ps);
		if ((st = long_run(X, dc, ps, 2, nc, 0))) goto done;
	}
	CUDA_CHECK_GOTO(cudaMemcpyAsync(hr, dr.p, sizeof(uint32_t) * (size_t)(2 * nw), cudaMemcpyDeviceToHost, X->rt.st), done);
	CUDA_CHECK_GOTO(cudaStreamSynchronize(X->rt.st), done);
	st = dpg_col_cross(X->mode, hr, hr + nw, la, lb, c, cost, &at, &cf);
	if (X->sp) X->sp->n_meet++;
done:
	dfree(X, &dr);
	free(hr);
	return st;
}

/* lev D(la, lb) (-1 above k >= 0) or lcs L(la, lb) of one long pair */
static rk_status_t long_value(dctx_t *X, const char *a, int64_t la, const char *b, int64_t lb, int64_t k, int64_t *val)
{
	uint8_t map[256];
	const int nc = dpg_map(a, la, map);
	dbuf_t dc = { 0, 0 };
	rk_status_t st;
	int64_t cost = -1, ub = -1;
	int exact = 0, meet = 0;
	dpg_pass_t ps;
	pass_whole(&ps, la, lb);
	if ((st = meet_pays(X, nc, &ps, &meet)) ||
	    (st = codes_up(X, map, a, la, b, lb, meet ? CODES_BOTH : CODES_FWD, &dc, "the symbols of a long pair")))
		goto done;
	/* with -k the bound is given; otherwise a first, narrow band may give one */
	if (k < 0 && (st = long_bound(X, (const uint8_t *)dc.p, nc, la, lb, &ub, &exact))) goto done;
	if (exact) {
		cost = ub;
	} else {
		const int64_t kb = k >= 0 ? k : ub;
		if (band_pays(kb, la, lb)) band_k(&ps, kb, la, lb);
		if (meet) {
			if ((st = meet_value(X, (const uint8_t *)dc.p, nc, &ps, &cost))) goto done;
		} else {
			pres_t r;
			if ((st = long_run(X, (const uint8_t *)dc.p, &ps, 1, nc, &r))) goto done;
			cost = to_cost(X->mode, r.total, la, lb);
		}
		/* exact when the cost is within the band's bound; above it, an upper bound (and > k) */
		if (k < 0 && ub >= 0 && cost > ub) {
			rk_set_error("internal error: GPU %s of a %lld x %lld pair: cost %lld above its bound %lld", X->mode == DPG_LEV ? "lev" : "lcs",
			             (long long)la, (long long)lb, (long long)cost, (long long)ub);
			st = RK_ERES;
			goto done;
		}
	}
	if (X->mode == DPG_LEV) *val = k >= 0 && cost > k ? -1 : cost;
	else *val = (la + lb - cost) / 2;
	rk_debug("gpu %s %lld x %lld: %s, j - i in [%lld, %lld]", X->mode == DPG_LEV ? "lev" : "lcs", (long long)la, (long long)lb,
	         exact ? "the bound's band was exact" : meet ? "two passes meeting at the middle column" : "one pass",
	         (long long)ps.dlo, (long long)ps.dhi);
done:
	dfree(X, &dc);
	return st;
}

/* Values of many long pairs that each leave the device idle, several per launch: each pair's
 * two passes meeting on its middle column (meet_value), as many pairs as the resident warps
 * hold at one word per lane, their codes up in one copy and their columns back in one. One
 * pair a launch, a batch of genomes (46 MERS-CoV of 30 kb, --all: 1,035 pairs) pays each
 * pair's set-up, transfers and launch, and leaves all but ~60 of ~1,600 warps idle. Pairs
 * lng[i] of two columns or more and fewer than 2^32 cells (no bound: the band of -k only)
 * whose passes fit; done[i] set for those valued here (val as rgpu_dp_batch's), the rest go
 * one at a time. */
static rk_status_t long_values(dctx_t *X, const aln_pair_t *p, const int64_t *lng, int64_t n, int64_t k, int64_t *val,
                               uint8_t *done)
{
	/* forced bounds (tests) go one at a time; with -k a forced band is -k's, as one at a time */
	if (rgpu_dp_tune.meet < 0 || (rgpu_dp_tune.band > 0 && k < 0) || rgpu_dp_tune.long_group < 0 || n <= 0) return RK_OK;
	const int mode = X->mode, nv = mode == DPG_LEV ? 2 : 1;
	int64_t *cand = (int64_t *)malloc(sizeof(int64_t) * (size_t)n), *gi = (int64_t *)malloc(sizeof(int64_t) * (size_t)n);
	int64_t *gpos = (int64_t *)malloc(sizeof(int64_t) * (size_t)n), *gla = (int64_t *)malloc(sizeof(int64_t) * (size_t)n);
	int64_t *glb = (int64_t *)malloc(sizeof(int64_t) * (size_t)n), *gcost = (int64_t *)malloc(sizeof(int64_t) * (size_t)n);
	int64_t *off = (int64_t *)malloc(sizeof(int64_t) * (size_t)(n + 1)), *roff = (int64_t *)malloc(sizeof(int64_t) * (size_t)(n + 1));
	int *nc = (int *)malloc(sizeof(int) * (size_t)n);
	dpg_pass_t *ps = (dpg_pass_t *)calloc((size_t)(2 * n), sizeof(dpg_pass_t));
	uint8_t *hc = 0;
	uint32_t *hr = 0;
	dbuf_t dc = { 0, 0 }, dr = { 0, 0 };
	rk_status_t st = RK_OK;
	int64_t nq = 0, G = 0, ncx = 0, ng = 0, nd = 0;
	double tp[3] = { 0, 0, 0 };   /* codes packed; up, kernels and back; meetings */
	if (!cand || !gi || !gpos || !gla || !glb || !gcost || !off || !roff || !nc || !ps) {
		st = RK_ERES;
		rk_set_error("out of memory for %lld long pairs", (long long)n);
		goto done;
	}
	for (int64_t i = 0; i < n; i++) {
		const aln_pair_t *x = &p[lng[i]];
		if (x->lb >= 2 && (double)x->la * (double)x->lb < 4294967296.0) cand[nq++] = i;
	}
	if (nq < 2) goto done;   /* one pair: long_value meets alike */
	for (int64_t i = 0; i < nq; i++) gi[i] = lng[cand[i]];
	dpg_nc_many(p, gi, nq, X->threads, nc);
	for (int64_t i = 0; i < nq; i++) ncx = imax(ncx, nc[i]);
	if ((st = long_warps(X, (int)ncx, 1, &G))) goto done;
	{
		/* half of what is left, less long_run's own buffers for G warps (rings, counters,
		 * strips; the wrap row per pair below): under a tight --device-memory the pairs go one
		 * at a time, as before, rather than fail together */
		const uint64_t SB = (uint64_t)dpg_slot_bytes(mode), left = X->rt.budget > X->used ? X->rt.budget - X->used : 0;
		const uint64_t fixed = (uint64_t)G * ((uint64_t)D_RING * D_CWW * SB + DPG_CNT_STRIDE * 8 + 12) + 4 * D_ALIGN;
		const uint64_t cap = left / 2 > fixed ? left / 2 - fixed : 0;
		const int64_t most = rgpu_dp_tune.long_group > 0 ? rgpu_dp_tune.long_group : INT64_MAX;
		for (int64_t q = 0; q < nq;) {
			/* a group: the next pairs whose strips the resident warps hold in one round (one
			 * too big alone is left to long_value) */
			int64_t strips = 0, gm = 0;
			uint64_t bytes = 0;
			off[0] = roff[0] = 0;
			for (; q < nq && gm < most; q++) {
				const aln_pair_t *x = &p[lng[cand[q]]];
				const int64_t s2 = 2 * ((x->la + 1023) / 1024), nw = nv * ((x->la + 31) / 32);
				const uint64_t b = (uint64_t)(2 * (x->la + x->lb)) + 8 * (uint64_t)nw + 2 * sizeof(dpg_pass_t) + ((uint64_t)x->lb / 32 + 2) * SB;
				if (s2 > G || b > cap) continue;
				if (strips + s2 > G || bytes + b > cap) break;
				gi[gm] = lng[cand[q]];
				gpos[gm] = cand[q];
				off[gm + 1] = off[gm] + 2 * (x->la + x->lb);
				roff[gm + 1] = roff[gm] + 2 * nw;
				strips += s2;
				bytes += b;
				gm++;
			}
			if (gm == 0) break;
			if (!(hc = (uint8_t *)malloc((size_t)off[gm])) || !(hr = (uint32_t *)malloc(sizeof(uint32_t) * (size_t)roff[gm]))) {
				st = RK_ERES;
				rk_set_error("out of memory for %lld long pairs", (long long)gm);
				goto done;
			}
			double t = rk_realtime();
			dpg_pack_many(p, gi, gm, off, hc, 1, X->threads);
			tp[0] += rk_realtime() - t;
			t = rk_realtime();
			if ((st = dalloc(X, &dc, (uint64_t)off[gm], "the symbols of long pairs")) ||
			    (st = dalloc(X, &dr, sizeof(uint32_t) * (uint64_t)roff[gm], "the meeting columns of long pairs")))
				goto done;
			CUDA_CHECK_GOTO(cudaMemcpyAsync(dc.p, hc, (size_t)off[gm], cudaMemcpyHostToDevice, X->rt.st), done);
			for (int64_t g = 0; g < gm; g++) {
				const int64_t la = p[gi[g]].la, lb = p[gi[g]].lb;
				dpg_pass_t whole;   /* the pair's pass in the band of -k */
				pass_whole(&whole, la, lb);
				if (band_pays(k, la, lb)) band_k(&whole, k, la, lb);
				meet_passes(&whole, off[g], (uint32_t *)dr.p + roff[g], nv * ((la + 31) / 32), &ps[2 * g]);
			}
			if ((st = long_run(X, (const uint8_t *)dc.p, ps, 2 * gm, (int)ncx, 0))) goto done;
			CUDA_CHECK_GOTO(cudaMemcpyAsync(hr, dr.p, sizeof(uint32_t) * (size_t)roff[gm], cudaMemcpyDeviceToHost, X->rt.st), done);
			CUDA_CHECK_GOTO(cudaStreamSynchronize(X->rt.st), done);
			tp[1] += rk_realtime() - t;
			t = rk_realtime();
			for (int64_t g = 0; g < gm; g++) {
				gla[g] = p[gi[g]].la;
				glb[g] = p[gi[g]].lb;
			}
			if ((st = dpg_col_cost_many(mode, hr, roff, gla, glb, gm, gcost, X->threads))) goto done;
			for (int64_t g = 0; g < gm; g++) {
				const int64_t cost = gcost[g];
				val[gi[g]] = mode == DPG_LEV ? (k >= 0 && cost > k ? -1 : cost) : (gla[g] + glb[g] - cost) / 2;
			}
			tp[2] += rk_realtime() - t;
			ng++;
			for (int64_t g = 0; g < gm; g++) done[gpos[g]] = 1;
			if (X->sp) X->sp->n_meet += gm;
			dfree(X, &dc);
			dfree(X, &dr);
			free(hc);
			free(hr);
			hc = 0;
			hr = 0;
		}
	}
done:
	for (int64_t i = 0; i < n; i++) nd += done[i];
	if (ng) rk_debug("gpu %s: %lld long pairs valued %lld launch(es) at once: codes %.3f s, device %.3f s, meetings %.3f s",
	                 mode == DPG_LEV ? "lev" : "lcs", (long long)nd, (long long)ng, tp[0], tp[1], tp[2]);
	dfree(X, &dc);
	dfree(X, &dr);
	free(hc); free(hr); free(cand); free(gi); free(gpos); free(gla); free(glb); free(gcost); free(off); free(roff); free(nc); free(ps);
	return st;
}

/* ------------------------------------------------------------------------------------------ */
/* Hirschberg */

typedef struct {
	int64_t a0, la, b0, lb;   /* sub-problem A[a0, a0 + la) x B[b0, b0 + lb) */
	int64_t cost;             /* its cost; the root's: a bound (-1: none) unless exact */
	int exact, op;            /* op >= 0: a single op between sub-problems */
} hitem_t;

static int64_t store_bytes(int mode, int64_t la, int64_t lb)
{
	return lb * ((la + 31) / 32) * planes(mode) * 4;
}

static int is_leaf(int mode, int64_t la, int64_t lb)
{
	const int64_t rows = imin(tune_or(rgpu_dp_tune.leaf_rows, D_LEAF_ROWS), tune_or(rgpu_dp_tune.batch_max_la, D_BATCH_MAX_LA));
	return la == 0 || lb == 0 || (la <= imin(rows, D_BATCH_MAX_LA) && store_bytes(mode, la, lb) <= tune_or(rgpu_dp_tune.leaf_bytes, D_LEAF_BYTES));
}

/* word-aligned middle row (any split gives the same path) */
static int64_t split_row(int64_t la)
{
	const int64_t nw = (la + 31) / 32;
	return nw >= 2 ? 32 * (nw / 2) : la / 2;
}

static int by_batch(int64_t rows, int64_t cols)
{
	const int64_t mx = imin(tune_or(rgpu_dp_tune.batch_max_la, D_BATCH_MAX_LA), D_BATCH_MAX_LA);
	return rows <= mx && rows * cols <= tune_or(rgpu_dp_tune.long_cells, D_LONG_CELLS);
}

static rk_status_t items_push(hitem_t **v, int64_t *n, int64_t *m, hitem_t it)
{
	if (*n == *m) {
		int64_t nm = *m ? 2 * *m : 64;
		hitem_t *t = (hitem_t *)realloc(*v, sizeof(hitem_t) * (size_t)nm);
		if (!t) { rk_set_error("out of memory for a path"); return RK_ERES; }
		*v = t;
		*m = nm;
	}
	(*v)[(*n)++] = it;
	return RK_OK;
}

/* The canonical path of a[0, LA) x b[0, LB) appended to out; *cost: lev D, lcs the indel cost.
 * k >= 0 (lev -k): only costs <= k are wanted; above it *cost = -1 and nothing is appended.
 *
 * Level by level: every sub-problem too large to trace is split after its middle row; its
 * upper rows forward and its lower rows reversed are passes (many per launch of the long
 * kernel, or of the batch kernel when short), pruned to the band of its known cost when that
 * pays; the host scans the two rows for the crossing, whose costs are the two halves' costs
 * (checked when they are traced). The leaves are traced as one batch. */
static rk_status_t hirsch(dctx_t *X, const char *a, int64_t LA, const char *b, int64_t LB, int64_t k, aln_path_t *out,
                          int64_t *cost)
{
	const int mode = X->mode, EWB = ew_bytes(mode);
	uint8_t map[256];
	const int nc = dpg_map(a, LA, map);
	const int64_t OA = 0, OB = LA, ORA = LA + LB, ORB = 2 * LA + LB;   /* codes on the device (codes_up) */
	rk_status_t st = RK_OK;
	hitem_t *it = 0, *nx = 0;
	int64_t nit = 0, mit = 0, nnx = 0, mnx = 0;
	dbuf_t dc = { 0, 0 }, dle = { 0, 0 }, dre = { 0, 0 };
	uint8_t *hedge = 0;
	uint32_t *hre = 0;          /* right edges of the column cuts' passes */
	int64_t *roff = 0, *rmap = 0, *ccut = 0;   /* per pass: right edge offset; per split: its row job, its column */
	int64_t (*cres)[3] = 0;     /* per column cut: best, row, F at the row */
	bjob_t *jobs = 0;
	dpg_pass_t *lps = 0;
	pres_t *lres = 0;
	int64_t *pidx = 0, *eoff = 0, *lidx = 0;
	dpg_cross_job_t *cj = 0;
	aln_path_t *piece = 0;
	int64_t *leafval = 0;
	int from_k = k >= 0, exact = 0;
	int64_t G4 = 0;             /* resident warps of the long kernel at 4 words per lane */
	*cost = -1;
	/* the host keeps the forward codes for the crossings (hc[OA + i], hc[OB + j]) */
	uint8_t *hc = (uint8_t *)malloc((size_t)(LA + LB));
	if (!hc) { rk_set_error("out of memory for a %lld x %lld path", (long long)LA, (long long)LB); return RK_ERES; }
	dpg_encode(map, a, LA, 0, hc + OA);
	dpg_encode(map, b, LB, 0, hc + OB);
	if ((st = codes_up(X, map, a, LA, b, LB, CODES_BOTH, &dc, "the symbols of a long pair and their reverse"))) goto done;
	/* the root's bound: -k, or an upper bound from a narrow band (A and B forward at OA = 0, OB = LA) */
	if (k < 0 && !is_leaf(mode, LA, LB) && (st = long_bound(X, (const uint8_t *)dc.p, nc, LA, LB, &k, &exact))) goto done;
	{
		hitem_t root = { 0, LA, 0, LB, k, exact, -1 };
		if ((st = items_push(&it, &nit, &mit, root))) goto done;
	}
	bsrc_t rsrc;
	rsrc.p = 0;
	rsrc.dcodes = (const uint8_t *)dc.p;
	/* resident warps of the long kernel at 4 words per lane: a level whose column cuts fit them
	 * in one round cuts columns (rgpu_dp_tune.col_cut) */
	if ((st = long_warps(X, nc, 4, &G4))) goto done;
	for (;;) {
		int64_t ni = 0;
		for (int64_t t = 0; t < nit; t++)
			if (it[t].op < 0 && !is_leaf(mode, it[t].la, it[t].lb)) ni++;
		if (!ni) break;
		/* split q: passes 2 q (its rows [0, is) forward) and 2 q + 1 (rows (is, la), reversed) */
		pidx = (int64_t *)malloc(sizeof(int64_t) * (size_t)ni);
		eoff = (int64_t *)malloc(sizeof(int64_t) * (size_t)(2 * ni));
		lidx = (int64_t *)malloc(sizeof(int64_t) * (size_t)(2 * ni));
		jobs = (bjob_t *)calloc((size_t)(2 * ni), sizeof(bjob_t));
		lps = (dpg_pass_t *)calloc((size_t)(2 * ni), sizeof(dpg_pass_t));
		lres = (pres_t *)calloc((size_t)(2 * ni), sizeof(pres_t));
		cj = (dpg_cross_job_t *)calloc((size_t)ni, sizeof(dpg_cross_job_t));
		roff = (int64_t *)malloc(sizeof(int64_t) * (size_t)(2 * ni));
		rmap = (int64_t *)malloc(sizeof(int64_t) * (size_t)ni);
		ccut = (int64_t *)calloc((size_t)ni, sizeof(int64_t));
		cres = (int64_t(*)[3])calloc((size_t)ni, sizeof *cres);
		if (!pidx || !eoff || !lidx || !jobs || !lps || !lres || !cj || !roff || !rmap || !ccut || !cres) {
			st = RK_ERES;
			rk_set_error("out of memory for a path");
			goto done;
		}
		int64_t q = 0, E = 0, El = 0, nj = 0, nl = 0, Rw = 0, nr = 0;
		for (int64_t t = 0; t < nit; t++)
			if (it[t].op < 0 && !is_leaf(mode, it[t].la, it[t].lb)) pidx[q++] = t;
		/* Column cuts: a long sub-problem with the full band, or a band of more than half of its
		 * cells (band_beats_cut), may be cut at its middle column cs
		 * instead of its middle row: its two passes then have all its rows over half its columns
		 * each, twice the strips of a row cut for the same cells. Taken when the level's passes so
		 * cut still fit the resident warps in one round (a row-cut level of few strips leaves half
		 * of every SM's warp slots idle: a 5M-row piece of a split pair). */
		{
			int64_t strips = 0;
			for (int64_t i = 0; i < q; i++) {
				const hitem_t *h = &it[pidx[i]];
				const int64_t cs = 32 * (((h->lb + 31) / 32) / 2);
				if (h->lb >= 64 && cs > 0 && cs < h->lb && !by_batch(h->la, cs) && !by_batch(h->la, h->lb - cs) &&
				    !band_beats_cut(h->cost, h->la, h->lb) && (rgpu_dp_tune.col_cut > 0 || h->la >= D_COL_CUT_ROWS)) {
					ccut[i] = cs;
					strips += 2 * ((h->la + 4095) / 4096);
				}
			}
			const int use = rgpu_dp_tune.col_cut > 0 || (rgpu_dp_tune.col_cut == 0 && strips > 0 && strips <= G4);
			for (int64_t i = 0; i < q; i++)
				if (!use) ccut[i] = 0;
		}
		/* where each pass's bottom row goes in the host buffer: batch passes first, then the
		 * long ones (one block, one copy back); a row of lb columns takes (lb + 31) / 32 words */
#define PASS_ROWS(x) ((x) & 1 ? it[pidx[(x) / 2]].la - split_row(it[pidx[(x) / 2]].la) - 1 : split_row(it[pidx[(x) / 2]].la))
		for (int64_t x = 0; x < 2 * q; x++) {
			const int64_t rows = PASS_ROWS(x), lb = it[pidx[x / 2]].lb;
			eoff[x] = -1;
			lidx[x] = -1;
			roff[x] = -1;
			if (ccut[x / 2]) { roff[x] = Rw; Rw += (mode == DPG_LEV ? 2 : 1) * ((it[pidx[x / 2]].la + 31) / 32); continue; }
			if (rows > 0 && by_batch(rows, lb)) { eoff[x] = E; E += (lb + 31) / 32; }
		}
		for (int64_t x = 0; x < 2 * q; x++) {
			const int64_t rows = PASS_ROWS(x), lb = it[pidx[x / 2]].lb;
			if (!ccut[x / 2] && rows > 0 && !by_batch(rows, lb)) { eoff[x] = E + El; El += (lb + 31) / 32; }
		}
		hedge = (uint8_t *)malloc((size_t)(EWB * (E + El) + 8));
		if (!hedge) { st = RK_ERES; rk_set_error("out of memory for the rows of a path"); goto done; }
		if (El && (st = dalloc(X, &dle, (uint64_t)EWB * El, "the rows of a path's long passes"))) goto done;
		if (Rw && (!(hre = (uint32_t *)malloc(sizeof(uint32_t) * (size_t)Rw)) ||
		           (st = dalloc(X, &dre, sizeof(uint32_t) * (uint64_t)Rw, "the columns of a path's cuts")))) {
			if (!st) { st = RK_ERES; rk_set_error("out of memory for the columns of a path"); }
			goto done;
		}
		/* a pruned pass writes only its band's words of the row; the copy back reads all */
		if (El) CUDA_CHECK_GOTO(cudaMemsetAsync(dle.p, 0, (size_t)(EWB * El), X->rt.st), done);
		for (int64_t x = 0; x < 2 * q; x++) {
			const hitem_t *h = &it[pidx[x / 2]];
			if (ccut[x / 2]) {
				/* forward: all rows over columns [0, cs); reverse: all rows over [cs, lb), reversed */
				const int64_t cs = ccut[x / 2];
				dpg_pass_t *p = &lps[nl];
				lidx[x] = nl++;
				p->a = x & 1 ? ORA + (LA - h->a0 - h->la) : OA + h->a0;
				p->b = x & 1 ? ORB + (LB - h->b0 - h->lb) : OB + h->b0;
				p->la = h->la;
				p->lb = x & 1 ? h->lb - cs : cs;
				band_full(p);
				p->right = (uint32_t *)dre.p + roff[x];
				continue;
			}
			const int64_t rows = PASS_ROWS(x);
			if (rows == 0) continue;   /* no rows: the boundary (a NULL row in the scan) */
			/* forward: A[a0, a0 + is), B[b0, b0 + lb); reverse: the same ranges of the reversed codes */
			const int64_t ao = x & 1 ? ORA + (LA - h->a0 - h->la) : OA + h->a0;
			const int64_t bo = x & 1 ? ORB + (LB - h->b0 - h->lb) : OB + h->b0;
			if (by_batch(rows, h->lb)) {
				bjob_t *j = &jobs[nj++];
				j->la = rows;
				j->lb = h->lb;
				j->a = ao;
				j->b = bo;
				j->src = x;
				j->nc = nc;
				j->cls = dpg_class_of(rows);
				j->edge = hedge + (size_t)EWB * eoff[x];
			} else {
				dpg_pass_t *p = &lps[nl];
				lidx[x] = nl++;
				p->a = ao;
				p->b = bo;
				p->la = rows;
				p->lb = h->lb;
				/* the band of the sub-problem's cost (symmetric, so the reverse pass has the same) */
				if (band_pays(h->cost, h->la, h->lb)) band_k(p, h->cost, h->la, h->lb);
				else band_full(p);
				p->bot = (char *)dle.p + (size_t)EWB * (eoff[x] - E);
			}
		}
#undef PASS_ROWS
		qsort(jobs, (size_t)nj, sizeof *jobs, cmp_job);
		if ((st = run_batch(X, jobs, nj, &rsrc, "the passes of a path"))) goto done;
		if (nl) {
			if ((st = long_run(X, (const uint8_t *)dc.p, lps, nl, nc, lres))) goto done;
			if (El) CUDA_CHECK_GOTO(cudaMemcpyAsync(hedge + (size_t)EWB * E, dle.p, (size_t)(EWB * El), cudaMemcpyDeviceToHost, X->rt.st), done);
			if (Rw) CUDA_CHECK_GOTO(cudaMemcpyAsync(hre, dre.p, sizeof(uint32_t) * (size_t)Rw, cudaMemcpyDeviceToHost, X->rt.st), done);
			CUDA_CHECK_GOTO(cudaStreamSynchronize(X->rt.st), done);
			dfree(X, &dle);
			dfree(X, &dre);
		}
		for (int64_t i = 0; i < q; i++) {
			const hitem_t *h = &it[pidx[i]];
			rmap[i] = -1;
			if (ccut[i]) {
				if ((st = dpg_col_cross(mode, hre + roff[2 * i], hre + roff[2 * i + 1], h->la, h->lb, ccut[i], &cres[i][0], &cres[i][1],
				                        &cres[i][2])))
					goto done;
				continue;
			}
			const int64_t is = split_row(h->la);
			rmap[i] = nr;
			dpg_cross_job_t *c = &cj[nr++];
			for (int r = 0; r < 2; r++) {
				const int64_t x = 2 * i + r, rows = r ? h->la - is - 1 : is;
				dpg_row_t *w = r ? &c->B : &c->F;
				w->e = eoff[x] >= 0 ? hedge + (size_t)EWB * eoff[x] : 0;
				if (lidx[x] >= 0) {   /* a long pass: its last strip's columns, its value at the first */
					const pres_t *pr = &lres[lidx[x]];
					w->c0 = pr->c0;
					w->c1 = pr->c1;
					w->v0 = to_cost(mode, pr->v0, rows, pr->c0);
				} else {              /* a batch pass or no rows: every column, cost `rows` at column 0 */
					w->c0 = 0;
					w->c1 = h->lb;
					w->v0 = rows;
				}
			}
			c->lb = h->lb;
			c->ai = hc[OA + h->a0 + is];
			c->bc = hc + OB + h->b0;
		}
		dpg_cross_many(mode, cj, nr, X->threads);
		nnx = 0;
		for (int64_t t = 0, i = 0; t < nit; t++) {
			const hitem_t *h = &it[t];
			if (h->op >= 0 || is_leaf(mode, h->la, h->lb)) {
				if ((st = items_push(&nx, &nnx, &mnx, *h))) goto done;
				continue;
			}
			const int64_t ci = i++;
			dpg_cross_t cx;   /* a column cut as a crossing: its best; the pieces below */
			const dpg_cross_t *x = ccut[ci] ? &cx : &cj[rmap[ci]].x;
			if (ccut[ci]) { memset(&cx, 0, sizeof cx); cx.best = cres[ci][0]; }
			if (!h->exact && (x->best < 0 || (h->cost >= 0 && x->best > h->cost))) {
				/* only the root is inexact: above its bound. With -k that is the answer; a bound of
				 * our own is never below the cost */
				if (from_k) goto done;
				rk_set_error("internal error: GPU Hirschberg root of %lld x %lld costs %lld, bound %lld", (long long)h->la,
				             (long long)h->lb, (long long)x->best, (long long)h->cost);
				st = RK_ERES;
				goto done;
			}
			if (h->exact && x->best != h->cost) {
				rk_set_error("internal error: GPU Hirschberg split of %lld x %lld costs %lld, expected %lld", (long long)h->la,
				             (long long)h->lb, (long long)x->best, (long long)h->cost);
				st = RK_ERES;
				goto done;
			}
			if (!h->exact) *cost = x->best;   /* the root */
			if (ccut[ci]) {
				/* (0, 0) to (at, cs) and (at, cs) to the end, no op between */
				const int64_t cs = ccut[ci], at = cres[ci][1], cf = cres[ci][2];
				hitem_t top = { h->a0, at, h->b0, cs, cf, 1, -1 };
				hitem_t bot = { h->a0 + at, h->la - at, h->b0 + cs, h->lb - cs, x->best - cf, 1, -1 };
				if ((st = items_push(&nx, &nnx, &mnx, top)) || (st = items_push(&nx, &nnx, &mnx, bot))) goto done;
				if (h->exact && nit == 1) *cost = h->cost;
				continue;
			}
			const int64_t is = split_row(h->la);
			hitem_t top = { h->a0, is, h->b0, x->j, x->cf, 1, -1 };
			hitem_t mid = { 0, 0, 0, 0, 0, 1, x->op };
			hitem_t bot = { h->a0 + is + 1, h->la - is - 1, h->b0 + x->jn, h->lb - x->jn, x->cb, 1, -1 };
			if ((st = items_push(&nx, &nnx, &mnx, top)) || (st = items_push(&nx, &nnx, &mnx, mid)) ||
			    (st = items_push(&nx, &nnx, &mnx, bot)))
				goto done;
			if (h->exact && nit == 1) *cost = h->cost;
		}
		{ hitem_t *t = it; it = nx; nx = t; int64_t tn = nit; nit = nnx; nnx = tn; int64_t tm = mit; mit = mnx; mnx = tm; }
		free(pidx); free(eoff); free(lidx); free(jobs); free(lps); free(lres); free(cj); free(hedge);
		free(hre); free(roff); free(rmap); free(ccut); free(cres);
		pidx = 0; eoff = 0; lidx = 0; jobs = 0; lps = 0; lres = 0; cj = 0; hedge = 0;
		hre = 0; roff = 0; rmap = 0; ccut = 0; cres = 0;
	}
	/* the leaves: traced as a batch over the resident codes */
	{
		const size_t ncell = (size_t)(nit > 0 ? nit : 1);   /* nit >= 1: the root or its pieces */
		piece = (aln_path_t *)calloc(ncell, sizeof(aln_path_t));
		leafval = (int64_t *)malloc(sizeof(int64_t) * ncell);
		jobs = (bjob_t *)calloc(ncell, sizeof(bjob_t));
		if (!piece || !leafval || !jobs) { st = RK_ERES; rk_set_error("out of memory for a path"); goto done; }
		int64_t nj = 0;
		for (int64_t t = 0; t < nit; t++) {
			const hitem_t *h = &it[t];
			leafval[t] = -1;
			if (h->op >= 0 || h->la == 0 || h->lb == 0) continue;
			bjob_t *j = &jobs[nj++];
			j->la = h->la;
			j->lb = h->lb;
			j->a = OA + h->a0;
			j->b = OB + h->b0;
			j->src = t;
			j->nc = nc;
			j->cls = dpg_class_of(h->la);
			j->dst = &piece[t];
			j->val = &leafval[t];
		}
		qsort(jobs, (size_t)nj, sizeof *jobs, cmp_job);
		if ((st = run_batch(X, jobs, nj, &rsrc, "the sub-problems of a path"))) goto done;
		if (nit == 1 && it[0].op < 0 && !it[0].exact) {   /* the root was a leaf */
			const hitem_t *h = &it[0];
			const int64_t c = h->la == 0 || h->lb == 0 ? h->la + h->lb : to_cost(mode, leafval[0], h->la, h->lb);
			if (from_k && c > h->cost) goto done;
			*cost = c;
		}
		const size_t n0 = (size_t)out->n;
		for (int64_t t = 0; t < nit && !st; t++) {
			const hitem_t *h = &it[t];
			if (h->op >= 0) {
				st = aln_path_push(out, h->op, 1);
				continue;
			}
			int64_t c;
			if (h->la == 0 || h->lb == 0) {
				c = h->la + h->lb;
				st = aln_path_push(out, h->la ? ALN_I : ALN_D, h->la + h->lb);
			} else {
				c = to_cost(mode, leafval[t], h->la, h->lb);
				st = aln_path_cat(out, &piece[t]);
			}
			if (!st && h->exact && c != h->cost) {
				rk_set_error("internal error: GPU Hirschberg piece %lld x %lld costs %lld, expected %lld", (long long)h->la,
				             (long long)h->lb, (long long)c, (long long)h->cost);
				st = RK_ERES;
			}
		}
		if (st) out->n = (int64_t)n0;
	}
done:
	if (piece)
		for (int64_t t = 0; t < nit; t++) aln_path_free(&piece[t]);
	free(piece); free(leafval); free(hc); free(it); free(nx); free(hedge); free(jobs); free(lps); free(lres); free(pidx);
	free(eoff); free(lidx); free(cj); free(hre); free(roff); free(rmap); free(ccut); free(cres);
	dfree(X, &dc);
	dfree(X, &dle);
	dfree(X, &dre);
	return st;
}

/* ------------------------------------------------------------------------------------------ */
/* entry points */

static rk_status_t check_pairs(const aln_pair_t *p, int64_t n, const int64_t *val)
{
	if (n < 0 || (n > 0 && (!p || !val))) {
		rk_set_error("GPU lev/lcs: bad arguments");
		return RK_EINPUT;
	}
	for (int64_t i = 0; i < n; i++) {
		if (p[i].la < 0 || p[i].lb < 0 || (p[i].la && !p[i].a) || (p[i].lb && !p[i].b)) {
			rk_set_error("GPU lev/lcs: bad pair %lld", (long long)i);
			return RK_EINPUT;
		}
		if (p[i].la >= D_MAX_LEN || p[i].lb >= D_MAX_LEN) {
			rk_set_error("pair %lld (%lld x %lld) is longer than the GPU kernels take (%lld); use --backend cpu", (long long)i,
			             (long long)p[i].la, (long long)p[i].lb, (long long)D_MAX_LEN);
			return RK_ERES;
		}
	}
	return RK_OK;
}

extern "C" rk_status_t rgpu_dp_batch(int mode, int64_t k, const aln_pair_t *p, int64_t n, const rgpu_opt_t *g, int64_t *val,
                                     aln_path_t *paths, rgpu_stats_t *stats)
{
	rgpu_stats_t dummy;
	rgpu_stats_t *sp = stats ? stats : &dummy;
	memset(sp, 0, sizeof *sp);
	const double t0 = rk_realtime();
	if (mode != DPG_LEV) k = -1;
	rk_status_t st = check_pairs(p, n, val);
	if (st) return st;
	dctx_t X;
	memset(&X, 0, sizeof X);
	bjob_t *jobs = 0;
	int64_t *idx = 0, *lng = 0, nj = 0, nlong = 0;
	int *nc = 0;
	uint8_t *ldone = 0;
	double t_ctx = 0;
	const int64_t bmax = imin(tune_or(rgpu_dp_tune.batch_max_la, D_BATCH_MAX_LA), D_BATCH_MAX_LA);
	const int64_t lcells = tune_or(rgpu_dp_tune.long_cells, D_LONG_CELLS), pcells = tune_or(rgpu_dp_tune.path_cells, D_PATH_CELLS);
	idx = (int64_t *)malloc(sizeof(int64_t) * (size_t)(n ? n : 1));
	lng = (int64_t *)malloc(sizeof(int64_t) * (size_t)(n ? n : 1));
	if (!idx || !lng) { st = RK_ERES; rk_set_error("out of memory for %lld pairs", (long long)n); goto done; }
	/* empty sides and -k beyond the length difference need no device */
	for (int64_t i = 0; i < n; i++) {
		const int64_t la = p[i].la, lb = p[i].lb;
		if (paths) paths[i].n = 0;
		val[i] = -1;
		if (la == 0 || lb == 0) {
			val[i] = mode == DPG_LEV ? (k >= 0 && la + lb > k ? -1 : la + lb) : 0;
			if (paths && val[i] >= 0 && (st = aln_path_push(&paths[i], la ? ALN_I : ALN_D, la + lb))) goto done;
			continue;
		}
		if (k >= 0 && (la > lb ? la - lb : lb - la) > k) continue;
		if (la <= bmax && la * lb <= (paths ? pcells : lcells)) idx[nj++] = i;
		else lng[nlong++] = i;
	}
	if (!nj && !nlong) goto done;
	if ((st = ctx_init(&X, mode, g, sp))) goto done;
	t_ctx = rk_realtime() - t0;
	if (nj) {
		nc = (int *)malloc(sizeof(int) * (size_t)nj);
		jobs = (bjob_t *)calloc((size_t)nj, sizeof(bjob_t));
		if (!nc || !jobs) { st = RK_ERES; rk_set_error("out of memory for %lld pairs", (long long)nj); goto done; }
		dpg_nc_many(p, idx, nj, X.threads, nc);
		int64_t m = 0;
		for (int64_t q = 0; q < nj; q++) {
			const int64_t i = idx[q];
			bjob_t *j = &jobs[m];
			j->la = p[i].la;
			j->lb = p[i].lb;
			j->src = i;
			j->nc = nc[q];
			j->cls = dpg_class_of(j->la);
			j->val = &val[i];
			j->dst = paths ? &paths[i] : 0;
			/* a column store that would crowd the device: Hirschberg in linear memory instead */
			if (paths && job_bytes(mode, j, 0) > X.rt.budget / 4) {
				lng[nlong++] = i;
				memset(j, 0, sizeof *j);
				continue;
			}
			m++;
		}
		qsort(jobs, (size_t)m, sizeof *jobs, cmp_job);
		bsrc_t bs;
		bs.p = p;
		bs.dcodes = 0;
		if ((st = run_batch(&X, jobs, m, &bs, "a batch of pairs"))) goto done;
		for (int64_t q = 0; q < m; q++) {
			const int64_t i = jobs[q].src;
			if (k >= 0 && val[i] > k) {
				val[i] = -1;
				if (paths) paths[i].n = 0;
			}
		}
	}
	if (nlong && !paths) {
		if (!(ldone = (uint8_t *)calloc((size_t)nlong, 1))) { st = RK_ERES; rk_set_error("out of memory for %lld pairs", (long long)nlong); goto done; }
		if ((st = long_values(&X, p, lng, nlong, k, val, ldone))) goto done;
	}
	for (int64_t q = 0; q < nlong && !st; q++) {
		const int64_t i = lng[q];
		const aln_pair_t *x = &p[i];
		if (ldone && ldone[q]) {
			/* valued with others in one launch */
		} else if (paths) {
			int64_t c = -1;
			paths[i].n = 0;
			st = hirsch(&X, x->a, x->la, x->b, x->lb, k, &paths[i], &c);
			if (st) break;
			val[i] = c < 0 ? -1 : mode == DPG_LEV ? c : (x->la + x->lb - c) / 2;
		} else {
			st = long_value(&X, x->a, x->la, x->b, x->lb, k, &val[i]);
			if (st) break;
		}
		if (k >= 0 && val[i] > k) {
			val[i] = -1;
			if (paths) paths[i].n = 0;
		}
	}
done:
	sp->dev_bytes = X.peak;
	ctx_free(&X);
	free(idx); free(lng); free(nc); free(jobs); free(ldone);
	sp->total_s = rk_realtime() - t0;
	if (nlong) rk_debug("gpu %s: %lld long pair(s): device ready at %.3f s, %lld launch(es) %.3f s, all %.3f s", mode == DPG_LEV ? "lev" : "lcs",
	                    (long long)nlong, t_ctx, (long long)sp->n_launch, sp->kernel_s, sp->total_s);
	return st;
}

/* the band of a long pair whose codes are at dc (A at 0, B at la): rgpu_dp_band's */
static rk_status_t band_of(dctx_t *X, const uint8_t *dc, int nc, int64_t la, int64_t lb, int64_t k, int64_t band[2], int64_t *ub)
{
	int exact = 0;
	band[0] = -la;
	band[1] = lb;
	*ub = -1;
	rk_status_t st = long_bound(X, dc, nc, la, lb, ub, &exact);
	if (st) return st;
	/* -k under |la - lb| has no path at all: the pair's cost (above k) comes from the bound's band */
	const int64_t kb = k >= imax(la - lb, lb - la) && (*ub < 0 || k < *ub) ? k : *ub;
	if (band_pays(kb, la, lb)) {
		dpg_pass_t p;
		band_k(&p, kb, la, lb);
		band[0] = p.dlo;
		band[1] = p.dhi;
	}
	return RK_OK;
}

static int slab_args_bad(int mode, int64_t la, int64_t lb, const char *a, const char *b, uint64_t *h0, uint64_t *h1, uint64_t *v0,
                         uint64_t *v1)
{
	if (la < 0 || lb < 0 || (la && !a) || (lb && !b) || (lb && !h0) || (mode == DPG_LEV && lb && !h1) || (mode == DPG_LEV && v0 && !v1)) {
		rk_set_error("GPU slab: bad arguments");
		return 1;
	}
	if (la >= D_MAX_LEN || lb >= D_MAX_LEN) {
		rk_set_error("a %lld x %lld slab is longer than the GPU kernels take; use --backend cpu", (long long)la, (long long)lb);
		return 1;
	}
	return 0;
}

/* The slab pass of rgpu_dp_slab over codes already on the device: A at dc + ao (la), B at
 * dc + bo (lb columns), both as the pass reads them (reversed ones reversed) */
static rk_status_t slab_run(dctx_t *X, const uint8_t *dc, int nc, int64_t ao, int64_t bo, int64_t la, int64_t lb, const int64_t *band,
                            uint64_t *h0, uint64_t *h1, uint64_t *v0, uint64_t *v1)
{
	const int mode = X->mode, EWB = ew_bytes(mode);
	const int64_t nwb = (lb + 31) / 32, nwp = (la + 31) / 32, nv = mode == DPG_LEV ? 2 : 1;
	uint8_t *he = (uint8_t *)malloc((size_t)(EWB * nwb));
	uint32_t *hv = (uint32_t *)malloc(sizeof(uint32_t) * (size_t)(nv * nwp));
	dbuf_t dtop = { 0, 0 }, dbot = { 0, 0 }, dl = { 0, 0 }, dr = { 0, 0 };
	rk_status_t st = RK_OK;
	const int banded = band && (band[0] > -la || band[1] < lb);
	if (!he || !hv) { st = RK_ERES; rk_set_error("out of memory for a %lld x %lld slab", (long long)la, (long long)lb); goto done; }
	dpg_edge_from_planes(mode, h0, h1, lb, he);
	if ((st = dalloc(X, &dtop, (uint64_t)(EWB * nwb), "a slab's top row")) ||
	    (st = dalloc(X, &dbot, (uint64_t)(EWB * nwb), "a slab's bottom row")))
		goto done;
	CUDA_CHECK_GOTO(cudaMemcpyAsync(dtop.p, he, (size_t)(EWB * nwb), cudaMemcpyHostToDevice, X->rt.st), done);
	/* a band takes the boundary left edge, the kernel's default (a strip starting right of
	 * column 0 would read a given edge at its first column): no left edge goes up */
	if (v0 && !banded) {
		/* the uint64 words of the CPU edges are, in memory, their 32-bit words in order */
		memcpy(hv, v0, sizeof(uint32_t) * (size_t)nwp);
		if (mode == DPG_LEV) memcpy(hv + nwp, v1, sizeof(uint32_t) * (size_t)nwp);
		if ((st = dalloc(X, &dl, sizeof(uint32_t) * (uint64_t)(nv * nwp), "a slab's left edge"))) goto done;
		CUDA_CHECK_GOTO(cudaMemcpyAsync(dl.p, hv, sizeof(uint32_t) * (size_t)(nv * nwp), cudaMemcpyHostToDevice, X->rt.st), done);
	}
	if (v0 && (st = dalloc(X, &dr, sizeof(uint32_t) * (uint64_t)(nv * nwp), "a slab's right edge"))) goto done;
	{
		dpg_pass_t ps;
		pass_whole(&ps, la, lb);
		ps.a = ao;
		ps.b = bo;
		ps.top = dtop.p;
		ps.bot = dbot.p;
		ps.left = (const uint32_t *)dl.p;
		ps.right = (uint32_t *)dr.p;
		if (banded) {
			/* the bottom edge outside the last strip's columns: written, if meaningless */
			ps.dlo = band[0];
			ps.dhi = band[1];
			CUDA_CHECK_GOTO(cudaMemsetAsync(dbot.p, mode == DPG_LEV ? 0x55 : 0, (size_t)(EWB * nwb), X->rt.st), done);
		}
		if ((st = long_run(X, dc, &ps, 1, nc, 0))) goto done;
	}
	CUDA_CHECK_GOTO(cudaMemcpyAsync(he, dbot.p, (size_t)(EWB * nwb), cudaMemcpyDeviceToHost, X->rt.st), done);
	if (v0) CUDA_CHECK_GOTO(cudaMemcpyAsync(hv, dr.p, sizeof(uint32_t) * (size_t)(nv * nwp), cudaMemcpyDeviceToHost, X->rt.st), done);
	CUDA_CHECK_GOTO(cudaStreamSynchronize(X->rt.st), done);
	dpg_edge_to_planes(mode, he, lb, h0, h1);
	if (v0) {
		memcpy(v0, hv, sizeof(uint32_t) * (size_t)nwp);
		if (mode == DPG_LEV) memcpy(v1, hv + nwp, sizeof(uint32_t) * (size_t)nwp);
	}
done:
	dfree(X, &dtop);
	dfree(X, &dbot);
	dfree(X, &dl);
	dfree(X, &dr);
	free(he);
	free(hv);
	return st;
}

extern "C" rk_status_t rgpu_dp_band(int mode, const rgpu_opt_t *g, const char *a, int64_t la, const char *b, int64_t lb, int64_t k,
                                    int64_t band[2], rgpu_stats_t *stats)
{
	rgpu_stats_t dummy;
	rgpu_stats_t *sp = stats ? stats : &dummy;
	memset(sp, 0, sizeof *sp);
	const double t0 = rk_realtime();
	band[0] = -la;
	band[1] = lb;
	if (mode != DPG_LEV) k = -1;
	if (la <= 0 || lb <= 0) return RK_OK;
	if (!a || !b) {
		rk_set_error("GPU band: bad arguments");
		return RK_EINPUT;
	}
	if (la >= D_MAX_LEN || lb >= D_MAX_LEN) {
		rk_set_error("a %lld x %lld pair is longer than the GPU kernels take; use --backend cpu", (long long)la, (long long)lb);
		return RK_ERES;
	}
	dctx_t X;
	memset(&X, 0, sizeof X);
	dbuf_t dc = { 0, 0 };
	uint8_t map[256];
	const int nc = dpg_map(a, la, map);
	int64_t ub = -1;
	rk_status_t st;
	if ((st = ctx_init(&X, mode, g, sp)) || (st = codes_up(&X, map, a, la, b, lb, CODES_FWD, &dc, "the symbols of a long pair")))
		goto done;
	st = band_of(&X, (const uint8_t *)dc.p, nc, la, lb, k, band, &ub);
done:
	dfree(&X, &dc);
	sp->dev_bytes = X.peak;
	ctx_free(&X);
	sp->total_s = rk_realtime() - t0;
	rk_debug("gpu %s band of %lld x %lld: bound %lld, j - i in [%lld, %lld], %.3f s", mode == DPG_LEV ? "lev" : "lcs", (long long)la,
	         (long long)lb, (long long)ub, (long long)band[0], (long long)band[1], sp->total_s);
	return st;
}

extern "C" rk_status_t rgpu_dp_slab(int mode, const rgpu_opt_t *g, const char *a, int64_t la, const char *b, int64_t lb, int rev,
                                    const int64_t *band, uint64_t *h0, uint64_t *h1, uint64_t *v0, uint64_t *v1, rgpu_stats_t *stats)
{
	rgpu_stats_t dummy;
	rgpu_stats_t *sp = stats ? stats : &dummy;
	memset(sp, 0, sizeof *sp);
	const double t0 = rk_realtime();
	if (slab_args_bad(mode, la, lb, a, b, h0, h1, v0, v1)) return la >= D_MAX_LEN || lb >= D_MAX_LEN ? RK_ERES : RK_EINPUT;
	/* no rows: the bottom edge is the top one; no columns: the right edge is the left one */
	if (la == 0 || lb == 0) return RK_OK;
	dctx_t X;
	memset(&X, 0, sizeof X);
	uint8_t map[256];
	const int nc = dpg_map(a, la, map);
	dbuf_t dc = { 0, 0 };
	rk_status_t st = RK_OK;
	double t_enc = 0, t_ctx = 0;
	if ((st = ctx_init(&X, mode, g, sp))) goto done;
	t_ctx = rk_realtime() - t0;
	if ((st = codes_up(&X, map, a, la, b, lb, rev ? CODES_REV : CODES_FWD, &dc, "the symbols of a slab"))) goto done;
	t_enc = rk_realtime() - t0;
	st = slab_run(&X, (const uint8_t *)dc.p, nc, 0, la, la, lb, band, h0, h1, v0, v1);
done:
	dfree(&X, &dc);
	sp->dev_bytes = X.peak;
	ctx_free(&X);
	sp->total_s = rk_realtime() - t0;
	rk_debug("gpu %s slab %lld x %lld: device ready at %.3f s, codes there at %.3f s, %lld launch(es) %.3f s, all %.3f s", mode == DPG_LEV ? "lev" : "lcs",
	         (long long)la, (long long)lb, t_ctx, t_enc, (long long)sp->n_launch, sp->kernel_s, sp->total_s);
	return st;
}

extern "C" rk_status_t rgpu_dp_half(int mode, const rgpu_opt_t *g, const char *a, int64_t la, const char *b, int64_t lb, int64_t c,
                                    int rev, int64_t k, int64_t band[2], uint64_t *h0, uint64_t *h1, uint64_t *v0, uint64_t *v1,
                                    rgpu_stats_t *stats)
{
	rgpu_stats_t dummy;
	rgpu_stats_t *sp = stats ? stats : &dummy;
	memset(sp, 0, sizeof *sp);
	const double t0 = rk_realtime();
	const int64_t nc_cols = rev ? lb - c : c;
	band[0] = -la;
	band[1] = lb;
	if (mode != DPG_LEV) k = -1;
	if (c < 0 || c > lb) {
		rk_set_error("GPU half: column %lld outside [0, %lld]", (long long)c, (long long)lb);
		return RK_EINPUT;
	}
	if (slab_args_bad(mode, la, lb, a, b, h0, h1, v0, v1)) return la >= D_MAX_LEN || lb >= D_MAX_LEN ? RK_ERES : RK_EINPUT;
	if (la == 0 || nc_cols == 0) return RK_OK;
	dctx_t X;
	memset(&X, 0, sizeof X);
	uint8_t map[256];
	const int nc = dpg_map(a, la, map);
	dbuf_t dc = { 0, 0 };
	int64_t ub = -1;
	rk_status_t st = RK_OK;
	double t_enc = 0, t_band = 0;
	/* [A, B] for the bound; the reverse half reads [rA, rB] after them */
	if ((st = ctx_init(&X, mode, g, sp)) ||
	    (st = codes_up(&X, map, a, la, b, lb, rev ? CODES_BOTH : CODES_FWD, &dc, "the symbols of a long pair")))
		goto done;
	t_enc = rk_realtime() - t0;
	if ((st = band_of(&X, (const uint8_t *)dc.p, nc, la, lb, k, band, &ub))) goto done;
	t_band = rk_realtime() - t0;
	/* the reverse half's row i' = la - 1 - i and column j' = lb - 1 - j (rB's first lb - c are B's
	 * columns [c, lb) reversed): the band of the pair reversed, the same band (band_k) */
	st = slab_run(&X, (const uint8_t *)dc.p, nc, rev ? la + lb : 0, rev ? 2 * la + lb : la, la, nc_cols,
	              band[0] > -la || band[1] < lb ? band : 0, h0, h1, v0, v1);
done:
	dfree(&X, &dc);
	sp->dev_bytes = X.peak;
	ctx_free(&X);
	sp->total_s = rk_realtime() - t0;
	rk_debug("gpu %s half %lld x %lld of %lld columns (%s): codes there at %.3f s, bound %lld at %.3f s, j - i in [%lld, %lld], "
	         "%lld launch(es) %.3f s, all %.3f s", mode == DPG_LEV ? "lev" : "lcs", (long long)la, (long long)nc_cols, (long long)lb,
	         rev ? "reversed" : "forward", t_enc, (long long)ub, t_band, (long long)band[0], (long long)band[1], (long long)sp->n_launch,
	         sp->kernel_s, sp->total_s);
	return st;
}
