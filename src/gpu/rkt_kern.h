/* Internal to the gpu layer: data layout shared by the Rkt-LCS host driver (rkt_gpu.cu),
 * packing (rkt_pack.c) and kernels (rkt_kernel.cu).
 *
 * The reads j are sorted by length (longest first) into slots; slot q is bit q%32 of lane
 * (q/32)%32 of j-set q/1024. For every position p < Lmax of a j-set, a row holds six planes
 * of 32 words (one per lane): plane c < 4 has bit 1 where read j's symbol at p is not base c
 * (or is unknown, or p is past its end), plane 4 is all ones (s_i's own symbol is unknown),
 * plane 5 has bit 1 where p < len_j. A task is one start x of one read i. */
#ifndef RGPU_RKT_KERN_H
#define RGPU_RKT_KERN_H

#include <stdint.h>
#include "algo/rkt.h"

#define RG_ROW 192          /* words per row: 6 planes x 32 lanes */
#define RG_EX_PLANE 5
#define RG_SET 1024         /* reads per j-set */
#define RG_PAD_ROWS 8       /* rows after the last j-set: loads of starts past the end (>= RG_Y) */
#define RG_SMEM_SHARED (96 << 10)    /* blocks of several warps: leave L1 room for the rows */
#define RG_SMEM_MAX (200 << 10)      /* one warp per block: the longest reads */

/* code bytes of a read in shared memory (4-byte loads) */
static inline int32_t rg_lpad(int32_t len) { return (len + 3) & ~3; }
/* support counters of a read of length len: its starts x (len - tau + 1 of them), each with the
 * levels tau .. len - x */
static inline uint64_t rg_ncounters(int64_t len, int64_t tau)
{
	const uint64_t L = len >= tau ? (uint64_t)(len - tau + 1) : 0;
	return L * (L + 1) / 2;
}

typedef struct {
	int64_t code;   /* offset of s_i[x] in the chunk's code bytes */
	int64_t soff;   /* offset of this task's support counters S[l - tau], l = tau .. len_i - x */
	int32_t slot;   /* slot of read i, to leave out j == i */
	int32_t n;      /* len_i - x */
} rg_task_t;

typedef struct {
	const uint32_t *ne;       /* rows of j-sets j0..j1-1, the first at row row0 */
	const int64_t *jrow;      /* first row of each j-set (all j-sets) */
	const int32_t *jlen;      /* longest read of each j-set */
	const uint8_t *jmixed;    /* j-set has reads of several lengths or empty slots */
	int64_t row0;
	int32_t j0, j1;
	const uint8_t *codes;     /* the chunk's reads, 2-bit codes (4 unknown), one byte each */
	const rg_task_t *tasks;
	int64_t n_tasks;
	uint32_t *S;              /* support counters of the chunk's tasks, added to */
	int32_t k, tau;
	int32_t lr;               /* longest l range of a task: Lmax - tau + 1 */
	int32_t lpad;             /* code bytes per task in shared memory (multiple of 4) */
	int32_t tpw;              /* tasks per warp */
	int32_t carveout;         /* shared-memory carveout percent for the launch; < 0: the default */
} rg_kparams_t;

/* Walk-once launches (rg_launch_once): each unordered pair of owned reads is walked by one of
 * them, the one in the lower slot, and its walk gives both reads their supports. The reads j
 * of a walk take theirs from the "j side": the LCP at which each (j, y) dies, kept per warp in
 * a table of max LCPs so that the starts x of read i count once (one read i, not one per x),
 * then added to j's counters with atomics. */
#define RG_LBITS 12                         /* LCP bits of a table entry; the rest is a stamp */
#define RG_ONCE_MAXLEN ((1 << RG_LBITS) - 1)
#define RG_UNIT_SETS 32                     /* j-sets per unit of work */

typedef struct {
	int64_t code;   /* offset of the read's codes in the call's code bytes */
	int64_t soff;   /* offset of its support counters (start x = 0) in S */
	int32_t slot, len;
} rg_read_t;

typedef struct {
	int32_t read;   /* index into the reads */
	int32_t s0, s1; /* j-sets [s0, s1) */
} rg_unit_t;

