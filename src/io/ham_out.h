/* io layer: hamming output (docs/hamming.md, "Output"): the N x N matrix (snp-dists
 * layouts: corner cell, -b, -c, -L), all ordered pairs (-m; -m -L: each pair once), the sparse --max-dist pairs,
 * and JSON. */
#ifndef RIO_HAM_OUT_H
#define RIO_HAM_OUT_H

#include "io/rio.h"
#include "io/fmt.h"
#include "algo/ham.h"

typedef struct {
	int blank, csv, molten, lower;  /* -b -c -m -L (with -m: each unordered pair once, j >= i) */
	int header;                     /* -t: "sequence_1 sequence_2 distance" above -m / --max-dist */
	int64_t max_dist;               /* --max-dist; -1: matrix layouts */
} rio_ham_layout_t;

typedef struct {
	const char *input;
	int all, keep_case;             /* shown in JSON */
	int64_t cap;                    /* -x; 0: none */
	rio_ham_layout_t lay;
	rk_fmt_t format;
} rio_ham_meta_t;

/* M: n x n distances, row-major. */
rk_status_t rio_ham_write_matrix(rio_out_t *out, const rio_ham_meta_t *m, const rio_reads_t *r, const uint32_t *M, int n_threads);
/* Sorted pairs in pieces: `before` pairs were written already; the first piece writes the
 * head (JSON), the last one closes it. Formatted on n_threads threads, written in order. */
rk_status_t rio_ham_write_pairs(rio_out_t *out, const rio_ham_meta_t *m, const rio_reads_t *r, const ham_pair_t *p, int64_t n,
                                int64_t before, int first, int last, int n_threads);

#endif
