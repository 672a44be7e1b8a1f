/* lev on the GPU: the entry points over the driver both modes share (dpg_gpu.cu). */
#include "gpu/lev_gpu.h"
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
