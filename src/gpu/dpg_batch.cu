/* The batch runner: short pairs (A of at most 4096 rows), many per launch of the batch kernel,
 * in chunks of one class (shape) each within one device arena of min(budget, 1 GB, what the
 * jobs need); per job a value, a bottom row, or a path traced on the device from the column
 * store. It takes the jobs as given: which pairs are jobs (rgpu_dp_batch's routing, the
 * sub-problems of Hirschberg) is decided by the callers. */
#include "gpu/dpg_drv.h"

/* ---- timed launches ---- */
typedef struct { int mode; const dpg_batch_t *p; } trace_arg_t;
static cudaError_t trace_fn(const void *a, cudaStream_t st)
{
	const trace_arg_t *x = (const trace_arg_t *)a;
	return dpg_trace_launch(x->mode, x->p, st);
}

/* ------------------------------------------------------------------------------------------ */
/* the batch runner */

static int nc_class(int nc) { return nc <= 8 ? 0 : nc <= 64 ? 1 : 2; }

uint64_t job_bytes(int mode, const bjob_t *j, int resident)
{
	const uint64_t nw = (uint64_t)(j->la + 31) / 32, nwb = (uint64_t)(j->lb + 31) / 32;
	uint64_t b = sizeof(dpg_pair_t) + 8 + 4;
	if (!resident) b += (uint64_t)(j->la + j->lb);
	if (j->dst) b += (uint64_t)j->lb * nw * planes(mode) * 4 + (uint64_t)(j->la + j->lb);
	if (j->edge) b += nwb * ew_bytes(mode);
	return b;
}

int cmp_job(const void *x, const void *y)
{
	const bjob_t *a = (const bjob_t *)x, *b = (const bjob_t *)y;
	if (a->cls != b->cls) return a->cls < b->cls ? -1 : 1;
	if (nc_class(a->nc) != nc_class(b->nc)) return nc_class(a->nc) < nc_class(b->nc) ? -1 : 1;
	if (a->lb != b->lb) return a->lb < b->lb ? -1 : 1;
	if (a->la != b->la) return a->la < b->la ? -1 : 1;
	return a->src < b->src ? -1 : a->src > b->src;
}

/* cmp_job's order for jobs that come in increasing src: a stable LSD radix sort on (class,
 * nc class, lb, la), 16 bits a pass, passes whose digit never changes skipped. qsort took
 * ~25 ms a block of 65,536 pairs of 150 bp (0.4 s of the 0.45 s of 1M pairs on an H100). */
rk_status_t sort_jobs(bjob_t *jobs, int64_t m)
{
	if (m < 2) return RK_OK;
	uint64_t *key = (uint64_t *)malloc(sizeof(uint64_t) * (size_t)m * 2);
	int64_t *ix = (int64_t *)malloc(sizeof(int64_t) * (size_t)m * 2);
	bjob_t *tmp = (bjob_t *)malloc(sizeof(bjob_t) * (size_t)m);
	int64_t *cnt = (int64_t *)malloc(sizeof(int64_t) << 16);
	rk_status_t st = RK_OK;
	if (!key || !ix || !tmp || !cnt) { rk_set_error("out of memory sorting %lld pairs", (long long)m); st = RK_ERES; goto done; }
	{
		uint64_t *k0 = key, *k1 = key + m, any = 0, all = ~0ull;
		int64_t *i0 = ix, *i1 = ix + m;
		for (int64_t q = 0; q < m; q++) {
			const bjob_t *j = &jobs[q];
			k0[q] = (uint64_t)j->cls << 46 | (uint64_t)nc_class(j->nc) << 44 | (uint64_t)j->lb << 13 | (uint64_t)j->la;
			i0[q] = q;
			any |= k0[q];
			all &= k0[q];
		}
		for (int sh = 0; sh < 64; sh += 16) {
			if (!(((any ^ all) >> sh) & 0xffff)) continue;   /* every key has the same digit */
			memset(cnt, 0, sizeof(int64_t) << 16);
			for (int64_t q = 0; q < m; q++) cnt[(k0[q] >> sh) & 0xffff]++;
			for (int64_t d = 0, acc = 0; d < (1 << 16); d++) { const int64_t c = cnt[d]; cnt[d] = acc; acc += c; }
			for (int64_t q = 0; q < m; q++) {
				const int64_t at = cnt[(k0[q] >> sh) & 0xffff]++;
				k1[at] = k0[q];
				i1[at] = i0[q];
			}
			uint64_t *tk = k0; k0 = k1; k1 = tk;
			int64_t *ti = i0; i0 = i1; i1 = ti;
		}
		for (int64_t q = 0; q < m; q++) tmp[q] = jobs[i0[q]];
		memcpy(jobs, tmp, sizeof *jobs * (size_t)m);
	}
done:
	free(key); free(ix); free(tmp); free(cnt);
	return st;
}

