/* lcs on the GPU: the entry points over the driver both modes share (dpg_gpu.cu). */
#include "gpu/lcs_gpu.h"
#include "gpu/dpg_gpu.h"

extern "C" rk_status_t rgpu_lcs_batch(const lcs_opt_t *o, const aln_pair_t *p, int64_t n, const rgpu_opt_t *g,
                                      int64_t *len, aln_path_t *paths, rgpu_stats_t *st)
{
	(void)o;   /* o->path is what paths != NULL says; threads and SIMD level are the CPU's */
	return rgpu_dp_batch(RGPU_DP_LCS, -1, p, n, g, len, paths, st);
}

extern "C" rk_status_t rgpu_lcs_slab(const rgpu_opt_t *g, const char *a, int64_t la, const char *b, int64_t lb, int rev,
                                     const int64_t *band, uint64_t *hc, uint64_t *v, rgpu_stats_t *st)
{
	return rgpu_dp_slab(RGPU_DP_LCS, g, a, la, b, lb, rev, band, hc, 0, v, 0, st);
}

extern "C" rk_status_t rgpu_lcs_half(const rgpu_opt_t *g, const char *a, int64_t la, const char *b, int64_t lb, int64_t c, int rev,
                                     int64_t bound, int64_t band[2], uint64_t *hc, uint64_t *v, rgpu_stats_t *st)
{
	return rgpu_dp_half(RGPU_DP_LCS, g, a, la, b, lb, c, rev, bound, band, hc, 0, v, 0, st);
}
