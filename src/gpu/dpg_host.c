/* Host helpers of the lev/lcs GPU driver: see dpg_host.h. */
#include <stdlib.h>
#include <string.h>
#include <omp.h>
#include "gpu/dpg_host.h"
#include "gpu/dpg_kern.h"
#include "algo/split.h"

static inline int pop64(uint64_t x) { return __builtin_popcountll(x); }

int dpg_map(const char *a, int64_t la, uint8_t map[256])
{
	const uint8_t *u = (const uint8_t *)a;
	/* plain stores into two tables: no chain of read-modify-writes (10 Mb: 2.8 ms, 5.6 with bit sets) */
	uint8_t s0[256] = { 0 }, s1[256] = { 0 };
	int64_t i = 0;
	for (; i + 2 <= la; i += 2) { s0[u[i]] = 1; s1[u[i + 1]] = 1; }
	if (i < la) s0[u[i]] = 1;
	int n = 0;
	for (int c = 0; c < 256; c++)
		if (s0[c] | s1[c]) map[c] = (uint8_t)n++;
	for (int c = 0; c < 256; c++)
		if (!(s0[c] | s1[c])) map[c] = (uint8_t)n;   /* n < 256 here: some byte is absent */
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

void dpg_gather_at(const char *const *seqs, const int64_t *lens, const int64_t *off, int64_t n, int64_t base, uint8_t *buf, int threads)
{
	#pragma omp parallel for schedule(dynamic, 256) num_threads(nthreads(threads))
	for (int64_t i = 0; i < n; i++) memcpy(buf + (off[i] - base), seqs[i], (size_t)lens[i]);
}

int dpg_map_seen(const uint64_t seen[4], uint8_t map[256])
{
	int nsym = 0;
	for (int c = 0; c < 256; c++) map[c] = seen[c >> 6] >> (c & 63) & 1 ? (uint8_t)nsym++ : 0;
	for (int c = 0; c < 256; c++) if (!(seen[c >> 6] >> (c & 63) & 1)) map[c] = (uint8_t)(nsym < 256 ? nsym : 0);
	return nsym < 256 ? nsym + 1 : 256;
}

void dpg_pack_many(const aln_pair_t *p, const int64_t *idx, int64_t m, const int64_t *off, uint8_t *buf, int rev, int threads)
{
	/* with rev: a few long pairs (a launch's group), one each */
	#pragma omp parallel for schedule(dynamic, rev ? 1 : 256) num_threads(nthreads(threads))
	for (int64_t i = 0; i < m; i++) {
		const aln_pair_t *q = &p[idx[i]];
		uint8_t map[256];
		dpg_map(q->a, q->la, map);
		dpg_encode(map, q->a, q->la, 0, buf + off[i]);
		dpg_encode(map, q->b, q->lb, 0, buf + off[i] + q->la);
		if (rev) {
			dpg_encode(map, q->a, q->la, 1, buf + off[i] + q->la + q->lb);
			dpg_encode(map, q->b, q->lb, 1, buf + off[i] + 2 * q->la + q->lb);
		}
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

/* sum of the cost deltas of columns q in [q0, q1) (slots) */
static int64_t cost_range(int mode, const void *e, int64_t q0, int64_t q1)
{
	if (!e) return q1 > q0 ? q1 - q0 : 0;
	int64_t s = 0;
	while (q0 < q1 && (q0 & 31)) s += dcost(mode, e, q0++);
	for (; q0 + 32 <= q1; q0 += 32) {
		if (mode == DPG_LEV) {
			const uint64_t w = ((const uint64_t *)e)[q0 >> 5];
			s += pop64(w & 0x5555555555555555ull) - pop64(w & 0xaaaaaaaaaaaaaaaaull);
		} else {
			s += 32 - 2 * pop64(((const uint32_t *)e)[q0 >> 5]);
		}
	}
	while (q0 < q1) s += dcost(mode, e, q0++);
	return s;
}

int64_t dpg_edge_cost(int mode, const void *e, int64_t cols)
{
	return cost_range(mode, e, 0, cols);
}

static inline int64_t i64max(int64_t a, int64_t b) { return a > b ? a : b; }
static inline int64_t i64min(int64_t a, int64_t b) { return a < b ? a : b; }

void dpg_cross(int mode, const dpg_row_t *F, const dpg_row_t *B, int64_t lb, uint8_t ai, const uint8_t *bc, dpg_cross_t *x)
{
	/* as cross_scan in src/algo/aln_path.c: F(j) = the cost of (0, 0) -> (is, j), known for j in
	 * [F->c0, F->c1]; B(j) = the cost of (is + 1, j) -> (la, lb), the reversed row's value at
	 * lb - j, known for j in [blo, bhi] */
	x->best = -1;
	const int64_t blo = lb - B->c1, bhi = lb - B->c0;
	const int64_t jlo = i64max(F->c0, blo - 1), jhi = i64min(F->c1, bhi);
	if (jlo > jhi) return;
	int64_t f = F->v0 + cost_range(mode, F->e, F->c0, jlo);
	int64_t bcur = B->v0 + cost_range(mode, B->e, B->c0, lb - i64max(jlo, blo));   /* B(max(jlo, blo)) */
	for (int64_t j = jlo; j <= jhi; j++) {
		if (j >= blo) {   /* vertical (is, j) -> (is + 1, j): A[is] alone */
			const int64_t t = f + 1 + bcur;
			if (x->best < 0 || t < x->best) {
				x->j = x->jn = j;
				x->op = ALN_I;
				x->cf = f;
				x->cb = bcur;
				x->best = t;
			}
		}
		if (j + 1 >= blo && j + 1 <= bhi && j < lb) {   /* diagonal (is, j) -> (is + 1, j + 1) */
			const int64_t bn = j >= blo ? bcur - dcost(mode, B->e, lb - j - 1) : bcur;
			const int eq = ai == bc[j];
			if (mode == DPG_LEV || eq) {
				const int64_t t = f + (mode == DPG_LEV && !eq) + bn;
				if (x->best < 0 || t < x->best) {
					x->j = j;
					x->jn = j + 1;
					x->op = mode == DPG_LEV ? (eq ? ALN_EQ : ALN_X) : ALN_M;
					x->cf = f;
					x->cb = bn;
					x->best = t;
				}
			}
			bcur = bn;
		}
		if (j < jhi) f += dcost(mode, F->e, j);
	}
}

void dpg_cross_many(int mode, dpg_cross_job_t *jobs, int64_t m, int threads)
{
	#pragma omp parallel for schedule(dynamic, 1) num_threads(nthreads(threads))
	for (int64_t i = 0; i < m; i++) dpg_cross(mode, &jobs[i].F, &jobs[i].B, jobs[i].lb, jobs[i].ai, jobs[i].bc, &jobs[i].x);
}

rk_status_t dpg_col_cross(int mode, const uint32_t *F, const uint32_t *R, int64_t la, int64_t lb, int64_t cs, int64_t *best,
                          int64_t *at, int64_t *cf)
{
	/* the device words as the CPU's column edges (the same bits in 64-bit words), for the one
	 * cut rule of split_meet_col */
	const int64_t nwp = (la + 31) / 32, n64 = (la + 63) / 64, P = mode == DPG_LEV ? 2 : 1;
	uint64_t *buf = (uint64_t *)calloc((size_t)(2 * P * n64 + 1), 8), *f[2] = { 0, 0 }, *r[2] = { 0, 0 };
	if (!buf) { rk_set_error("out of memory for the cut of a path"); return RK_ERES; }
	for (int64_t q = 0; q < P; q++) {
		f[q] = buf + q * n64;
		r[q] = buf + (P + q) * n64;
		memcpy(f[q], F + q * nwp, 4 * (size_t)nwp);
		memcpy(r[q], R + q * nwp, 4 * (size_t)nwp);
	}
	*at = split_meet_col(mode == DPG_LEV ? SPLIT_LEV : SPLIT_LCS, f, r, la, lb, cs, best, cf);
	free(buf);
	return RK_OK;
}

rk_status_t dpg_col_cost_many(int mode, const uint32_t *e, const int64_t *off, const int64_t *la, const int64_t *lb, int64_t m,
                              int64_t *best, int threads)
{
	int bad = 0;
	#pragma omp parallel for schedule(dynamic, 1) num_threads(nthreads(threads)) reduction(| : bad)
	for (int64_t i = 0; i < m; i++) {
		const int64_t nw = (mode == DPG_LEV ? 2 : 1) * ((la[i] + 31) / 32);
		int64_t at, cf;
		bad |= dpg_col_cross(mode, e + off[i], e + off[i] + nw, la[i], lb[i], lb[i] / 2, &best[i], &at, &cf) != RK_OK;
	}
	if (bad) { rk_set_error("out of memory for the cuts of %lld pairs", (long long)m); return RK_ERES; }
	return RK_OK;
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