typedef struct {
	const uint32_t *ne;       /* rows of every j-set */
	const int64_t *jrow;
	const int32_t *jlen;
	const uint8_t *jmixed;
	const uint8_t *codes;
	const rg_read_t *reads;
	const rg_unit_t *units;
	int64_t n_units;
	const uint32_t *own;      /* per j-set and lane: bits of the reads this call owns */
	const uint8_t *setown;    /* j-set: every read of it is owned */
	const int64_t *jbase;     /* per slot: S offset of the read's start 0 (owned reads) */
	const int32_t *slen;      /* per slot: read length */
	uint32_t *S;              /* support counters of every owned read, added to with atomics */
	uint32_t *T;              /* per warp slot: RG_SET x ny entries, stamp << RG_LBITS | lcp */
	uint32_t *stamp;          /* per warp slot: the last stamp it used */
	unsigned long long *next; /* units handed out (zero before each launch) */
	int32_t ny;               /* starts y per read at most: Lmax - tau + 1 */
	int32_t k, tau, lr, lpad;
	int32_t carveout;
	int32_t minb;             /* launch bounds variant: 4 (64 registers, the default) or 2 */
} rg_oparams_t;

#ifdef __CUDACC__
#define RG_HD __host__ __device__
#else
#define RG_HD
#endif

/* Candidate of a read of length len from its walk-once support differences (the rows of its
 * starts x one after another, level tau first): the longest level with support >= t, ties to
 * the smaller x. Supports fall with the level, so a row's scan stops at the first below t. */
static inline RG_HD rkt_cand_t rg_cand_of(const uint32_t *row, int64_t len, int64_t tau, int64_t t)
{
	rkt_cand_t c = { -1, 0, 0 };
	for (int64_t x = 0; x + tau <= len; x++) {
		const int64_t n = len - x - tau + 1;  /* levels tau .. len - x */
		if (tau + n - 1 <= c.len) break;      /* later starts are shorter and can only tie */
		uint32_t sup = 0;
		for (int64_t v = 0; v < n; v++) {
			sup += row[v];
			if (sup < t) break;
			if (tau + v > c.len) { c.len = tau + v; c.pos = x; c.support = sup; }
		}
		row += n;
	}
	return c;
}

#endif

#if defined(__CUDACC__) || defined(RG_EMU)
#include <cuda_runtime.h>
/* Shared memory of one block of `warps` warps. */
size_t rg_smem_bytes(int warps, int32_t lr, int32_t lpad, int32_t tpw);
/* Support counts of tasks [0, p->n_tasks) against j-sets [p->j0, p->j1); added to p->S. */
cudaError_t rg_launch_support(const rg_kparams_t *p, int warps, cudaStream_t st);
/* Candidate of each of nr reads from the support counters of its tasks
 * (tasks rtask[r] .. rtask[r+1]-1, in order of x). */
/* Shared memory and warps per block of a walk-once launch; 0 warps when none fits. */
size_t rg_osmem_warp(int32_t lr, int32_t lpad);
/* Resident blocks of `warps` warps on the device: the warp slots are blocks x warps. */
cudaError_t rg_once_blocks(const rg_oparams_t *p, int warps, int *blocks);
/* Walk-once support counts of units [0, p->n_units) on `blocks` resident blocks. */
cudaError_t rg_launch_once(const rg_oparams_t *p, int warps, int blocks, cudaStream_t st);
/* Candidates of nr reads of a walk-once call, in the order of `reads`. */
cudaError_t rg_launch_ocand(const uint32_t *S, const rg_read_t *reads, int64_t nr, int32_t tau, int64_t t,
                            rkt_cand_t *out, cudaStream_t st);
/* dst[0, n) += src[0, n) */
cudaError_t rg_launch_add(uint32_t *dst, const uint32_t *src, int64_t n, cudaStream_t st);
cudaError_t rg_launch_cand(const uint32_t *S, const int64_t *rtask, const rg_task_t *tasks, int64_t nr,
                           int32_t tau, int64_t t, rkt_cand_t *out, cudaStream_t st);
#endif
