/* mpi layer: the distributed driver the pairwise modes share (lev_run.h, lcs_run.h).
 * Pairing (docs/lev.md, "Pairing"): record r of A with record r of B; a file of one record
 * against every record of the other; --all: every pair i < j of A in (i, j) order. Work is
 * split by cells (len_a x len_b) into contiguous ranges, one per rank; each rank computes
 * and formats its rows, rank 0 writes them in order, so the output is the same for any
 * number of ranks and either backend. A pair far larger than the others runs alone with
 * every thread of its rank; under several ranks, a pair of at least rk_tune.split_cells
 * cells (record by record or one against many) goes to the ranks together, which compute it on
 * as many of them as pays (mpi/split/split.h). */
#ifndef RMPI_PAIR_RUN_H
#define RMPI_PAIR_RUN_H

#include "mpi/plan/plan.h"
#include "io/pair_out.h"
#include "algo/aln.h"

/* What a mode gives the driver: how to compute n pairs on the CPU (n_threads for the
 * batch, or for one long pair) or on the GPU (NULL when not built), into val[] and, when
 * paths is not NULL, the canonical paths; when ends is not NULL (want_ends), the ends in B
 * and the start (lev --mode prefix|infix). */
struct aln_rsrc_s;
typedef struct {
	rk_status_t (*cpu)(const void *algo, const aln_pair_t *p, int64_t n, int n_threads, int64_t *val, aln_path_t *paths,
	                   aln_ends_t *ends);
	rk_status_t (*gpu)(const void *algo, const aln_pair_t *p, int64_t n, const rgpu_opt_t *g, int64_t *val,
	                   aln_path_t *paths, aln_ends_t *ends, rgpu_stats_t *st);
	/* --all on the CPU (NULL: cpu): n pairs of reads ai[q], bi[q], their code planes from a
	 * table of the reads (algo/aln_dp.h), no ends */
	rk_status_t (*cpu_reads)(const void *algo, const aln_pair_t *p, const struct aln_rsrc_s *r, int64_t n, int n_threads, int64_t *val,
	                         aln_path_t *paths);
	const void *algo;         /* the mode's own options (lev_opt_t, lcs_opt_t) */
	int want_path;            /* compute paths (--path, --seq) */
	int want_ends;            /* lev --mode prefix|infix: ends and starts (such pairs are never split across ranks) */
	int split_kind;           /* SPLIT_LEV or SPLIT_LCS: how one huge pair is split across ranks */
	int64_t k;                /* lev -k (-1: none), for the split */
} rmpi_pair_mode_t;

typedef struct {
	const rk_common_t *c;
	const char *in_a, *in_b;  /* in_b NULL with all */
	int all;
	int64_t max_dist;         /* with all: keep rows with a value <= max_dist (-1: every row) */
	rio_pair_meta_t meta;
	rmpi_pair_mode_t mode;
} rmpi_pairs_t;

/* Collective; the status is agreed across ranks (every failure already logged). */
rk_status_t rmpi_pairs_run(const rmpi_t *w, const rmpi_pairs_t *s);

#endif
