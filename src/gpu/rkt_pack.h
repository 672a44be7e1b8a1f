/* Internal to the gpu layer: host-side packing of the j-sets (layout in rkt_gpu.h). */
#ifndef RGPU_RKT_PACK_H
#define RGPU_RKT_PACK_H

#include "gpu/rkt_kern.h"
#include "rktlcs.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
	int64_t n_sets, n_rows;
	int32_t *slot_of;   /* read -> slot */
	int32_t *read_of;   /* n_sets * RG_SET: slot -> read, -1 for the empty slots of the last j-set */
	int64_t *jrow;      /* n_sets + 1: first row of each j-set */
	int32_t *jlen;      /* longest read of each j-set */
	uint8_t *jmixed;
	uint32_t *ne;       /* n_rows * RG_ROW words */
} rg_pack_t;

rk_status_t rg_pack_build(rg_pack_t *p, const rkt_set_t *s, int n_threads);
void rg_pack_free(rg_pack_t *p);
/* memcpy on n_threads threads (0: all): large copies out of pinned staging buffers, whose
 * destination pages are touched for the first time */
void rg_par_memcpy(void *dst, const void *src, size_t n, int n_threads);

#ifdef __cplusplus
}
#endif

#endif
