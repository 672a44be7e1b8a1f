/* Internal to the gpu layer: the runtime every mode's host driver shares: the device and
 * its memory budget, one stream for every operation of a call (issue 8: nothing goes to
 * the legacy default stream, which a non-blocking stream is not ordered with), and timed
 * launches. */
#ifndef RGPU_RT_H
#define RGPU_RT_H

#include <cuda_runtime.h>
#include "gpu/rgpu.h"
#include "gpu/cuda_check.h"

#define RGPU_RESERVE (256ull << 20)  /* device memory left to the runtime and other processes */

typedef struct {
	int device;
	cudaStream_t st;        /* every copy, memset and launch of the call */
	cudaEvent_t e0, e1;
	uint64_t budget;        /* bytes the call may use: free memory less RGPU_RESERVE, capped by --device-memory */
	rgpu_stats_t *stats;    /* kernel time and launches are added here */
} rgpu_rt_t;

/* Select the device, create the stream and events, size the budget. rgpu_rt_free
 * releases them (also after a failed init). */
rk_status_t rgpu_rt_init(rgpu_rt_t *rt, const rgpu_opt_t *g, rgpu_stats_t *stats);
void rgpu_rt_free(rgpu_rt_t *rt);

/* launch(arg, rt->st) between two events; waits for it and adds its time to the stats. */
typedef cudaError_t (*rgpu_launch_f)(const void *arg, cudaStream_t st);
rk_status_t rgpu_rt_timed(rgpu_rt_t *rt, rgpu_launch_f launch, const void *arg);


/* Pinned host memory kept from call to call: a batch's codes are packed straight into it and
 * go up at the bus's rate, where a fresh malloc'ed buffer cost its page faults and a staged
 * (pageable) copy every call: 10-20 ms a block of 131,072 pairs of 150 bp on an H100 host.
 * rgpu_pinned_get gives a buffer of at least n bytes and its size in *cap, or NULL (n over
 * RGPU_PIN_MAX, or none could be pinned: the caller mallocs instead); rgpu_pinned_put gives it
 * back to the pool, which frees what it cannot keep. Thread-safe. The pool lives until the
 * process ends (its driver frees it). */
#define RGPU_PIN_MAX (256ull << 20)
void *rgpu_pinned_get(size_t n, size_t *cap);
void rgpu_pinned_put(void *p, size_t cap);
#endif
