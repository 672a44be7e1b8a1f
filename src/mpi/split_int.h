/* Inside the mpi layer: what split_run.c (the ways a pair is computed) and split_plan.c (how
 * many ranks take part) share. Not for other files. */
#ifndef RMPI_SPLIT_INT_H
#define RMPI_SPLIT_INT_H

#include "mpi/split_run.h"

#define SPLIT_CHUNK 65536         /* columns passed between CPU ranks at a time (a multiple of 64) */
#define SPLIT_CHUNK_GPU (1 << 20) /* ... between GPU ranks: a launch wants work */

enum { PLAN_ONE = 1, PLAN_BAND = 2, PLAN_ALL = 3, PLAN_MEASURE = 4, PLAN_MEASURE2 = 5,
       PLAN_COLS = 6,    /* tests: what GPU ranks do, ranks 0 and 1 on columns */
       PLAN_TREE = 7 };  /* tests: two banded halves with the path on a tree of every rank */

typedef struct {
	int how;
	int64_t bound, ub;      /* the one-rank bound (-1: every cell), the static band's cost (-1: none) */
	double v;               /* rank 0's speed alone, cells/s of a dense pass (measured, or PLAN_SPEED) */
	int measured;           /* v is measured */
	const char *why;        /* a reason beyond the estimates, for -v ("" none) */
	aln_prep_t pre;         /* rank 0: the pair's prep from split_bound, for rank 0 alone */
	double pair;            /* of v, what ranks 0 and 1 keep each when all ranks run at once */
	double one, band, all;  /* estimated seconds (band 0: not possible) */
	int gpu_two;            /* GPU ranks, more than two: ranks 0 and 1 meet on a column, the rest sleep */
	int tree;               /* two banded halves with the path: the ranks of its tree (2: the halves alone) */
	double gain;            /* rank 0 alone on n_alone threads against n_threads: its speed-up (plan_gain) */
} split_plan_t;

/* Collective: the plan, the same on every rank (rank 0 decides, the others asleep meanwhile).
 * On PLAN_ONE rank 0's p->pre may hold the pair's prep (freed by the caller: aln_prep_free). */
rk_status_t split_plan(const rmpi_t *w, int kind, int64_t k, const char *a, int64_t la, const char *b, int64_t lb,
                       int want_path, int n_threads, int n_alone, rmpi_be_t *be, split_plan_t *p, rmpi_split_prof_t *prof);

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

/* Collective: every rank over every cell (split_run.c): slabs of rows, or ranks 0 and 1
 * meeting on a column (two: on a world of more, the others wait); defer: NULL, or where the
 * two ranks met, the path left undone (the caller's split_pairs). */
rk_status_t split_all(const rmpi_t *w, int kind, int64_t k, const char *a, int64_t la, const char *b, int64_t lb,
                      int want_path, int n_threads, rmpi_be_t *be, int two, split_colcut_t *defer, int64_t *val,
                      aln_path_t *path, rmpi_split_prof_t *prof);
/* One rank's canonical path of a whole pair, on its GPU when be uses one (the CPU's n_threads
 * otherwise): *cost (lev distance, lcs la + lb - 2 lcs) and *path (split_run.c). */
rk_status_t split_piece(int kind, rmpi_be_t *be, int n_threads, const char *a, int64_t la, const char *b, int64_t lb,
                        int64_t *cost, aln_path_t *path);
/* Whether split_pairs takes the path of a la x lb pair met on a column by ranks 0 and 1. */
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

/* This rank's speed (cells/s) on a sample of the pair (split_run.c); 1 when it cannot be
 * measured. runs: timed runs, the fastest counts (0: the backend's default); each passes over
 * the sample again until it has lasted min_run seconds. */
double split_sample(int kind, int simd, int n_threads, rmpi_be_t *be, const char *a, int64_t la, const char *b,
                    int64_t lb, rmpi_split_prof_t *prof, int runs, double min_run);

#endif
