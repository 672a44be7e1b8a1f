/* lev on the GPU: the entry points over the driver both modes share (dpg_gpu.cu). */
#include "gpu/lev_gpu.h"
#include <stdlib.h>
#include <string.h>
#include "gpu/dpg_gpu.h"

extern "C" rk_status_t rgpu_lev_batch(const lev_opt_t *o, const aln_pair_t *p, int64_t n, const rgpu_opt_t *g,
                                      int64_t *dist, aln_path_t *paths, rgpu_stats_t *st)
{
	return rgpu_dp_batch(RGPU_DP_LEV, o->k, p, n, g, dist, paths, st);
}

extern "C" rk_status_t rgpu_lev_slab(const rgpu_opt_t *g, const char *a, int64_t la, const char *b, int64_t lb, int rev,
                                     const int64_t *band, uint64_t *hp, uint64_t *hm, uint64_t *pv, uint64_t *mv, rgpu_stats_t *st)
{
	return rgpu_dp_slab(RGPU_DP_LEV, g, a, la, b, lb, rev, band, hp, hm, pv, mv, st);
}

extern "C" rk_status_t rgpu_lev_half(const rgpu_opt_t *g, const char *a, int64_t la, const char *b, int64_t lb, int64_t c, int rev,
                                     int64_t k, int64_t band[2], uint64_t *hp, uint64_t *hm, uint64_t *pv, uint64_t *mv, rgpu_stats_t *st)
{
	return rgpu_dp_half(RGPU_DP_LEV, g, a, la, b, lb, c, rev, k, band, hp, hm, pv, mv, st);
}

/* the last row of A against B (both reversed with rev) under the free top edge (infix: 0
 * everywhere; prefix: j), on the device; its best value and columns on the host */
static rk_status_t lev_mode_row(const rgpu_opt_t *g, int infix, const char *a, int64_t la, const char *b, int64_t lb, int rev,
                                int64_t *best, aln_ends_t *e, rgpu_stats_t *st)
{
	if (la == 0 || lb == 0) return lev_lastrow(infix, a, la, b, lb, rev, -1, 0, best, e);   /* no cell to compute */
	const int64_t nw = (lb + 63) / 64;
	uint64_t *h = (uint64_t *)malloc(2 * (size_t)nw * sizeof *h);
	if (!h) { rk_set_error("out of memory for the edge of a %lld bp sequence", (long long)lb); return RK_ERES; }
	for (int64_t x = 0; x < nw; x++) h[x] = infix ? 0 : ~0ull, h[nw + x] = 0;
	rk_status_t s = rgpu_lev_slab(g, a, la, b, lb, rev, 0, h, h + nw, 0, 0, st);
	if (!s) s = lev_row_best(h, h + nw, lb, la, best, e);
	free(h);
	return s;
}

static rk_status_t lev_mode_one(const lev_opt_t *o, const aln_pair_t *p, const rgpu_opt_t *g, int64_t *dist, aln_path_t *path,
                                aln_ends_t *e, rgpu_stats_t *st)
{
	*dist = -1;
	e->n = e->start = 0;
	if (path) path->n = 0;
	rk_status_t s = lev_mode_row(g, o->mode == LEV_INFIX, p->a, p->la, p->b, p->lb, 0, dist, e, st);
	if (!s && o->k >= 0 && *dist > o->k) { *dist = -1; e->n = 0; }
	if (s || *dist < 0 || !path) return s;
	const int64_t end = e->end[0];
	if (o->mode == LEV_INFIX && *dist > 0) {   /* the longest piece ending there: a prefix pass reversed */
		aln_ends_t rv;
		memset(&rv, 0, sizeof rv);
		int64_t best;
		s = lev_mode_row(g, 0, p->a, p->la, p->b, end, 1, &best, &rv, st);
		if (!s && (best != *dist || !rv.n)) { rk_set_error("rgpu_lev_mode_batch: the reverse pass disagrees"); s = RK_ERES; }
		if (!s) e->start = end - rv.end[rv.n - 1];
		aln_ends_free(&rv);
		if (s) return s;
	} else if (o->mode == LEV_INFIX)
		e->start = end - p->la;
	lev_opt_t go = *o;
	go.mode = LEV_GLOBAL;
	go.k = *dist;
	aln_pair_t piece = { p->a, p->b + e->start, p->la, end - e->start };
	int64_t d;
	if ((s = rgpu_lev_batch(&go, &piece, 1, g, &d, path, st))) return s;
	if (d != *dist) { rk_set_error("rgpu_lev_mode_batch: the path's cost %lld is not the distance %lld", (long long)d, (long long)*dist); return RK_ERES; }
	return RK_OK;
}

extern "C" rk_status_t rgpu_lev_mode_batch(const lev_opt_t *o, const aln_pair_t *p, int64_t n, const rgpu_opt_t *g, int64_t *dist,
                                           aln_path_t *paths, aln_ends_t *ends, rgpu_stats_t *st)
{
	for (int64_t q = 0; q < n; q++) {
		rk_status_t s = lev_mode_one(o, &p[q], g, &dist[q], paths ? &paths[q] : 0, &ends[q], st);
		if (s) return s;
	}
	return RK_OK;
}
