/* librktlcs's own helpers (lib_pair.c, lib_sets.c, lib_gpu.c); not installed. */
#ifndef LIB_INT_H
#define LIB_INT_H

#include <stdint.h>
#include <string.h>
#include "rktlcs.h"
#include "lib/librktlcs.h"
#include "algo/lev.h"
#include "algo/lcs.h"
#include "algo/ham.h"
#include "algo/rkt.h"

/* n bytes of s into d as the command reads them: upper case (unless keep_case), U as T */
static inline void lib_norm(char *d, const char *s, int64_t n, int keep_case)
{
	for (int64_t i = 0; i < n; i++) {
		char c = s[i];
		if (!keep_case && c >= 'a' && c <= 'z') c = (char)(c - 32);
		d[i] = c == 'U' ? 'T' : c == 'u' ? 't' : c;
	}
}

/* the algo layer's status as the library's */
static inline rkl_status_t lib_status(rk_status_t st) { return st == RK_OK ? RKL_OK : st == RK_ERES ? RKL_ENOMEM : RKL_EINPUT; }

#pragma GCC visibility push(hidden)   /* the shared library exports rkl_ names only */
/* lib_gpu.c: the device twins of the algo calls on device dev (results identical; ends NULL:
 * global lev). RKL_EDEVICE, with rk_error set, without CUDA, without that device, or when it
 * fails. The hamming rows are the upper triangle of the n x n out, j >= i. */
rkl_status_t lib_gpu_lev(const lev_opt_t *o, const aln_pair_t *p, int64_t n, int dev, int64_t *d, aln_path_t *paths,
                         aln_ends_t *ends);
rkl_status_t lib_gpu_lcs(const lcs_opt_t *o, const aln_pair_t *p, int64_t n, int dev, int64_t *len, aln_path_t *paths);
rkl_status_t lib_gpu_ham_rows(const ham_set_t *h, const ham_opt_t *o, int dev, uint32_t *out);
rkl_status_t lib_gpu_ham_pairs(const ham_set_t *h, const ham_opt_t *o, int dev, uint32_t maxd, ham_pair_t **pairs, int64_t *np);
rkl_status_t lib_gpu_rkt(const rkt_opt_t *o, const rkt_set_t *set, int dev, rkt_cand_t *c);
#pragma GCC visibility pop

#endif
