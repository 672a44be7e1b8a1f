/* algo layer: exact Rkt-LCS on the CPU (docs/rkt.md). Every function here allocates
 * only what it frees itself, except where a comment says who frees the result. */
#ifndef RKT_H
#define RKT_H

#include <stdint.h>
#include "rktlcs.h"
#include "core/reads.h"

typedef struct {
	int64_t k, t, tau;   /* mismatches, min other reads, min length (docs/rkt.md) */
	int n_threads;       /* OpenMP threads; <= 0: runtime default */
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

/* Rows handed out by claims to workers that pull them (a GPU and CPU threads side by side):
 * claim gives the caller rows [*first, *first + n) of at least `least` and at most `most`
 * (fewer where fewer are left, or where the owner's policy says so); n = 0: none for this
 * caller any more. Safe to call from several threads. */
typedef struct rkt_rows_s rkt_rows_t;
struct rkt_rows_s {
	int64_t (*claim)(rkt_rows_t *r, int64_t least, int64_t most, int64_t *first);
};

/* The share `share` of nshare of the work of rkt_candidates over all reads: the unordered
 * pairs (i, j > i) with i % nshare == share, each walked once, counted for both reads into
 * the counters of every read (laid out read after read: rkt_support_offs; *n_cnt in all),
 * for several ranks to sum (uint32) and take candidates from. *cnt is allocated here and
 * freed by the caller. */
rk_status_t rkt_supports(const rkt_opt_t *o, const rkt_set_t *s, int share, int nshare, uint32_t **cnt, uint64_t *n_cnt);
/* off[a] = the counters of reads 0 .. at[a] - 1 (where read at[a]'s begin), at ascending. */
void rkt_support_offs(const rkt_set_t *s, int64_t tau, const int64_t *at, int n_at, uint64_t *off);
/* Candidates of reads [lo, hi) from the summed counters cnt (laid out as above; only those
 * of reads lo .. hi - 1 are read). */
rk_status_t rkt_cands_from_supports(const rkt_opt_t *o, const rkt_set_t *s, const uint32_t *cnt, int64_t lo, int64_t hi,
                                    rkt_cand_t *out);

/* Index of the Rkt-LCS among n candidates (largest len, then smallest index), -1 if none. */
int64_t rkt_winner(const rkt_cand_t *c, int64_t n);

/* One supporting read of the winner: smallest y with LCP >= len, mismatches there. */
typedef struct {
	int64_t j, y, mm;
} rkt_occ_t;

/* *occ is allocated here; the caller frees it. */
rk_status_t rkt_occurrences(const rkt_opt_t *o, const rkt_set_t *s, int64_t i, int64_t pos, int64_t len,
                            rkt_occ_t **occ, int64_t *n_occ);

/* MaxLCP of read a against b (ma, len la) and of b against a (mb, len lb), <= k mismatches.
 * Exposed for tests; ws is scratch from rkt_ws_init. */
typedef struct rkt_ws_s rkt_ws_t;
rkt_ws_t *rkt_ws_init(int32_t max_len);
void rkt_ws_free(rkt_ws_t *w);
void rkt_maxlcp_pair(rkt_ws_t *w, const uint8_t *a, int32_t la, const uint8_t *b, int32_t lb, int64_t k,
                     int32_t *ma, int32_t *mb);
/* A pair that threads share (reads over 65,000 bp, ~2^28 cells and more, in 32-bit lanes;
 * every 32-bit pair with rk_tune.rkt_lanes32): each of n threads runs part t of n into its
 * own workspace, then one merges the n workspaces; the result is rkt_maxlcp_pair's. */
int rkt_pair_shared(const rkt_ws_t *w, int32_t la, int32_t lb, int64_t k);
void rkt_maxlcp_pair_part(rkt_ws_t *w, const uint8_t *a, int32_t la, const uint8_t *b, int32_t lb, int64_t k, int part,
                          int nparts);
void rkt_maxlcp_pair_merge(rkt_ws_t *const *w, int n, int32_t la, int32_t lb, int32_t *ma, int32_t *mb);
/* 0 scalar, 2 AVX2, 3 AVX-512BW: the best the CPU has, or rk_tune.simd when set */
int rkt_simd_level(void);
const char *rkt_simd_name(void);

#endif
