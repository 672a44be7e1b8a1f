/* mpi/split: one lev or lcs pair split across the ranks (moved from src/mpi/split_run.h; the
 * entry is split_pair.c's, the files behind it and their arrows split_int.h's), in slabs of
 * rows (docs/lev.md, "One pair on many ranks"), when that pays (rmpi_split_pair's plan, below).
 * Rank r owns rows A[s_r, s_r+1) (sized by each rank's measured speed). The ranks of the top half run a forward pipeline down to the middle row m, those of the
 * bottom half a reverse one (A and B reversed) up to it, at once; the smallest sum of the two
 * edges on row m is the pair's cost, and its first column jm the path's crossing there. Inside
 * a half B streams in chunks: a rank's top edge comes from the rank before it in the chain and
 * its bottom edge goes to the next. For the path each half, a problem of its own from the cut
 * (m, jm), runs one more pipeline the other way; with both edges each rank finds where the
 * canonical path crosses its top row, computes its own piece in linear memory, and rank 0
 * concatenates the pieces: the same path as one rank's, byte for byte. */
#ifndef RMPI_SPLIT_H
#define RMPI_SPLIT_H

#include "mpi/plan/plan.h"
#include "algo/split.h"
#include "io/fmt.h"

/* Where one rank's time went (seconds): fwd = its half's pipeline to the middle row (forward
 * above it, reverse below), rev = the pipeline inside its half from the cut (paths only),
 * each { wall, busy (computing), fill (waiting for the first edge chunk) }; trace: its piece
 * of the path; sample: measuring its speed; rows: its slab; speed: cells/s measured. */
typedef struct {
	double fwd[3], rev[3], trace_s, sample_s, speed;
	int64_t rows;
} rmpi_split_prof_t;

/* Collective; every rank passes the same pair. kind: SPLIT_LEV or SPLIT_LCS. On rank 0:
 * *val (the distance, -1 above k >= 0; or the LCS length) and, with want_path, *path.
 * First the ranks agree on how many of them take part (the plan, decided by rank 0 from a cost
 * model, -v prints it): rank 0 alone on the band of the pair's bound, ranks 0 and 1 on two
 * banded halves (algo/split.h), or every rank over every cell (above); ranks left out sleep. GPU
 * ranks always take the last. The output is the same either way. */
/* be: this rank's backend (its GPU when be->use_gpu, the CPU with n_threads otherwise; NULL:
 * the CPU); ranks may differ, the result does not. prof: NULL, or this rank's times. */
/* n_alone: the CPU threads rank 0 takes where it computes the pair alone, the others asleep
 * (rmpi_threads_alone: two ranks of 8 threads on 16 cores left 8 idle, and a 10 Mb pair 1% apart
 * took 1.27 s on two banded halves against 0.90 s on one rank of 16). */
rk_status_t rmpi_split_pair(const rmpi_t *w, int kind, int64_t k, const char *a, int64_t la, const char *b, int64_t lb,
                            int want_path, int n_threads, int n_alone, rmpi_be_t *be, int64_t *val, aln_path_t *path,
                            rmpi_split_prof_t *prof);

/* Collective: 1 when ranks 0 and 1 would meet on a column on one GPU (one device of a node for
 * both): the GPU runs all of a pair's strips at once already, and the halves only add their
 * messages (a 10 Mb pair 1% apart on one H200: 1.09 s at np 2 against 0.94 s at np 1). The
 * caller then computes each pair on one rank, as one rank would. */
int rmpi_split_shared(const rmpi_t *w, const rmpi_be_t *be);
/* Sums b into a (a run of several split pairs). */
void rmpi_split_prof_add(rmpi_split_prof_t *a, const rmpi_split_prof_t *b);
/* Collective: every rank's profile, appended on rank 0 to the --stats JSON members in out as
 * "split":{"pairs":n,"rows":[per rank],...} (docs/lev.md lists the members). */
rk_status_t rmpi_split_prof_json(const rmpi_t *w, int64_t n_pairs, const rmpi_split_prof_t *mine, rio_buf_t *out);

#endif
