/* lcs mode entry points: the lev machinery with the indel cost (cost = la + lb - 2 lcs). */
#include <stdlib.h>
#include <string.h>
#include <omp.h>
#include "algo/lcs.h"
#include "algo/aln_dp.h"

void lcs_opt_init(lcs_opt_t *o)
{
	memset(o, 0, sizeof *o);
	o->n_threads = 1;
	o->simd = -1;
}

rk_status_t lcs_pair(const lcs_opt_t *o, const char *a, int64_t la, const char *b, int64_t lb, int64_t *len,
                     aln_path_t *path)
{
	*len = 0;
	if (la < 0 || lb < 0 || (la && !a) || (lb && !b) || (o->path && !path)) {
		rk_set_error("lcs_pair: bad arguments");
		return RK_EINPUT;
	}
	const int simd = aln_simd_level(o->simd), T = o->n_threads > 0 ? o->n_threads : omp_get_max_threads();
	int64_t cost = la + lb;
	rk_status_t st = RK_OK;
	if (o->path) {
		path->n = 0;
		st = aln_hirsch(&aln_lcs, a, la, b, lb, -1, simd, T, path, &cost);
	} else if (la && lb) {
		aln_prep_t p;
		st = aln_prep_init(&p, a, la, 0, b, lb, 0, simd);
		if (st) return st;
		st = aln_cost(&aln_lcs, &p, a, b, -1, simd, T, &cost);
		aln_prep_free(&p);
	}
	if (!st) *len = (la + lb - cost) / 2;
	return st;
}

int64_t lcs_path_subseq(const aln_path_t *path, const char *a, char *buf, int64_t size)
{
	int64_t i = 0, n = 0;
	for (int64_t q = 0; q < path->n; q++) {
		int op = (int)(path->run[q] & 7);
		int64_t l = (int64_t)(path->run[q] >> 3);
		if (op == ALN_M) {
			for (int64_t t = 0; t < l; t++, n++)
				if (n < size - 1) buf[n] = a[i + t];
		}
		if (op != ALN_D) i += l;
	}
	if (size > 0) buf[n < size ? n : size - 1] = 0;
	return n;
}