#define D_SLACK (8 * D_ALIGN)   /* arena bytes beyond the jobs': the alignment of its seven parts */

/* The arena of run_batch: what the jobs need, at most what is left of the budget, and 1 GB
 * when every job fits that; RK_ERES naming the largest job when it does not fit alone. */
static rk_status_t arena_size(const dctx_t *X, const bjob_t *jobs, int64_t m, int resident, const char *what, uint64_t *cap)
{
	const int mode = X->mode;
	const uint64_t slack = D_SLACK;
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
	*cap = total < avail ? total : avail;
	if (*cap > D_ARENA_MAX && maxjob + slack <= D_ARENA_MAX) *cap = D_ARENA_MAX;
	return RK_OK;
}

/* One chunk of a batch: jobs [s, s + n), of one class, on the host and in the arena. */
typedef struct {
	int64_t s, n;
	int64_t ncode, ncs, nops, nedge;   /* bytes of codes, words of column stores, ops, edge words */
	int ncmax, any_path;
	double t_pack;       /* -v: seconds packing its codes */
	size_t hcodes_cap;   /* hcodes is pinned (rgpu_pinned_get), of this size; 0: malloc'ed */
	dpg_pair_t *hd;
	int64_t *hval, *hopsoff, *hpidx, *hcoff;
	int32_t *hnops;
	uint8_t *hcodes, *hops, *hedge;
	aln_path_t **hdst;
	dpg_pair_t *dd;                    /* the arena's parts */
	int64_t *dval;
	int32_t *dnops;
	uint8_t *dcodes, *dops;
	uint32_t *dcs;
	void *dedge;
} bchunk_t;

static void chunk_free(bchunk_t *c)
{
	if (c->hcodes_cap) rgpu_pinned_put(c->hcodes, c->hcodes_cap);
	else free(c->hcodes);
	free(c->hd); free(c->hval); free(c->hnops); free(c->hopsoff); free(c->hdst); free(c->hpidx); free(c->hcoff);
	free(c->hops); free(c->hedge);
	memset(c, 0, sizeof *c);
}

/* the chunk from job s: the jobs after it of its class, as many as the arena and chunk_pairs
 * hold (at least one: every job fits the arena alone) */
static void chunk_jobs(bchunk_t *c, const bjob_t *jobs, int64_t s, int64_t m, int mode, int resident, uint64_t cap)
{
	const int64_t cap_pairs = tune_or(rgpu_dp_tune.chunk_pairs, D_CHUNK_PAIRS);
	int64_t e = s;
	uint64_t used = D_SLACK;
	c->s = s;
	c->ncmax = resident ? jobs[s].nc : 1;
	while (e < m && e - s < cap_pairs && jobs[e].cls == jobs[s].cls && nc_class(jobs[e].nc) == nc_class(jobs[s].nc)) {
		const uint64_t b = job_bytes(mode, &jobs[e], resident);
		if (used + b > cap) break;
		used += b;
		if (jobs[e].nc > c->ncmax) c->ncmax = jobs[e].nc;
		e++;
	}
	c->n = e - s;
}

/* the chunk's pairs on the host: where each one's codes, column store, ops and edge go */
static rk_status_t chunk_pairs(bchunk_t *c, const bjob_t *jobs, int mode, int resident)
{
	const int PL = planes(mode);
	const int64_t n = c->n;
	c->hd = (dpg_pair_t *)malloc(sizeof *c->hd * (size_t)n);
	c->hval = (int64_t *)malloc(sizeof *c->hval * (size_t)n);
	c->hnops = (int32_t *)malloc(sizeof *c->hnops * (size_t)n);
	c->hopsoff = (int64_t *)malloc(sizeof *c->hopsoff * (size_t)n);
	c->hdst = (aln_path_t **)calloc((size_t)n, sizeof *c->hdst);
	if (!resident) {
		c->hpidx = (int64_t *)malloc(sizeof *c->hpidx * (size_t)n);
		c->hcoff = (int64_t *)malloc(sizeof *c->hcoff * (size_t)n);
	}
	if (!c->hd || !c->hval || !c->hnops || !c->hopsoff || !c->hdst || (!resident && (!c->hpidx || !c->hcoff))) {
		rk_set_error("out of memory for a batch of %lld pairs", (long long)n);
		return RK_ERES;
	}
	for (int64_t i = 0; i < n; i++) {
		const bjob_t *j = &jobs[c->s + i];
		dpg_pair_t *d = &c->hd[i];
		d->la = (int32_t)j->la;
		d->lb = (int32_t)j->lb;
		if (resident) {
			d->a = j->a;
			d->b = j->b;
		} else {
			d->a = c->ncode;
			d->b = c->ncode + j->la;
			c->hpidx[i] = j->src;
			c->hcoff[i] = c->ncode;
			c->ncode += j->la + j->lb;
		}
		d->cs = d->ops = d->bot = -1;
		c->hopsoff[i] = 0;
		if (j->dst) {
			d->cs = c->ncs;
			c->ncs += j->lb * ((j->la + 31) / 32) * PL;
			d->ops = c->hopsoff[i] = c->nops;
			c->nops += j->la + j->lb;
			c->hdst[i] = j->dst;
			c->any_path = 1;
		}
		if (j->edge) {
			d->bot = c->nedge;
			c->nedge += (j->lb + 31) / 32;
		}
	}
	return RK_OK;
}

