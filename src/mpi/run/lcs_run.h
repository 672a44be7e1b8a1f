/* mpi layer, lcs (docs/lcs.md): the mode's options and its driver, on the pairwise driver. */
#ifndef RMPI_LCS_RUN_H
#define RMPI_LCS_RUN_H

#include "mpi/run/pair_run.h"
#include "algo/lcs.h"

typedef struct {
	rk_common_t c;
	const char *in_a, *in_b;  /* A B */
	int seq;                  /* --seq: the subsequence */
	lcs_opt_t algo;           /* --path (the driver sets n_threads) */
} lcs_run_opt_t;

void lcs_run_opt_init(lcs_run_opt_t *o);
rk_status_t lcs_run_opt_check(const lcs_run_opt_t *o);
rk_status_t rmpi_lcs_run(const rmpi_t *w, const lcs_run_opt_t *o);

#endif
