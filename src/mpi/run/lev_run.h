/* mpi layer, lev (docs/lev.md): the mode's options and its driver, on the pairwise driver. */
#ifndef RMPI_LEV_RUN_H
#define RMPI_LEV_RUN_H

#include "mpi/run/pair_run.h"
#include "algo/lev.h"

typedef struct {
	rk_common_t c;
	const char *in_a, *in_b;  /* A [B] */
	int all;                  /* --all: every pair i < j of A */
	int64_t max_dist;         /* --max-dist (with --all); -1: none */
	lev_opt_t algo;           /* -k, --path (the driver sets n_threads) */
} lev_run_opt_t;

void lev_run_opt_init(lev_run_opt_t *o);
rk_status_t lev_run_opt_check(const lev_run_opt_t *o);
rk_status_t rmpi_lev_run(const rmpi_t *w, const lev_run_opt_t *o);

#endif
