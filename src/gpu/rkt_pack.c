/* Host side of the GPU Rkt-LCS layout (rkt_gpu.h): slots sorted by length, j-set rows of
 * not-equal and exists planes. */
#include <stdlib.h>
#include <string.h>
#include <omp.h>
#include "gpu/rkt_pack.h"

void rg_pack_free(rg_pack_t *p)
{
	free(p->slot_of); free(p->read_of); free(p->jrow); free(p->jlen); free(p->jmixed); free(p->ne);
	memset(p, 0, sizeof *p);
}

rk_status_t rg_pack_build(rg_pack_t *p, const rkt_set_t *s, int n_threads)
{
	int64_t m = s->n, L = s->max_len;
	memset(p, 0, sizeof *p);
	p->n_sets = (m + RG_SET - 1) / RG_SET;
	int64_t *cnt = calloc((size_t)L + 2, sizeof(int64_t));
	int32_t *by_slot = malloc(sizeof(int32_t) * (size_t)(p->n_sets * RG_SET + 1));
	p->slot_of = malloc(sizeof(int32_t) * (size_t)(m ? m : 1));
	p->jrow = malloc(sizeof(int64_t) * (size_t)(p->n_sets + 1));
	p->jlen = malloc(sizeof(int32_t) * (size_t)(p->n_sets + 1));
	p->jmixed = malloc((size_t)p->n_sets + 1);
	if (!cnt || !by_slot || !p->slot_of || !p->jrow || !p->jlen || !p->jmixed) goto oom;
	/* counting sort, longest first, stable: j-sets hold reads of one length where possible */
	for (int64_t j = 0; j < m; j++) cnt[L - s->len[j]]++;
	for (int64_t v = 0, acc = 0; v <= L; v++) { int64_t c = cnt[v]; cnt[v] = acc; acc += c; }
	for (int64_t j = 0; j < m; j++) {
		int64_t q = cnt[L - s->len[j]]++;
		by_slot[q] = (int32_t)j;
		p->slot_of[j] = (int32_t)q;
	}
	for (int64_t q = m; q < p->n_sets * RG_SET; q++) by_slot[q] = -1;
	p->jrow[0] = 0;
	for (int64_t g = 0; g < p->n_sets; g++) {
		int64_t first = g * RG_SET, last = first + RG_SET - 1;
		p->jlen[g] = s->len[by_slot[first]];
		p->jmixed[g] = last >= m || s->len[by_slot[last]] != p->jlen[g];
		p->jrow[g + 1] = p->jrow[g] + p->jlen[g];
	}
	p->n_rows = p->jrow[p->n_sets];
	p->ne = malloc(sizeof(uint32_t) * RG_ROW * (size_t)(p->n_rows ? p->n_rows : 1));
	if (!p->ne) goto oom;
	/* one 32-read word (j-set, lane) per iteration, so no two threads write the same word */
#pragma omp parallel for schedule(dynamic, 16) num_threads(n_threads > 0 ? n_threads : omp_get_max_threads())
	for (int64_t wd = 0; wd < p->n_sets * 32; wd++) {
		int64_t g = wd / 32, lane = wd % 32;
		for (int64_t r = p->jrow[g]; r < p->jrow[g + 1]; r++) {
			uint32_t *row = p->ne + (size_t)r * RG_ROW + lane;
			for (int c = 0; c < RG_EX_PLANE; c++) row[c * 32] = 0xffffffffu;
			row[RG_EX_PLANE * 32] = 0;
		}
		for (int b = 0; b < 32; b++) {
			int64_t q = wd * 32 + b;
			if (q >= m) break;
			int64_t j = by_slot[q];
			const uint8_t *code = s->code + s->off[j];
			for (int32_t pos = 0; pos < s->len[j]; pos++) {
				uint32_t *row = p->ne + (size_t)(p->jrow[g] + pos) * RG_ROW + lane;
				if (code[pos] < 4) row[code[pos] * 32] &= ~(1u << b);
				row[RG_EX_PLANE * 32] |= 1u << b;
			}
		}
	}
	free(cnt);
	p->read_of = by_slot;
	return RK_OK;
oom:
	free(cnt); free(by_slot);
	rg_pack_free(p);
	rk_set_error("out of memory packing %lld reads for the GPU", (long long)m);
	return RK_ERES;
}

void rg_par_memcpy(void *dst, const void *src, size_t n, int n_threads)
{
	const size_t blk = 1 << 22;
	const int64_t nb = (int64_t)((n + blk - 1) / blk);
#pragma omp parallel for schedule(static) num_threads(n_threads > 0 ? n_threads : omp_get_max_threads())
	for (int64_t b = 0; b < nb; b++) {
		const size_t o = (size_t)b * blk;
		memcpy((char *)dst + o, (const char *)src + o, n - o < blk ? n - o : blk);
	}
}
