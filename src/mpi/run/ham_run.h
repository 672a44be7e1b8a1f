/* mpi layer, hamming (docs/hamming.md): the mode's options and its distributed driver.
 * Rank 0 reads and broadcasts; each rank takes a band of rows of the upper triangle
 * (balanced by cost) and computes it on its GPU or CPU; rank 0 assembles and writes. */
#ifndef RMPI_HAM_RUN_H
#define RMPI_HAM_RUN_H

#include "mpi/plan/plan.h"
#include "algo/ham.h"
#include "io/ham_out.h"

typedef struct {
	rk_common_t c;
	const char *input;        /* SEQS, or "-" for stdin */
	ham_opt_t algo;           /* -a, -x (the driver sets n_threads) */
	int keep_case;            /* -k */
	rio_ham_layout_t lay;     /* -b -c -m -L --max-dist */
} ham_run_opt_t;

void ham_run_opt_init(ham_run_opt_t *o);
rk_status_t ham_run_opt_check(const ham_run_opt_t *o);

/* Collective; the status is agreed across ranks (every failure already logged). */
rk_status_t rmpi_ham_run(const rmpi_t *w, const ham_run_opt_t *o);

/* Collective, several ranks (ham_load.c): the input read once, in parallel, checked as one
 * rank checks it, and compacted into h (n sequences, bits in shm, held once per node: the
 * caller frees shm when *have_shm, not h->bits). names: rank 0 gets every record's name. */
rk_status_t rmpi_ham_load(const rmpi_t *w, const ham_run_opt_t *o, const ham_opt_t *ho, ham_set_t *h, rio_reads_t *names,
                          rmpi_shm_t *shm, int *have_shm, rmpi_clock_t *clk);

#endif
