/* mpi layer, Rkt-LCS (docs/rkt.md): the mode's options and its distributed driver. Rank 0
 * reads and broadcasts the reads; every rank computes the candidates of its share of the
 * reads (balanced by bases) against all reads, on its GPU or CPU; rank 0 gathers them,
 * picks the winner and writes the tables. */
#ifndef RMPI_RKT_RUN_H
#define RMPI_RKT_RUN_H

#include "mpi/plan/plan.h"
#include "algo/rkt.h"

typedef struct {
	rk_common_t c;
	const char *input;        /* READS, or "-" for stdin */
	const char *candidates;   /* --candidates FILE, or NULL */
	int occurrences;          /* --occurrences */
	rkt_opt_t algo;           /* -k, -t, -tau (the driver sets n_threads) */
} rkt_run_opt_t;

void rkt_run_opt_init(rkt_run_opt_t *o);
/* RK_EINPUT with rk_error() set when a required option is missing or out of range. */
rk_status_t rkt_run_opt_check(const rkt_run_opt_t *o);

/* Collective; the status is agreed across ranks (every failure already logged). */
rk_status_t rmpi_rkt_run(const rmpi_t *w, const rkt_run_opt_t *o);

#endif
