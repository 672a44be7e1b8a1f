/* algo layer: one lev or lcs pair cut into slabs of rows (docs/lev.md, "One pair on many
 * ranks"), the pieces the distributed driver needs, free of MPI:
 *  - a slab pass: the word rows of a prep (one rank's rows of A) advanced over a column
 *    range of B on several threads, edges in and out as lev_slab / lcs_slab;
 *  - edge arithmetic: an edge holds cost deltas (lev: the distance; lcs: the indel cost
 *    la + lb - 2 lcs), one or two bit planes per column;
 *  - the split point: on a slab's top row s, the smallest column j with F(s, j) + R(s, j) =
 *    the optimal cost is the first cell of the canonical (leftmost) path on that row. So
 *    with those points known, every slab's piece of the path is the canonical path of its own
 *    rectangle, computed apart, and the pieces concatenate to the one-rank path exactly.
 * Edges below hold all lb columns: bit q of word q >> 6 is column q + 1. */
#ifndef ALN_SPLIT_H
#define ALN_SPLIT_H

#include <stdint.h>
#include "algo/aln.h"

enum { SPLIT_LEV = 0, SPLIT_LCS = 1 };

/* bit planes of an edge: lev 2 (+1, -1), lcs 1 */
int split_planes(int kind);
/* The global top edge (row 0: cost +1 per column) into h over lb columns, and the global
 * left edge (column 0: +1 per row) into v for nw word rows. */
void split_top(int kind, uint64_t *const *h, int64_t lb);
void split_left(int kind, uint64_t *const *v, int64_t nw);
/* Advance every word row of p over columns [c0, c1) (c0 a multiple of 64): h the top edge
 * in, the bottom edge out; v the left edge of each word row in, the right edge out. */
void split_pass(int kind, const aln_prep_t *p, int simd, int n_threads, int64_t c0, int64_t c1, uint64_t *const *h,
                uint64_t *const *v);
/* Sum of the cost deltas of edge columns q0 + 1 .. q1. */
int64_t split_sum(int kind, uint64_t *const *h, int64_t q0, int64_t q1);
/* The first cell of the canonical path on row s: F the forward edge at row s (cost at
 * (s, 0): s), R the edge of the reverse pass (A and B reversed) at its row la - s, whose
 * column q is B's column lb - q (cost at (s, lb): la - s), total the optimal cost. Returns
 * the smallest j in [0, lb] with F(s, j) + R(s, j) == total, -1 if none (inconsistent input). */
int64_t split_cross(int kind, uint64_t *const *F, int64_t s, uint64_t *const *R, int64_t la, int64_t lb, int64_t total);

/* The meeting of the two halves: with F the forward edge at row s and R the reverse edge at
 * row s (as split_cross), *total = min over j of F(s, j) + R(s, j), the optimal cost of the
 * whole pair (every path crosses row s); returns the smallest such j, where the canonical path
 * first reaches row s; *fat (NULL: not wanted) = F(s, j) there. */
int64_t split_meet(int kind, uint64_t *const *F, int64_t s, uint64_t *const *R, int64_t la, int64_t lb, int64_t *total,
                   int64_t *fat);
/* The same on column c, from column edges (the right edges of slab passes over all rows; bit
 * q of word q >> 6 is row q + 1): F of the forward pass over columns [0, c), R of the reverse
 * pass (A and B reversed) over B's columns [c, lb), whose row q is A's row la - q. Returns the
 * LARGEST i of the smallest sum: the canonical path is the lower-left one among the optimal
 * paths, so on a column it runs down to the last optimal cell, where it leaves the column;
 * *fat (NULL: not wanted) = F(i, c) there. */
int64_t split_meet_col(int kind, uint64_t *const *F, uint64_t *const *R, int64_t la, int64_t lb, int64_t c, int64_t *total,
                       int64_t *fat);

/* ---- one worker alone, and two halves pruned to the band of a bound ----
 * The one-rank computation (lev_pair, lcs_pair) prunes with a bound: lev -k, else the cost of
 * a static band about the diagonal where pruning with it pays; it computes the cells of paths
 * within the bound only. Two workers can share it as the first split of its Hirschberg: the
 * rows above the middle row split_band_rows(la) forward, those below on A and B reversed,
 * each pruned by the same bound; their last rows meet in the optimal crossing of the middle
 * row (the canonical path's), and each side is then a problem of its own whose cost is known
 * (its bound). The halves' cells are 3/4 of the one-rank distance's (the band narrows as the
 * cost grows, and each half starts at its wide end), the pieces of the path half each. */

/* *bound: the bound the one-rank computation prunes with (k >= 0 itself; -1: every cell);
 * *ub: the static band's cost, an upper bound of the pair's (-1: k >= 0, which needs none, or
 * an empty pair). keep: NULL, or gets the pair's prep that found it (zeroed when none; the
 * caller frees it with aln_prep_free) for split_solo. */
rk_status_t split_bound(int kind, const char *a, int64_t la, const char *b, int64_t lb, int64_t k, int simd, int n_threads,
                        int64_t *bound, int64_t *ub, aln_prep_t *keep);
/* The pair on this worker alone, pruned by bound (>= the pair's cost, or lev -k; -1: none):
 * *cost (lev distance, lcs indel cost la + lb - 2 lcs; -1 above a bound) and, when path is not
 * NULL, the canonical path (reset first; empty at -1): what lev_pair / lcs_pair give. pre:
 * NULL, or split_bound's prep of this pair, used for the cost alone (a prep of 2 Mb is 10 ms). */
rk_status_t split_solo(int kind, const char *a, int64_t la, const char *b, int64_t lb, int64_t bound, int simd, int n_threads,
                       const aln_prep_t *pre, int64_t *cost, aln_path_t *path);
/* The middle row s: the top half is rows [0, s), the bottom half rows [s + 1, la). */
int64_t split_band_rows(int64_t la);
/* One half (bottom 0: the top one, 1: the bottom one) pruned by bound, on n_threads; its last
 * row as a message for the meeting: *msg (malloc'd, the caller frees it), *n words. */
rk_status_t split_band_half(int kind, const char *a, int64_t la, const char *b, int64_t lb, int bottom, int64_t bound, int simd,
                            int n_threads, uint64_t **msg, int64_t *n);
/* The crossing of row s: the path runs (s, j) -> (s + 1, jn) by op (ALN_I or the diagonal),
 * cf the cost of [0, s) x [0, j), cb that of [s + 1, la) x [jn, lb), best = the pair's cost
 * (-1: no path within the bound). */
typedef struct {
	int64_t s, j, jn, op, cf, cb, best;
} split_cut_t;
/* The meeting of the two halves' messages (RK_EINPUT: a malformed message). */
rk_status_t split_band_meet(int kind, const uint64_t *top, int64_t ntop, const uint64_t *bot, int64_t nbot, const char *a,
                            int64_t la, const char *b, int64_t lb, split_cut_t *x);

#endif
