/* algo-private: the diagonal sweep of maxlcp.c in 32-bit lanes, for reads whose positions
 * do not fit the 16-bit lanes (over RKT_MAX16 bp), or every pair when rk_tune.rkt_lanes32. */
#ifndef MAXLCP32_H
#define MAXLCP32_H

#include <stdint.h>

typedef struct rkt_ws32_s rkt_ws32_t;

rkt_ws32_t *rkt_ws32_init(int32_t max_len);
void rkt_ws32_free(rkt_ws32_t *w);
/* rkt_maxlcp_pair in 32-bit lanes: simd 3 AVX-512, else AVX2 (x86 builds only; the caller
 * checks the level), K1 = k + 1 <= 256. a and b are followed by RKT_PAD bytes of 0xFF. */
void rkt_maxlcp32(rkt_ws32_t *w, int simd, const uint8_t *a, int32_t la, const uint8_t *b, int32_t lb, int K1,
                  int32_t *ma, int32_t *mb);
/* The same in parts: part `part` of nparts (every nparts-th group of diagonals) into w's
 * accumulators; the others' folded into one (fold), whose MaxLCP out gives. rkt_maxlcp32 is
 * part 0 of 1, then out. */
void rkt_maxlcp32_part(rkt_ws32_t *w, int simd, const uint8_t *a, int32_t la, const uint8_t *b, int32_t lb, int K1,
                       int part, int nparts);
void rkt_maxlcp32_fold(rkt_ws32_t *into, const rkt_ws32_t *from, int32_t la, int32_t lb);
void rkt_maxlcp32_out(const rkt_ws32_t *w, int32_t la, int32_t lb, int32_t *ma, int32_t *mb);

#endif
