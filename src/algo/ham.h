/* algo layer: hamming distances on the CPU (docs/hamming.md): snp-dists' rule on
 * bit-sliced informative columns. */
#ifndef HAM_H
#define HAM_H

#include <stdint.h>
#include "rktlcs.h"
#include "core/reads.h"

typedef struct {
	int all;         /* -a: every differing position counts (else: both A/C/G/T and different) */
	int n_threads;
	uint32_t cap;    /* -x: values capped at cap; 0: no cap */
} ham_opt_t;

void ham_opt_init(ham_opt_t *o);

/* Sequences reduced to their informative columns (a column where no pair can differ is
 * dropped), bit-sliced: per sequence `planes` bit planes of `words` 64-bit words (the
 * symbol code), then a validity plane (A/C/G/T) unless o.all. Padding bits are equal. */
typedef struct {
	int64_t n, len, n_cols, words;
	int planes, valid;
	int64_t stride;     /* words per sequence */
	uint64_t *bits;
} ham_set_t;

/* The informative columns of a set of equal-length sequences, found in parts: each part's
 * sequences are scanned (ham_cols_scan), the parts' scans combined (their bytes, v[3 len]
 * and seen[256], by element-wise maximum: ham_cols_merge, or MPI_MAX over the ranks), and
 * ham_cols_finish lists the columns where two countable symbols differ and the symbol codes. */
typedef struct {
	int64_t len;
	uint8_t *v;             /* per column: another symbol seen; the largest first one; 255 - the smallest */
	uint8_t seen[256];      /* -a: the symbols present */
	int64_t n_cols, *col;   /* ham_cols_finish: the informative columns */
	int code[256], planes;
} ham_cols_t;
rk_status_t ham_cols_scan(ham_cols_t *c, const rio_reads_t *r, int64_t len, const ham_opt_t *o);
void ham_cols_merge(ham_cols_t *c, const ham_cols_t *d);
rk_status_t ham_cols_finish(ham_cols_t *c, const ham_opt_t *o);
void ham_cols_free(ham_cols_t *c);
/* The set's shape for n sequences over c's columns (bits left NULL), and r's sequences
 * [i0, i1) bit-sliced into rows ((i1 - i0) x h->stride words, every word written). */
void ham_set_layout(ham_set_t *h, const ham_cols_t *c, int64_t n, const ham_opt_t *o);
void ham_set_slice(const ham_set_t *h, const ham_cols_t *c, const rio_reads_t *r, int64_t i0, int64_t i1, uint64_t *rows,
                   int n_threads);

/* All reads must have one length (the caller checks and names the record). */
rk_status_t ham_set_init(ham_set_t *h, const rio_reads_t *r, const ham_opt_t *o);
void ham_set_free(ham_set_t *h);

/* Distance of one pair; stops counting early once above `stop` (then any value > stop). */
/* The CPU kernel the distances use: "avx512vpopcntdq" or "scalar" (rcli_version). */
const char *ham_simd_name(void);
uint32_t ham_dist(const ham_set_t *h, int64_t i, int64_t j, uint32_t stop);

/* Distances of rows [r0, r1) x columns [c0, c1) into out[(i - r0) * ld + (j - c0)], capped;
 * with upper, only j >= i is written. */
void ham_block(const ham_set_t *h, const ham_opt_t *o, int64_t r0, int64_t r1, int64_t c0, int64_t c1,
               int upper, uint32_t *out, int64_t ld);

typedef struct {
	int32_t i, j;
	uint32_t d;
} ham_pair_t;

/* Sort pairs by (i, j), the order of the sparse output, on n_threads threads (0: OpenMP's
 * default); where the scratch copy cannot be had, on one thread. */
void ham_pairs_sort(ham_pair_t *p, int64_t n, int n_threads);

/* Pairs i in [r0, r1), j > i, with distance <= maxd (capped value), sorted by (i, j).
 * *pairs is allocated here (NULL when none); the caller frees it. */
rk_status_t ham_pairs(const ham_set_t *h, const ham_opt_t *o, int64_t r0, int64_t r1, uint32_t maxd,
                      ham_pair_t **pairs, int64_t *n_pairs);

#endif
