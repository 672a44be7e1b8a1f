/* The batch runner: short pairs (A of at most 4096 rows), many per launch of the batch kernel,
 * in chunks of one class (shape) each within one device arena of min(budget, 1 GB, what the
 * jobs need); per job a value, a bottom row, or a path traced on the device from the column
 * store. It takes the jobs as given: which pairs are jobs (rgpu_dp_batch's routing, the
 * sub-problems of Hirschberg) is decided by the callers. */
#include "gpu/dpg_drv.h"

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

/* Runs jobs[0, m) (sorted by cmp_job) in chunks of consecutive jobs of one class. */
rk_status_t run_batch(dctx_t *X, bjob_t *jobs, int64_t m, const bsrc_t *src, const char *what)
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
