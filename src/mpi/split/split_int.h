/* Inside mpi/split: what the files of a split pair share besides the engine (split_engine.h)
 * and the plan (split_plan.h). Not for other files. The files and their arrows (A -> B: A
 * calls B), a DAG: no file calls one above it, none calls back.
 *
 *   split_pair.c   -> split_plan.c, split_run.c, split_tree.c, split_pairs.c   (the entry: split.h)
 *   split_pairs.c  -> split_run.c, split_tree.c, split_engine.c
 *   split_plan.c   -> split_engine.c                                           (split_plan.h)
 *   split_run.c    -> split_engine.c
 *   split_tree.c   -> none (algo/split.h)
 *   split_engine.c -> none (algo, gpu)                                         (split_engine.h)
 *
 * Their message tags stay apart: 21-27 and +100 split_run.c, 31-35 split_pair.c, 36 and
 * 51-53 split_pairs.c, 41-47 split_tree.c. */
#ifndef RMPI_SPLIT_INT_H
#define RMPI_SPLIT_INT_H

#include "mpi/split/split.h"

/* The pair's value from its cost (lev: -1 above k >= 0; lcs: the length). */
static inline int64_t split_value(int kind, int64_t k, int64_t la, int64_t lb, int64_t cost)
{
	if (kind == SPLIT_LCS) return (la + lb - cost) / 2;
	return cost < 0 || (k >= 0 && cost > k) ? -1 : cost;
}

/* Collective: the pair's cost (on rank 0; -1 above bound) and its path (rank 0's *path) by
 * two banded halves whose path is computed on a tree of width ranks, each level halving its
 * problems (split_tree.c); ranks from width on wait asleep. bound: the pair's bound as two
 * banded halves take it (>= its cost, or lev -k). */
rk_status_t split_tree(const rmpi_t *w, int kind, int64_t bound, const char *a, int64_t la, const char *b, int64_t lb, int width,
                       int n_threads, int64_t *cost, aln_path_t *path, rmpi_split_prof_t *prof);

/* Rank r1's piece of a path (mine, its cost got, its status st) to rank r0, which appends it
 * to *path and gets its cost in *cost; r0 says when it has room before the runs come (tags
 * tag .. tag + 2). Returns r0's status, with r1's error if it had one (split_tree.c). */
rk_status_t split_path_join(const rmpi_t *w, int r0, int r1, int tag, rk_status_t st, int64_t got, const aln_path_t *mine,
                            aln_path_t *path, int64_t *cost);

/* Where ranks 0 and 1 met on column c (split_cols) when the path is left to the caller:
 * the pair's cost, the cut's row, c, and the cost F(cut, c) of the piece above-left of it
 * (cut -1: no path to compute, lev above -k). Rank 0's. */
typedef struct {
	int64_t total, cut, c, fat;
} split_colcut_t;

/* Collective: every rank over every cell (split_run.c): slabs of rows, or on two ranks the two
 * meeting on a column; defer: NULL, or where the two ranks met, the path left undone (the
 * caller's split_pairs). */
rk_status_t split_all(const rmpi_t *w, int kind, int64_t k, const char *a, int64_t la, const char *b, int64_t lb,
                      int want_path, int n_threads, rmpi_be_t *be, split_colcut_t *defer, int64_t *val,
                      aln_path_t *path, rmpi_split_prof_t *prof);

/* split_pairs.c: whether split_pairs takes the path of a la x lb pair met on a column by ranks 0 and 1. */
int split_pairs_pay(int want_path, int ranks, int64_t la, int64_t lb);
/* Collective: whether ranks 0 to n - 1 (n <= 4) are each on a device of their own (CPU ranks
 * are): two ranks of a pair on one GPU would share its warps, and its piece would gain nothing. */
int split_gpus_apart(const rmpi_t *w, const rmpi_be_t *be, int n);
/* Collective: after ranks 0 and 1 met on a column (x, rank 0's), the path's two pieces, each
 * on a pair of ranks (0 and 2, 1 and 3) split on a column again, the rest asleep; rank 0 joins
 * them into *path and sets *val (split_pairs.c). Needs at least 4 ranks. */
rk_status_t split_pairs(const rmpi_t *w, int kind, const char *a, int64_t la, const char *b, int64_t lb,
                        int n_threads, rmpi_be_t *be, const split_colcut_t *x, int64_t *val, aln_path_t *path,
                        rmpi_split_prof_t *prof);
/* Collective, on a world of more than two ranks (GPU ranks: the plan's gpu_two): ranks 0 and 1
 * alone over every cell, meeting on a column (split_all on a world of their own), the others
 * asleep; then, where it pays, the path's two pieces on pairs of ranks (split_pairs). On rank 0
 * *val and *path as rmpi_split_pair's. */
rk_status_t split_two(const rmpi_t *w, int kind, int64_t k, const char *a, int64_t la, const char *b, int64_t lb,
                      int want_path, int n_threads, rmpi_be_t *be, int64_t *val, aln_path_t *path, rmpi_split_prof_t *prof);

#endif
