/* algo layer: exact Rkt-LCS on the CPU (SPEC section 3). */
#ifndef RKT_H
#define RKT_H

#include <stdint.h>
#include "rktlcs.h"
#include "io/rio.h"

typedef struct {
	int64_t k, t, tau;
	int n_threads;       /* OpenMP threads; <= 0: runtime default */
	int progress;        /* report progress on stderr for long runs */
	int force_scalar;    /* testing: bypass the SIMD kernels */
	int shared_counters; /* testing: always count through atomics, no per-thread copies */
} rkt_opt_t;

void rkt_opt_init(rkt_opt_t *o);

/* Reads as 2-bit codes (A0 C1 G2 T3, unknown 4), one byte per base, each read followed by
 * RKT_PAD sentinel bytes (0xFF) so SIMD loads past the end see "no match". */
#define RKT_PAD 64
typedef struct {
	int64_t n, n_bases;
	int32_t max_len;
	uint8_t *code;
	uint64_t *off;       /* read r: code + off[r] */
	int32_t *len;
} rkt_set_t;

rk_status_t rkt_set_init(rkt_set_t *s, const rio_reads_t *r);
void rkt_set_free(rkt_set_t *s);

/* Candidate of one read: pos -1, len 0, support 0 when it has none. */
typedef struct {
	int64_t pos, len, support;
} rkt_cand_t;

/* Candidates of reads [lo, hi) against all reads of the set; out has hi - lo entries.
 * Unordered pairs inside [lo, hi) are computed once. */
rk_status_t rkt_candidates(const rkt_opt_t *o, const rkt_set_t *s, int64_t lo, int64_t hi, rkt_cand_t *out);

/* Index of the Rkt-LCS among n candidates (largest len, then smallest index), -1 if none. */
int64_t rkt_winner(const rkt_cand_t *c, int64_t n);

/* One supporting read of the winner: smallest y with LCP >= len, mismatches there. */
typedef struct {
	int64_t j, y, mm;
} rkt_occ_t;

rk_status_t rkt_occurrences(const rkt_opt_t *o, const rkt_set_t *s, int64_t i, int64_t pos, int64_t len,
                            rkt_occ_t **occ, int64_t *n_occ);

/* MaxLCP of read a against b (ma, len la) and of b against a (mb, len lb), <= k mismatches.
 * Exposed for tests; ws is scratch from rkt_ws_init. */
typedef struct rkt_ws_s rkt_ws_t;
rkt_ws_t *rkt_ws_init(int32_t max_len, int force_scalar);
void rkt_ws_free(rkt_ws_t *w);
void rkt_maxlcp_pair(rkt_ws_t *w, const uint8_t *a, int32_t la, const uint8_t *b, int32_t lb, int64_t k,
                     int32_t *ma, int32_t *mb);
/* 0 scalar, 2 AVX2, 3 AVX-512BW; RKTLCS_SIMD=N in the environment forces a level (tests) */
int rkt_simd_level(void);
const char *rkt_simd_name(int force_scalar);

/* ---- hamming mode (SPEC section 4): snp-dists distances on bit-sliced columns ---- */

typedef struct {
	int all;         /* -a: every differing position counts (else: both A/C/G/T and different) */
	int n_threads;
	uint32_t cap;    /* -x: values capped at cap; 0: no cap */
} rkt_ham_opt_t;

void rkt_ham_opt_init(rkt_ham_opt_t *o);

/* Sequences reduced to their informative columns (a column where no pair can differ is
 * dropped), bit-sliced: per sequence `planes` bit planes of `words` 64-bit words (the
 * symbol code), then a validity plane (A/C/G/T) unless o.all. Padding bits are equal. */
typedef struct {
	int64_t n, len, n_cols, words;
	int planes, valid;
	int64_t stride;     /* words per sequence */
	uint64_t *bits;
} rkt_ham_set_t;

/* All reads must have one length (the caller checks and names the record). */
rk_status_t rkt_ham_set_init(rkt_ham_set_t *h, const rio_reads_t *r, const rkt_ham_opt_t *o);
void rkt_ham_set_free(rkt_ham_set_t *h);

/* Distance of one pair; stops counting early once above `stop` (then any value > stop). */
uint32_t rkt_ham_dist(const rkt_ham_set_t *h, int64_t i, int64_t j, uint32_t stop);

/* Distances of rows [r0, r1) x columns [c0, c1) into out[(i - r0) * ld + (j - c0)], capped;
 * with upper, only j >= i is written. */
void rkt_ham_block(const rkt_ham_set_t *h, const rkt_ham_opt_t *o, int64_t r0, int64_t r1, int64_t c0, int64_t c1,
                   int upper, uint32_t *out, int64_t ld);

typedef struct {
	int32_t i, j;
	uint32_t d;
} rkt_ham_pair_t;

/* Sort pairs by (i, j): the order of the sparse output. */
void rkt_ham_pairs_sort(rkt_ham_pair_t *p, int64_t n);

/* Pairs i in [r0, r1), j > i, with distance <= maxd (capped value), sorted by (i, j). */
rk_status_t rkt_ham_pairs(const rkt_ham_set_t *h, const rkt_ham_opt_t *o, int64_t r0, int64_t r1, uint32_t maxd,
                          rkt_ham_pair_t **pairs, int64_t *n_pairs);

#endif