/* the chunk's parts of the arena: pairs | values | op counts | codes | column stores | ops | edges */
static rk_status_t chunk_place(bchunk_t *c, void *arena, uint64_t cap, int mode)
{
	const int EWB = ew_bytes(mode);
	const int64_t n = c->n;
	char *base = (char *)arena;
	int64_t off = 0;
	c->dd = (dpg_pair_t *)(base + off); off = up(off + (int64_t)sizeof *c->hd * n, D_ALIGN);
	c->dval = (int64_t *)(base + off); off = up(off + 8 * n, D_ALIGN);
	c->dnops = (int32_t *)(base + off); off = up(off + 4 * n, D_ALIGN);
	c->dcodes = (uint8_t *)(base + off); off = up(off + c->ncode, D_ALIGN);
	c->dcs = (uint32_t *)(base + off); off = up(off + 4 * c->ncs, D_ALIGN);
	c->dops = (uint8_t *)(base + off); off = up(off + c->nops, D_ALIGN);
	c->dedge = base + off; off = up(off + (int64_t)EWB * c->nedge, D_ALIGN);
	if ((uint64_t)off > cap) {   /* cannot happen: slack covers the alignment */
		rk_set_error("internal error: batch arena overflow");
		return RK_ERES;
	}
	return RK_OK;
}

/* the chunk up (its codes packed first unless resident), its launches (the trace too when a
 * job wants a path), and its values, rows and ops back, waited for */
static rk_status_t chunk_run(dctx_t *X, bchunk_t *c, const bsrc_t *src, int cls)
{
	const int mode = X->mode, EWB = ew_bytes(mode), resident = !src->p;
	const int64_t n = c->n;
	rk_status_t st = RK_OK;
	if (!resident) {
		c->hcodes = (uint8_t *)rgpu_pinned_get((size_t)c->ncode, &c->hcodes_cap);
		if (!c->hcodes) c->hcodes = (uint8_t *)malloc((size_t)(c->ncode ? c->ncode : 1));
		if (!c->hcodes) { rk_set_error("out of memory packing %lld pairs", (long long)n); return RK_ERES; }
		const double t = rk_realtime();
		dpg_pack_many(src->p, c->hpidx, n, c->hcoff, c->hcodes, 0, X->threads);
		c->t_pack = rk_realtime() - t;
		CUDA_CHECK(cudaMemcpyAsync(c->dcodes, c->hcodes, (size_t)c->ncode, cudaMemcpyHostToDevice, X->rt.st));
	}
	CUDA_CHECK(cudaMemcpyAsync(c->dd, c->hd, sizeof *c->hd * (size_t)n, cudaMemcpyHostToDevice, X->rt.st));
	if (c->nops) {
		/* a path is shorter than its la + lb slots, and pairs without a path write no op
		 * count: the copies back read whole ranges, so none of it may be left unwritten */
		CUDA_CHECK(cudaMemsetAsync(c->dops, 0, (size_t)c->nops, X->rt.st));
		CUDA_CHECK(cudaMemsetAsync(c->dnops, 0, 4 * (size_t)n, X->rt.st));
	}
	{
		dpg_batch_t bp;
		bp.pairs = c->dd;
		bp.n = n;
		bp.codes = resident ? src->dcodes : c->dcodes;
		bp.nc = c->ncmax;
		bp.val = c->dval;
		bp.cs = c->ncs ? c->dcs : 0;
		bp.bot = c->nedge ? c->dedge : 0;
		bp.ops = c->nops ? c->dops : 0;
		bp.nops = c->dnops;
		dpg_batch_job_t ba = { mode, cls, &bp };
		if ((st = rgpu_rt_timed(&X->rt, dpg_batch_job_fn, &ba)) != RK_OK) return st;
		if (c->any_path) {
			trace_arg_t ta = { mode, &bp };
			if ((st = rgpu_rt_timed(&X->rt, trace_fn, &ta)) != RK_OK) return st;
		}
	}
	CUDA_CHECK(cudaMemcpyAsync(c->hval, c->dval, 8 * (size_t)n, cudaMemcpyDeviceToHost, X->rt.st));
	if (c->nedge) {
		c->hedge = (uint8_t *)malloc((size_t)(EWB * c->nedge));
		if (!c->hedge) { rk_set_error("out of memory for the rows of a batch"); return RK_ERES; }
		CUDA_CHECK(cudaMemcpyAsync(c->hedge, c->dedge, (size_t)(EWB * c->nedge), cudaMemcpyDeviceToHost, X->rt.st));
	}
	if (c->nops) {
		c->hops = (uint8_t *)malloc((size_t)c->nops);
		if (!c->hops) { rk_set_error("out of memory for the paths of a batch"); return RK_ERES; }
		CUDA_CHECK(cudaMemcpyAsync(c->hnops, c->dnops, 4 * (size_t)n, cudaMemcpyDeviceToHost, X->rt.st));
		CUDA_CHECK(cudaMemcpyAsync(c->hops, c->dops, (size_t)c->nops, cudaMemcpyDeviceToHost, X->rt.st));
	}
	CUDA_CHECK(cudaStreamSynchronize(X->rt.st));
	return RK_OK;
}

