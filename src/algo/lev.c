/* lev mode entry points: one pair through the sweeps (distance) or Hirschberg (path), batches
 * of short pairs through the lane kernels of lev_batch.c. */
#include <stdlib.h>
#include <string.h>
#include <omp.h>
#include "algo/lev.h"
#include "algo/aln_dp.h"

void lev_opt_init(lev_opt_t *o)
{
	memset(o, 0, sizeof *o);
	o->k = -1;
	o->n_threads = 1;
	o->simd = -1;
}

rk_status_t lev_pair(const lev_opt_t *o, const char *a, int64_t la, const char *b, int64_t lb, int64_t *dist,
                     aln_path_t *path)
{
	*dist = -1;
	if (la < 0 || lb < 0 || (la && !a) || (lb && !b) || (o->path && !path)) {
		rk_set_error("lev_pair: bad arguments");
		return RK_EINPUT;
	}
	const int simd = aln_simd_level(o->simd), T = o->n_threads > 0 ? o->n_threads : omp_get_max_threads();
	if (o->path) {
		path->n = 0;
		rk_status_t st = aln_hirsch(&aln_lev, a, la, b, lb, o->k, simd, T, path, dist);
		if (!st && *dist < 0) path->n = 0;
		return st;
	}
	if (la == 0 || lb == 0) {
		*dist = o->k >= 0 && la + lb > o->k ? -1 : la + lb;
		return RK_OK;
	}
	aln_prep_t p;
	rk_status_t st = aln_prep_init(&p, a, la, 0, b, lb, 0, simd);
	if (st) return st;
	st = aln_cost(&aln_lev, &p, a, b, o->k, simd, T, dist);
	aln_prep_free(&p);
	return st;
}
