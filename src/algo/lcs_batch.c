/* lcs batches: see aln_batch.c (costs are indel costs, turned into lengths here). */
#include <omp.h>
#include "algo/lcs.h"
#include "algo/aln_dp.h"

rk_status_t lcs_batch(const lcs_opt_t *o, const aln_pair_t *p, int64_t n, int64_t *len, aln_path_t *paths)
{
	const int T = o->n_threads > 0 ? o->n_threads : omp_get_max_threads();
	rk_status_t st = aln_batch(&aln_lcs, p, n, -1, aln_simd_level(o->simd), T, len, paths);
	if (st) return st;
	for (int64_t i = 0; i < n; i++) len[i] = (p[i].la + p[i].lb - len[i]) / 2;
	return RK_OK;
}
