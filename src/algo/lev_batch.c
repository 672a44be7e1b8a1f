/* lev batches: see aln_batch.c. */
#include <omp.h>
#include "algo/lev.h"
#include "algo/aln_dp.h"

rk_status_t lev_batch(const lev_opt_t *o, const aln_pair_t *p, int64_t n, int64_t *dist, aln_path_t *paths)
{
	return lev_batch_reads(o, p, 0, n, dist, paths);
}

rk_status_t lev_batch_reads(const lev_opt_t *o, const aln_pair_t *p, const aln_rsrc_t *r, int64_t n, int64_t *dist,
                            aln_path_t *paths)
{
	const int T = o->n_threads > 0 ? o->n_threads : omp_get_max_threads();
	return aln_batch_reads(&aln_lev, p, r, n, o->k, aln_simd_level(o->simd), T, dist, paths);
}
