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

/* Candidates of reads [lo, hi) into out (read lo's first) by this rank's GPU and its other
 * o->n_threads - 1 threads, pulling rows from one counter (rkt_hybrid.c); standin: the CPU
 * computes the GPU's claims (tests). For jobs the GPU walks from both reads
 * (rgpu_rkt_walks_twice). *ran = 0 (RK_OK) when there is no thread to share with. A GPU
 * failure is returned as is (the caller may redo the reads on the CPU). */
rk_status_t rmpi_rkt_hybrid(const rkt_opt_t *o, const rkt_set_t *s, int64_t lo, int64_t hi, rmpi_be_t *be, int standin,
                            rkt_cand_t *out, int *ran);

/* Collective; the status is agreed across ranks (every failure already logged). */
rk_status_t rmpi_rkt_run(const rmpi_t *w, const rkt_run_opt_t *o);

#endif