/* the chunk's values, bottom rows and paths to its jobs */
static rk_status_t chunk_results(const dctx_t *X, bchunk_t *c, const bjob_t *jobs)
{
	const int EWB = ew_bytes(X->mode);
	for (int64_t i = 0; i < c->n; i++) {
		const bjob_t *j = &jobs[c->s + i];
		if (j->val) *j->val = c->hval[i];
		if (j->edge) memcpy(j->edge, c->hedge + (size_t)EWB * c->hd[i].bot, (size_t)(EWB * ((j->lb + 31) / 32)));
		if (!j->dst) c->hnops[i] = 0;
	}
	if (c->nops) return dpg_ops_path_many(c->hops, c->hopsoff, c->hnops, c->hdst, c->n, X->threads);
	return RK_OK;
}

/* Runs jobs[0, m) (sorted by cmp_job) in chunks of consecutive jobs of one class. */
rk_status_t run_batch(dctx_t *X, bjob_t *jobs, int64_t m, const bsrc_t *src, const char *what)
{
	if (m <= 0) return RK_OK;
	const int mode = X->mode, resident = !src->p;
	uint64_t cap = 0;
	dbuf_t arena = { 0, 0 };
	rk_status_t st;
	const double t0 = rk_realtime();
	double t_up = 0, t_res = 0, t_pack = 0;   /* -v: where a batch's host time goes */
	if ((st = arena_size(X, jobs, m, resident, what, &cap)) || (st = dalloc(X, &arena, cap, what))) return st;
	const double t_alloc = rk_realtime() - t0;
	bchunk_t c;
	memset(&c, 0, sizeof c);
	rk_progress_t prog;
	const int show = !resident && m >= (1 << 16);
	if (show) rk_progress_start(&prog, mode == DPG_LEV ? "lev: GPU pairs" : "lcs: GPU pairs", (double)m);
	for (int64_t s = 0; s < m;) {
		chunk_jobs(&c, jobs, s, m, mode, resident, cap);
		const double t1 = rk_realtime();
		if ((st = chunk_pairs(&c, jobs, mode, resident)) || (st = chunk_place(&c, arena.p, cap, mode)) ||
		    (st = chunk_run(X, &c, src, jobs[s].cls)))
			break;
		const double t2 = rk_realtime();
		if ((st = chunk_results(X, &c, jobs))) break;
		t_up += t2 - t1; t_res += rk_realtime() - t2; t_pack += c.t_pack;
		if (X->sp) X->sp->n_ichunk++;
		s += c.n;
		chunk_free(&c);
		if (show) rk_progress(&prog, (double)s);
	}
	if (show) rk_progress_end(&prog);
	chunk_free(&c);
	const double t3 = rk_realtime();
	dfree(X, &arena);
	rk_debug("gpu batch of %lld: arena %.1f ms, chunks up, run and back %.1f ms (packing %.1f), results %.1f ms, arena freed %.1f ms", (long long)m,
	         1e3 * t_alloc, 1e3 * t_up, 1e3 * t_pack, 1e3 * t_res, 1e3 * (rk_realtime() - t3));
	return st;
}
