/* Host helpers of the lev/lcs GPU driver: see dpg_host.h. */
#include <stdlib.h>
#include <string.h>
#include <omp.h>
#include "gpu/dpg_host.h"
#include "gpu/dpg_kern.h"

static inline int pop64(uint64_t x) { return __builtin_popcountll(x); }

int dpg_map(const char *a, int64_t la, uint8_t map[256])
{
	const uint8_t *u = (const uint8_t *)a;
	uint64_t seen[4] = { 0, 0, 0, 0 };
	for (int64_t i = 0; i < la; i++) seen[u[i] >> 6] |= 1ull << (u[i] & 63);
	int n = 0;
	for (int c = 0; c < 256; c++)
		if (seen[c >> 6] >> (c & 63) & 1) map[c] = (uint8_t)n++;
	for (int c = 0; c < 256; c++)
		if (!(seen[c >> 6] >> (c & 63) & 1)) map[c] = (uint8_t)n;   /* n < 256 here: some byte is absent */
	return n < 256 ? n + 1 : 256;
}

void dpg_encode(const uint8_t map[256], const char *s, int64_t n, int rev, uint8_t *out)
{
	const uint8_t *u = (const uint8_t *)s;
	if (rev)
		for (int64_t i = 0; i < n; i++) out[i] = map[u[n - 1 - i]];
	else
		for (int64_t i = 0; i < n; i++) out[i] = map[u[i]];
}

static int nthreads(int t) { return t > 0 ? t : omp_get_max_threads(); }

void dpg_nc_many(const aln_pair_t *p, const int64_t *idx, int64_t m, int threads, int *nc)
{
	#pragma omp parallel for schedule(dynamic, 1024) num_threads(nthreads(threads))
	for (int64_t i = 0; i < m; i++) {
		const aln_pair_t *q = &p[idx[i]];
		const uint8_t *u = (const uint8_t *)q->a;
		uint64_t seen[4] = { 0, 0, 0, 0 };
		for (int64_t r = 0; r < q->la; r++) seen[u[r] >> 6] |= 1ull << (u[r] & 63);
		int n = pop64(seen[0]) + pop64(seen[1]) + pop64(seen[2]) + pop64(seen[3]);
		nc[i] = n < 256 ? n + 1 : 256;
	}
}

void dpg_pack_many(const aln_pair_t *p, const int64_t *idx, int64_t m, const int64_t *off, uint8_t *buf, int threads)
{
	#pragma omp parallel for schedule(dynamic, 256) num_threads(nthreads(threads))
	for (int64_t i = 0; i < m; i++) {
		const aln_pair_t *q = &p[idx[i]];
		uint8_t map[256];
		dpg_map(q->a, q->la, map);
		dpg_encode(map, q->a, q->la, 0, buf + off[i]);
		dpg_encode(map, q->b, q->lb, 0, buf + off[i] + q->la);
	}
}

rk_status_t dpg_ops_path(const uint8_t *ops, int64_t n, aln_path_t *path)
{
	for (int64_t q = n - 1; q >= 0;) {   /* runs, read backwards (as aln_trace) */
		int64_t e = q;
		while (e > 0 && ops[e - 1] == ops[q]) e--;
		rk_status_t st = aln_path_push(path, ops[q], q - e + 1);
		if (st) return st;
		q = e - 1;
	}
	return RK_OK;
}

rk_status_t dpg_ops_path_many(const uint8_t *ops, const int64_t *off, const int32_t *nops, aln_path_t *const *dst, int64_t m,
                              int threads)
{
	rk_status_t st = RK_OK;
	#pragma omp parallel for schedule(dynamic, 64) num_threads(nthreads(threads))
	for (int64_t i = 0; i < m; i++) {
		if (!dst[i]) continue;
		rk_status_t s = dpg_ops_path(ops + off[i], nops[i], dst[i]);
		if (s) {
			#pragma omp critical(dpg_ops_err)
			st = s;
		}
	}
	if (st) rk_set_error("out of memory for alignment paths");
	return st;
}

/* cost delta of column q of an edge */
static inline int dcost(int mode, const void *e, int64_t q)
{
	if (!e) return 1;
	if (mode == DPG_LEV) {
		const uint64_t w = ((const uint64_t *)e)[q >> 5];
		const int u = (int)(q & 31) * 2;
		return (int)(w >> u & 1) - (int)(w >> (u + 1) & 1);
	}
	return 1 - 2 * (int)(((const uint32_t *)e)[q >> 5] >> (q & 31) & 1);
}

int64_t dpg_edge_cost(int mode, const void *e, int64_t cols)
{
	if (!e) return cols;
	int64_t s = 0, k;
	for (k = 0; (k + 1) * 32 <= cols; k++) {
		if (mode == DPG_LEV) {
			const uint64_t w = ((const uint64_t *)e)[k];
			s += pop64(w & 0x5555555555555555ull) - pop64(w & 0xaaaaaaaaaaaaaaaaull);
		} else {
			s += 32 - 2 * pop64(((const uint32_t *)e)[k]);
		}
	}
	for (int64_t q = 32 * k; q < cols; q++) s += dcost(mode, e, q);
	return s;
}

