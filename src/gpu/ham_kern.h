/* Internal to the gpu layer: the hamming kernel's parameters, shared by the host driver
 * (ham_gpu.cu) and the kernel (ham_kernel.cu). */
#ifndef RGPU_HAM_KERN_H
#define RGPU_HAM_KERN_H

#include <cuda_runtime.h>
#include "algo/ham.h"

#define HG_T 64        /* pairs per block side */
#define HG_K 4         /* words staged through shared memory at a time */
#define HG_MAXP 9      /* planes + validity: 256 symbols at most */

typedef struct {
	const uint64_t *bits;
	int64_t stride, W, n, r0, r1;
	int P, valid;
	uint32_t cap, maxd;
	uint32_t *dense;           /* band rows x (n - r0), or NULL */
	int64_t ld;
	ham_pair_t *pairs;     /* or NULL */
	unsigned long long *n_pairs, max_pairs;
} hg_params_t;

/* One band (p->r0 .. p->r1 x p->r0 .. p->n); dflt: the snp-dists rule (2 planes + validity). */
cudaError_t hg_launch(const hg_params_t *p, int dflt, cudaStream_t st);

#endif
