/* A pair split over ranks (src/mpi/split/): the band of the whole pair (rgpu_dp_band),
 * the slab pass from given edges (rgpu_dp_slab) and one rank's half, both in one context
 * (rgpu_dp_half). One pass each over the long runner (dpg_long.cu); where the split falls and
 * how the halves meet is the caller's. */
#include "gpu/dpg_drv.h"

/* the band of a long pair whose codes are at dc (A at 0, B at la): rgpu_dp_band's */
static rk_status_t band_of(dctx_t *X, const uint8_t *dc, int nc, const char *a, int64_t la, const char *b, int64_t lb, int64_t k,
                           int64_t band[2], int64_t *ub)
{
	int exact = 0;
	band[0] = -la;
	band[1] = lb;
	*ub = -1;
	rk_status_t st = long_bound(X, dc, nc, a, la, b, lb, ub, &exact);
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
	st = band_of(&X, (const uint8_t *)dc.p, nc, a, la, b, lb, k, band, &ub);
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
	if ((st = band_of(&X, (const uint8_t *)dc.p, nc, a, la, b, lb, k, band, &ub))) goto done;
	t_band = rk_realtime() - t0;
	if (g->ready) g->ready(g->ready_arg);
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
