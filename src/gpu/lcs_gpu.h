/* gpu layer, lcs (SPEC section 6): the entry points the driver calls; present only in builds
 * with CUDA. Results equal lcs_batch / lcs_slab (algo/lcs.h) exactly: lengths and the
 * canonical path (aln.h). */
#ifndef RGPU_LCS_H
#define RGPU_LCS_H

#ifdef __cplusplus
extern "C" {
#endif

#include "gpu/rgpu.h"
#include "algo/lcs.h"

#ifdef RKTLCS_HAVE_CUDA
/* n pairs: len[i] exactly as lcs_pair; paths (n entries, or NULL) as lcs_batch, each reset
 * first; the caller frees them with aln_path_free. Routing and memory as rgpu_lev_batch. */
rk_status_t rgpu_lcs_batch(const lcs_opt_t *o, const aln_pair_t *p, int64_t n, const rgpu_opt_t *g, int64_t *len,
                           aln_path_t *paths, rgpu_stats_t *st);

/* The slab pass: exactly lcs_slab(p, ., 0, ceil(la / 64), 0, lb, hc, v) over all of a and b,
 * or both reversed with rev, in a band (see rgpu_lev_slab); v NULL: the boundary left edge (L(i, 0) = 0)
 * and no right edge. */
rk_status_t rgpu_lcs_slab(const rgpu_opt_t *g, const char *a, int64_t la, const char *b, int64_t lb, int rev, const int64_t *band,
                          uint64_t *hc, uint64_t *v, rgpu_stats_t *st);
/* One rank's half of a pair split on column c (rgpu_dp_half): bound, the caller's bound on the
 * pair's indel cost la + lb - 2 lcs (at least that cost; -1: none), the band out, hc / v as
 * rgpu_lcs_slab's for the half's columns ([0, c), or [c, lb) reversed with rev). */
rk_status_t rgpu_lcs_half(const rgpu_opt_t *g, const char *a, int64_t la, const char *b, int64_t lb, int64_t c, int rev,
                          int64_t bound, int64_t band[2], uint64_t *hc, uint64_t *v, rgpu_stats_t *st);
#endif

#ifdef __cplusplus
}
#endif

#endif
