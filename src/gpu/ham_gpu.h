/* gpu layer, hamming (docs/hamming.md, "GPU"): the entry points the driver calls; present
 * only in builds with CUDA. Same results as ham_block / ham_pairs. */
#ifndef RGPU_HAM_H
#define RGPU_HAM_H

#ifdef __cplusplus
extern "C" {
#endif

#include "gpu/rgpu.h"
#include "algo/ham.h"

#ifdef RKTLCS_HAVE_CUDA
/* The upper band rows [r0, r1) x columns [r0, n), j >= i, into out[(i - r0) * ld + (j - r0)].
 * The bit planes must fit half of the device memory allowed (else RK_ERES and a message). */
rk_status_t rgpu_ham_block(const ham_set_t *h, const ham_opt_t *o, int64_t r0, int64_t r1, const rgpu_opt_t *g,
                           uint32_t *out, int64_t ld, rgpu_stats_t *st);
/* Pairs i in [r0, r1), j > i, within maxd, sorted; *pairs is allocated here, the caller frees it. */
rk_status_t rgpu_ham_pairs(const ham_set_t *h, const ham_opt_t *o, int64_t r0, int64_t r1, uint32_t maxd,
                           const rgpu_opt_t *g, ham_pair_t **pairs, int64_t *n_pairs, rgpu_stats_t *st);
#endif

#ifdef __cplusplus
}
#endif

#endif
