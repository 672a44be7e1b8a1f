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

#endif
