/* Inside mpi/split: the plan of a split pair, how many ranks take part (split_plan.c; moved
 * from split_int.h). Its file calls only the engine (split_engine.h: a rank's speed), not the
 * runners it chooses among (the arrows: split_int.h). Not for other files. */
#ifndef RMPI_SPLIT_PLAN_H
#define RMPI_SPLIT_PLAN_H

#include "mpi/split/split.h"

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

#endif
