/* lev and lcs on the GPU, host side, both modes (lev_gpu.cu and lcs_gpu.cu are the entry
 * points): rgpu_dp_batch checks the pairs and routes each one to a strategy (dpg_drv.h lists
 * the files); the split pair's band, slab and half are dpg_slab.cu's.
 *
 * Routing: a pair with an empty side is answered here; otherwise A of at most 4096 rows (and
 * not too many cells) goes to the batch kernel, many pairs per launch, sorted by shape so that
 * a warp's pairs have similar lengths (dpg_batch.cu); longer pairs go to the long kernel: their
 * values several per launch when they fit (dpg_value.cu), else one at a time, and their paths
 * by Hirschberg (dpg_hirsch.cu). What each strategy does on the device is its file's; this one
 * decides only which runs, and turns costs above -k into -1. */
#include "gpu/dpg_drv.h"

extern "C" {
rgpu_dp_tune_t rgpu_dp_tune;
}
static_assert((int)RGPU_DP_LEV == (int)DPG_LEV && (int)RGPU_DP_LCS == (int)DPG_LCS, "one mode numbering");

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
	double t_ctx = 0, t_sort = 0;
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
		const double t_nc0 = rk_realtime();
		dpg_nc_many(p, idx, nj, X.threads, nc);
		const double t_nc = rk_realtime() - t_nc0;
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
		const double t_s0 = rk_realtime();
		if ((st = sort_jobs(jobs, m))) goto done;
		t_sort = rk_realtime() - t0;
		rk_debug("gpu %s: symbols counted in %.1f ms, jobs sorted in %.1f ms", mode == DPG_LEV ? "lev" : "lcs", 1e3 * t_nc,
		         1e3 * (rk_realtime() - t_s0));
		bsrc_t bs;
		bs.p = p;
		bs.dcodes = 0;
		if ((st = run_batch(&X, jobs, m, &bs, "a batch of pairs"))) goto done;
		rk_debug("gpu %s: %lld batch pairs: device ready at %.3f s, jobs sorted at %.3f s, batches done at %.3f s (kernels %.3f s)",
		         mode == DPG_LEV ? "lev" : "lcs", (long long)m, t_ctx, t_sort, rk_realtime() - t0, sp->kernel_s);
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
