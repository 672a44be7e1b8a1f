/* mpi layer: one lev or lcs pair split across the ranks in slabs of rows (docs/lev.md, "One
 * pair on many ranks"). Rank r owns rows A[s_r, s_r+1) (sized by each rank's measured speed)
 * and streams B in chunks: its top edge comes from rank r - 1 and its bottom edge goes to
 * rank r + 1, a pipeline in which every rank computes after a short fill. For the path a
 * second pipeline runs on A and B reversed; with both edges each rank finds where the
 * canonical path crosses its top row, computes its own piece in linear memory, and rank 0
 * concatenates the pieces: the same path as one rank's, byte for byte. */
#ifndef RMPI_SPLIT_RUN_H
#define RMPI_SPLIT_RUN_H

#include "mpi/rmpi.h"
#include "algo/split.h"

/* Collective; every rank passes the same pair. kind: SPLIT_LEV or SPLIT_LCS. On rank 0:
 * *val (the distance, -1 above k >= 0; or the LCS length) and, with want_path, *path. */
rk_status_t rmpi_split_pair(const rmpi_t *w, int kind, int64_t k, const char *a, int64_t la, const char *b, int64_t lb,
                            int want_path, int n_threads, int64_t *val, aln_path_t *path);

#endif
