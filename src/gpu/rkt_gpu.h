/* gpu layer, Rkt-LCS (docs/rkt.md, "GPU"): the entry points the driver calls; present only
 * in builds with CUDA. */
#ifndef RGPU_RKT_H
#define RGPU_RKT_H

#ifdef __cplusplus
extern "C" {
#endif

#include "gpu/rgpu.h"
#include "algo/rkt.h"

#ifdef RKTLCS_HAVE_CUDA
/* Longest read the kernels take for this tau (shared-memory bound); longer reads need the
 * CPU backend. */
int32_t rgpu_rkt_max_len(int64_t tau);

/* GPU twin of rkt_candidates: candidates of reads [lo, hi) against all reads of s, with
 * identical results. Device memory is taken in chunks that fit g->mem_limit. */
rk_status_t rgpu_rkt_candidates(const rkt_opt_t *o, const rkt_set_t *s, int64_t lo, int64_t hi,
                                const rgpu_opt_t *g, rkt_cand_t *out, rgpu_stats_t *st);
#endif

#ifdef __cplusplus
}
#endif

#endif
