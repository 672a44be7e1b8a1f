/* Occurrences of the winner: every read j != i that supports s_i[pos, pos+len). */
#include <stdlib.h>
#include <omp.h>
#include "algo/rkt.h"

rk_status_t rkt_occurrences(const rkt_opt_t *o, const rkt_set_t *s, int64_t i, int64_t pos, int64_t len,
                            rkt_occ_t **occ, int64_t *n_occ)
{
	int64_t m = s->n;
	rkt_occ_t *v = malloc(sizeof(rkt_occ_t) * (size_t)(m > 0 ? m : 1));
	if (!v) { rk_set_error("out of memory"); return RK_ERES; }
	const uint8_t *a = s->code + s->off[i] + pos;
	int nth = o->n_threads > 0 ? o->n_threads : 0;
#pragma omp parallel for schedule(dynamic, 256) num_threads(nth > 0 ? nth : omp_get_max_threads())
	for (int64_t j = 0; j < m; j++) {
		v[j].j = -1;
		if (j == i) continue;
		const uint8_t *b = s->code + s->off[j];
		for (int64_t y = 0; y + len <= s->len[j]; y++) {
			int64_t mm = 0;
			for (int64_t p = 0; p < len && mm <= o->k; p++)
				mm += a[p] != b[y + p] || a[p] > 3;
			if (mm <= o->k) { v[j].j = j; v[j].y = y; v[j].mm = mm; break; }
		}
	}
	int64_t n = 0;
	for (int64_t j = 0; j < m; j++)
		if (v[j].j >= 0) v[n++] = v[j];
	*occ = v;
	*n_occ = n;
	return RK_OK;
}