void dpg_cross(int mode, const void *F, int64_t is, const void *B, int64_t brows, int64_t lb, uint8_t ai, const uint8_t *bc,
               dpg_cross_t *x)
{
	/* f = F(j): cost of (0, 0) -> (is, j); vb = cost of (is + 1, j) -> (la, lb), which is the
	 * reversed pass's value at its column lb - j (brows + its deltas up to there) */
	int64_t f = is, vb = brows + dpg_edge_cost(mode, B, lb);
	x->best = -1;
	for (int64_t j = 0;; j++) {
		const int64_t t = f + 1 + vb;   /* vertical (is, j) -> (is + 1, j): A[is] alone */
		if (x->best < 0 || t < x->best) {
			x->j = x->jn = j;
			x->op = ALN_I;
			x->cf = f;
			x->cb = vb;
			x->best = t;
		}
		if (j == lb) break;
		const int64_t vbn = vb - dcost(mode, B, lb - j - 1);   /* from (is + 1, j + 1) */
		const int eq = ai == bc[j];
		if (mode == DPG_LEV || eq) {   /* diagonal (is, j) -> (is + 1, j + 1) */
			const int64_t t2 = f + (mode == DPG_LEV && !eq) + vbn;
			if (t2 < x->best) {
				x->j = j;
				x->jn = j + 1;
				x->op = mode == DPG_LEV ? (eq ? ALN_EQ : ALN_X) : ALN_M;
				x->cf = f;
				x->cb = vbn;
				x->best = t2;
			}
		}
		vb = vbn;
		f += dcost(mode, F, j);
	}
}

void dpg_cross_many(int mode, dpg_cross_job_t *jobs, int64_t m, int threads)
{
	#pragma omp parallel for schedule(dynamic, 1) num_threads(nthreads(threads))
	for (int64_t i = 0; i < m; i++)
		dpg_cross(mode, jobs[i].F, jobs[i].is, jobs[i].B, jobs[i].brows, jobs[i].lb, jobs[i].ai, jobs[i].bc, &jobs[i].x);
}

/* bit i of x to bit 2 i, and back */
static inline uint64_t spread32(uint32_t x)
{
	uint64_t v = x;
	v = (v | v << 16) & 0x0000ffff0000ffffull;
	v = (v | v << 8) & 0x00ff00ff00ff00ffull;
	v = (v | v << 4) & 0x0f0f0f0f0f0f0f0full;
	v = (v | v << 2) & 0x3333333333333333ull;
	v = (v | v << 1) & 0x5555555555555555ull;
	return v;
}
static inline uint32_t squeeze64(uint64_t v)
{
	v &= 0x5555555555555555ull;
	v = (v | v >> 1) & 0x3333333333333333ull;
	v = (v | v >> 2) & 0x0f0f0f0f0f0f0f0full;
	v = (v | v >> 4) & 0x00ff00ff00ff00ffull;
	v = (v | v >> 8) & 0x0000ffff0000ffffull;
	v = (v | v >> 16) & 0x00000000ffffffffull;
	return (uint32_t)v;
}
/* 32-bit word k of a plane (little endian halves of the uint64 words) */
static inline uint32_t plane32(const uint64_t *h, int64_t k) { return (uint32_t)(h[k >> 1] >> (32 * (k & 1))); }
static inline void plane32_set(uint64_t *h, int64_t k, uint32_t v, uint32_t mask)
{
	const int sh = 32 * (int)(k & 1);
	const uint64_t m = (uint64_t)mask << sh;
	h[k >> 1] = (h[k >> 1] & ~m) | ((uint64_t)v << sh & m);
}

void dpg_edge_from_planes(int mode, const uint64_t *h0, const uint64_t *h1, int64_t cols, void *e)
{
	const int64_t nwb = (cols + 31) / 32;
	for (int64_t k = 0; k < nwb; k++) {
		if (mode == DPG_LEV) ((uint64_t *)e)[k] = spread32(plane32(h0, k)) | spread32(plane32(h1, k)) << 1;
		else ((uint32_t *)e)[k] = plane32(h0, k);
	}
}

void dpg_edge_to_planes(int mode, const void *e, int64_t cols, uint64_t *h0, uint64_t *h1)
{
	const int64_t nwb = (cols + 31) / 32;
	for (int64_t k = 0; k < nwb; k++) {
		const int n = cols - 32 * k >= 32 ? 32 : (int)(cols - 32 * k);
		const uint32_t mask = n == 32 ? ~0u : (1u << n) - 1;
		if (mode == DPG_LEV) {
			const uint64_t w = ((const uint64_t *)e)[k];
			plane32_set(h0, k, squeeze64(w), mask);
			plane32_set(h1, k, squeeze64(w >> 1), mask);
		} else {
			plane32_set(h0, k, ((const uint32_t *)e)[k], mask);
		}
	}
}
