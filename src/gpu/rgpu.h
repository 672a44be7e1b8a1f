/* gpu layer: device discovery and the CUDA kernels of every mode. Without CUDA the same
 * functions exist and report that no device is usable. */
#ifndef RGPU_H
#define RGPU_H

#ifdef __cplusplus
extern "C" {
#endif

#include <stdint.h>
#include "rktlcs.h"
#include "algo/rkt.h"

/* Number of usable CUDA devices; 0 when built without CUDA or none is present. */
int rgpu_device_count(void);
/* Name of device dev into buf (for logs); RK_ERES when unusable. */
rk_status_t rgpu_device_name(int dev, char *buf, int len);

typedef struct {
	int device;           /* CUDA device index */
	uint64_t mem_limit;   /* bytes of device memory to use at most; 0: what cudaMemGetInfo leaves */
	int progress;         /* progress lines on stderr for long runs */
	int n_threads;        /* host threads for packing */
	int64_t test_chunk_reads; /* testing: at most this many owned reads per i-chunk (0: no cap) */
	int64_t test_chunk_sets;  /* testing: at most this many j-sets per j-chunk (0: no cap) */
} rgpu_opt_t;

typedef struct {
	double kernel_s;      /* time in kernels (CUDA events) */
	double total_s;       /* whole call: packing, transfers, kernels */
	int64_t n_launch, n_ichunk, n_jchunk;
	uint64_t dev_bytes;   /* device memory used at the peak */
} rgpu_stats_t;

void rgpu_opt_init(rgpu_opt_t *g);

/* Longest read the GPU Rkt-LCS kernels take for this tau (shared-memory bound); longer
 * reads need the CPU backend. 0 when built without CUDA. */
int32_t rgpu_rkt_max_len(int64_t tau);

/* GPU twin of rkt_candidates: candidates of reads [lo, hi) against all reads of s, with
 * identical results. Device memory is taken in chunks that fit g->mem_limit. */
rk_status_t rgpu_rkt_candidates(const rkt_opt_t *o, const rkt_set_t *s, int64_t lo, int64_t hi,
                                const rgpu_opt_t *g, rkt_cand_t *out, rgpu_stats_t *st);

/* hamming on the GPU (same results as rkt_ham_block / rkt_ham_pairs): the upper band
 * rows [r0, r1) x columns [r0, n), j >= i, into out[(i - r0) * ld + (j - r0)]; and the
 * pairs i in [r0, r1), j > i, within maxd, sorted. The bit planes must fit the device. */
rk_status_t rgpu_ham_block(const rkt_ham_set_t *h, const rkt_ham_opt_t *o, int64_t r0, int64_t r1, const rgpu_opt_t *g,
                           uint32_t *out, int64_t ld, rgpu_stats_t *st);
rk_status_t rgpu_ham_pairs(const rkt_ham_set_t *h, const rkt_ham_opt_t *o, int64_t r0, int64_t r1, uint32_t maxd,
                           const rgpu_opt_t *g, rkt_ham_pair_t **pairs, int64_t *n_pairs, rgpu_stats_t *st);

#ifdef __cplusplus
}
#endif

#endif
