/* Internal to the gpu layer: host-side helpers of the lev/lcs GPU driver, in C with OpenMP
 * (dpg_host.c): symbol codes, packing, the Hirschberg crossing scan, edge format conversions
 * and traced ops into path runs. */
#ifndef RGPU_DPG_HOST_H
#define RGPU_DPG_HOST_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#include "rktlcs.h"
#include "algo/aln.h"

/* The code map of A: its distinct bytes get 0 .. nsym - 1 (in byte order), every other byte
 * nsym. Returns nc, the codes a match table needs: nsym + 1, or 256 when A has all 256 bytes
 * (then no byte is absent). */
int dpg_map(const char *a, int64_t la, uint8_t map[256]);
/* codes of s[0, n) into out, reversed when rev */
void dpg_encode(const uint8_t map[256], const char *s, int64_t n, int rev, uint8_t *out);

/* nc (as dpg_map) of the A of pairs p[idx[i]], i < m, into nc[i]; threads <= 0: OpenMP default */
void dpg_nc_many(const aln_pair_t *p, const int64_t *idx, int64_t m, int threads, int *nc);
/* the bytes of reads [0, n) as they are, read r at buf + off[r] - base, on threads (dpg_reads.cu's stage) */
void dpg_gather_at(const char *const *seqs, const int64_t *lens, const int64_t *off, int64_t n, int64_t base, uint8_t *buf, int threads);
/* dpg_map's map and nc for the bytes in seen (bit c & 63 of word c >> 6; one map for a set of
 * reads, found on the device: dpg_reads.cu) */
int dpg_map_seen(const uint64_t seen[4], uint8_t map[256]);
/* the codes of A and then B of pairs p[idx[i]] at buf + off[i], each under its own map; with
 * rev, A reversed and B reversed after them (la + lb more bytes) */
void dpg_pack_many(const aln_pair_t *p, const int64_t *idx, int64_t m, const int64_t *off, uint8_t *buf, int rev, int threads);

/* Ops traced from the end, ops[0] being the last one, appended to path as runs. */
rk_status_t dpg_ops_path(const uint8_t *ops, int64_t n, aln_path_t *path);
/* many at once: ops + off[i], nops[i] of them, appended to *dst[i] (distinct paths) */
rk_status_t dpg_ops_path_many(const uint8_t *ops, const int64_t *off, const int32_t *nops, aln_path_t *const *dst, int64_t m,
                              int threads);

/* Sum of the cost deltas of the first cols columns of a bottom edge (device format, see
 * dpg_kern.h; NULL: the boundary of a pass with no rows, +1 per column). Costs: lev the
 * distance, lcs the indel cost i + j - 2 L (a carry is -1, no carry +1). */
int64_t dpg_edge_cost(int mode, const void *e, int64_t cols);

/* A bottom row of a pass, for the crossing scan: its cost v0 at column c0 and the deltas of
 * columns c0 + 1 .. c1 in the device edge words e (column c + 1 in slot c of word c / 32); e
 * NULL: a pass with no rows (+1 per column). Costs: lev the distance, lcs the indel cost. */
typedef struct {
	const void *e;
	int64_t c0, c1, v0;
} dpg_row_t;

/* The Hirschberg crossing of a sub-problem of lb columns split after row `is` (aln.h, rule c),
 * exactly the CPU's cross_scan: F, the bottom row of its rows [0, is) forward, B, the bottom row
 * of its rows (is, la) with A and B reversed (B's column j' is the sub-problem's lb - j'); where
 * a row was pruned to a band, outside [c0, c1] no path within the bound crosses. ai: the code of
 * row is; bc: B's codes. Result: the optimal crossing edge of the smallest column, vertical
 * first: (is, j) -> (is + 1, jn) with op ALN_I (jn = j) or the diagonal (jn = j + 1); cf, cb the
 * costs of the two sides, best their total with the edge (-1: the rows share no column). */
typedef struct {
	int64_t j, jn, cf, cb, best;
	int op;
} dpg_cross_t;
void dpg_cross(int mode, const dpg_row_t *F, const dpg_row_t *B, int64_t lb, uint8_t ai, const uint8_t *bc, dpg_cross_t *x);
typedef struct {
	dpg_row_t F, B;
	int64_t lb;
	uint8_t ai;
	const uint8_t *bc;
	dpg_cross_t x;
} dpg_cross_job_t;
void dpg_cross_many(int mode, dpg_cross_job_t *jobs, int64_t m, int threads);

/* The cut of a sub-problem of la rows x lb columns at column cs (0 < cs < lb), from the right
 * edges (device words: bit b of word w is row 32 w + b + 1; lev pv words then mv words at
 * + ceil(la / 32), lcs V words) of the forward pass over its columns [0, cs), F, and of the
 * reverse pass (A and B reversed) over its columns [cs, lb), R (its row q is the sub-problem's
 * la - q): split_meet_col's rule (the last row of the smallest F(i, cs) + R(i, cs)), *at that
 * row, *best the sum, *cf = F(*at, cs). Costs: lev the distance, lcs the indel cost. */
rk_status_t dpg_col_cross(int mode, const uint32_t *F, const uint32_t *R, int64_t la, int64_t lb, int64_t cs, int64_t *best,
                          int64_t *at, int64_t *cf);

/* dpg_col_cross of many sub-problems at once, on threads: job i has la[i] x lb[i], its cut at
 * lb[i] / 2, F at e + off[i] and R right after it (each nv ceil(la / 32) words, nv = 2 for lev,
 * 1 for lcs); best[i] the sum. RK_ERES with the error set when out of memory (best then
 * undefined). */
rk_status_t dpg_col_cost_many(int mode, const uint32_t *e, const int64_t *off, const int64_t *la, const int64_t *lb, int64_t m,
                              int64_t *best, int threads);

/* Edges between the CPU slab format (lev: planes hp, hm; lcs: hc; bit q of word q >> 6 is
 * column q) and device edge words, for columns [0, cols). to_planes leaves the bits from cols
 * on as they were. */
void dpg_edge_from_planes(int mode, const uint64_t *h0, const uint64_t *h1, int64_t cols, void *e);
void dpg_edge_to_planes(int mode, const void *e, int64_t cols, uint64_t *h0, uint64_t *h1);

#ifdef __cplusplus
}
#endif

#endif
