/* mpi layer: command-line options, rank partitioning, data distribution and the drivers
 * that run each mode under MPI (also as a single plain process). */
#ifndef RMPI_H
#define RMPI_H

#include <stdint.h>
#include <mpi.h>
#include "rktlcs.h"
#include "io/rio.h"
#include "algo/rkt.h"

typedef enum { RMPI_MODE_RKT, RMPI_MODE_HAMMING, RMPI_MODE_LEV, RMPI_MODE_LCS } rmpi_mode_t;
typedef enum { RMPI_BACKEND_AUTO, RMPI_BACKEND_CPU, RMPI_BACKEND_GPU } rmpi_backend_t;
typedef enum { RMPI_FMT_TSV, RMPI_FMT_JSON } rmpi_fmt_t;

typedef struct {
	rmpi_mode_t mode;
	const char *input, *output, *candidates;
	rmpi_fmt_t format;
	rmpi_backend_t backend;
	int threads;           /* per rank; 0: cores / ranks on the node */
	uint64_t device_memory;
	int quiet, occurrences;
	int help, version;
	rkt_opt_t rkt;
	/* hamming */
	int ham_all, ham_keep_case, ham_blank, ham_csv, ham_molten, ham_lower;
	int64_t ham_cap;       /* -x; 0: none */
	int64_t ham_max_dist;  /* --max-dist; -1: matrix output */
} rmpi_opt_t;

void rmpi_opt_init(rmpi_opt_t *o);
/* Parse argv (argv[0] is the program); RK_EINPUT with rk_error() set on a usage error. */
rk_status_t rmpi_parse(rmpi_opt_t *o, int argc, char **argv);
void rmpi_usage(FILE *fp, rmpi_mode_t mode);

typedef struct {
	MPI_Comm comm;
	int rank, size, local_rank, local_size;
	int mpi;  /* 0: plain process, MPI not initialised */
} rmpi_t;

rk_status_t rmpi_init(rmpi_t *w, int *argc, char ***argv);
void rmpi_finalize(rmpi_t *w);

/* Collective: the worst status over all ranks. A rank that failed has logged its own
 * message; the others learn of the failure here and stop instead of hanging. */
rk_status_t rmpi_agree(const rmpi_t *w, rk_status_t local);

/* Collective: 1 if flag is set on any rank. Every rank must take the same decisions that
 * shape shared data (the partition, the gather), even where their backends differ. */
int rmpi_any(const rmpi_t *w, int flag);

/* CPU threads per rank: --threads, else OMP_NUM_THREADS, else cores / ranks on the node. */
int rmpi_threads(const rmpi_t *w, const rmpi_opt_t *o);

/* Point to point in pieces of 1 GB (MPI counts are int); 0 or -1. */
int rmpi_send_bytes(const void *buf, uint64_t n, int to, MPI_Comm comm);
int rmpi_recv_bytes(void *buf, uint64_t n, int from, MPI_Comm comm);

/* Collective: rank 0's reads to every rank. */
rk_status_t rmpi_bcast_reads(const rmpi_t *w, rio_reads_t *r);

/* Contiguous split of n reads into parts of about equal cost, sum of max(len - sub, 0):
 * part p owns [bounds[p], bounds[p+1]). */
void rmpi_partition(const int32_t *len, int64_t n, int parts, int32_t sub, int64_t *bounds);

/* Split rows of an n x n upper triangle (row i costs n - i) into parts of equal cost. */
void rmpi_partition_tri(int64_t n, int parts, int64_t *bounds);

/* Run a mode; returns the status for the exit code (already agreed across ranks). */
rk_status_t rmpi_run_rkt(const rmpi_t *w, const rmpi_opt_t *o);
rk_status_t rmpi_run_ham(const rmpi_t *w, const rmpi_opt_t *o);

/* hamming output (rank 0): the N x N matrix (full, or lower with -L), all ordered pairs
 * (-m), or the sparse pairs i < j within --max-dist. Names are the records' names. */
rk_status_t rmpi_ham_write_matrix(FILE *fp, const rmpi_opt_t *o, const rio_reads_t *r, const uint32_t *M, int n_threads);
rk_status_t rmpi_ham_write_pairs(FILE *fp, const rmpi_opt_t *o, const rio_reads_t *r, const rkt_ham_pair_t *p, int64_t n,
                                 int64_t before, int first, int last);

#endif
