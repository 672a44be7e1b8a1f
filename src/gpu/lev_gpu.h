/* gpu layer, lev (SPEC section 5): the entry points the driver calls; present only in builds
 * with CUDA. Results equal lev_batch / lev_slab (algo/lev.h) exactly: distances, -1 beyond
 * k, and the canonical path (aln.h). */
#ifndef RGPU_LEV_H
#define RGPU_LEV_H

#ifdef __cplusplus
extern "C" {
#endif

#include "gpu/rgpu.h"
#include "algo/lev.h"

#ifdef RKTLCS_HAVE_CUDA
/* n pairs: dist[i] exactly as lev_pair with options o (o->k >= 0: -1 beyond k); paths (n
 * entries, zero-initialized or reused: each is reset; NULL: none) as lev_batch: the canonical
 * path, empty when dist[i] is -1; the caller frees them with aln_path_free. o->n_threads and
 * o->simd are not used (g->n_threads packs on the host). Short pairs (A of at most 4096
 * symbols) run many per launch in chunks sized from the device memory allowed; longer ones one
 * at a time over all SMs, paths by Hirschberg in linear device memory. RK_ERES: device error,
 * or a memory limit too small for one pair (rk_error says which). */
rk_status_t rgpu_lev_batch(const lev_opt_t *o, const aln_pair_t *p, int64_t n, const rgpu_opt_t *g, int64_t *dist,
                           aln_path_t *paths, rgpu_stats_t *st);

/* lev --mode prefix|infix (o->mode != LEV_GLOBAL): dist, paths and ends exactly as
 * lev_batch_mode. A simple form: one device pass over every cell of a pair at a time (the slab
 * pass below with the free top edge, no cut-off), the best and its ends read from its bottom
 * edge on the host, the start from a second pass on A and B[0, end) reversed, the path by
 * rgpu_lev_batch on A and B[start, end). */
rk_status_t rgpu_lev_mode_batch(const lev_opt_t *o, const aln_pair_t *p, int64_t n, const rgpu_opt_t *g, int64_t *dist,
                                aln_path_t *paths, aln_ends_t *ends, rgpu_stats_t *st);

/* The slab pass, for one pair split by rows across devices or ranks: exactly lev_slab(p, ., 0,
 * ceil(la / 64), 0, lb, hp, hm, pv, mv) with p = aln_prep of (a, la, b, lb), i.e. all of a (the
 * caller's rows, a + 64 r0 for a slab starting at word row r0) over all of b; with rev, of a
 * and b both reversed (the prep's rev flags; reversed on the device); band: rgpu_dp_slab's. hp / hm
 * ((lb + 63) / 64 words) in: the top edge, out: the bottom edge; pv / mv ((la + 63) / 64 words)
 * in: the left edge, out: the right edge, or both NULL for the boundary left edge (D(i, 0) = i)
 * and no right edge. */
rk_status_t rgpu_lev_slab(const rgpu_opt_t *g, const char *a, int64_t la, const char *b, int64_t lb, int rev,
                          const int64_t *band, uint64_t *hp, uint64_t *hm, uint64_t *pv, uint64_t *mv, rgpu_stats_t *st);
/* One rank's half of a pair split on column c (rgpu_dp_half): in the band of distances <= k (k <
 * 0: any; band out), hp / hm / pv / mv as rgpu_lev_slab's for the half's columns ([0, c), or
 * [c, lb) reversed with rev). */
rk_status_t rgpu_lev_half(const rgpu_opt_t *g, const char *a, int64_t la, const char *b, int64_t lb, int64_t c, int rev, int64_t k,
                          int64_t band[2], uint64_t *hp, uint64_t *hm, uint64_t *pv, uint64_t *mv, rgpu_stats_t *st);
#endif

#ifdef __cplusplus
}
#endif

#endif
