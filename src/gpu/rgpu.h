/* gpu layer: what the other layers see of the device runtime. A mode's GPU entry points
 * are in its own header (rkt_gpu.h, ham_gpu.h) and exist only in builds with CUDA
 * (RKTLCS_HAVE_CUDA); without it a driver never calls them and no device is usable. */
#ifndef RGPU_H
#define RGPU_H

#ifdef __cplusplus
extern "C" {
#endif

#include <stdio.h>
#include <stdint.h>
#include "rktlcs.h"

typedef struct {
	int device;           /* CUDA device index */
	uint64_t mem_limit;   /* bytes of device memory to use at most; 0: what cudaMemGetInfo leaves */
	int n_threads;        /* host threads for packing */
} rgpu_opt_t;

/* What one call did, for the summary line. */
typedef struct {
	double kernel_s;      /* time in kernels (CUDA events) */
	double total_s;       /* whole call: packing, transfers, kernels */
	int64_t n_launch, n_ichunk, n_jchunk;
	int64_t n_meet;       /* lev/lcs long pairs valued by two passes meeting at a column */
	int64_t n_fewer;      /* lev/lcs long kernel launches on fewer warps than strips at work (dpg_long.cu) */
	uint64_t dev_bytes;   /* device memory used at the peak */
} rgpu_stats_t;

static inline void rgpu_opt_init(rgpu_opt_t *g)
{
	g->device = 0; g->mem_limit = 0; g->n_threads = 0;
}

#ifdef RKTLCS_HAVE_CUDA
/* Number of usable CUDA devices; 0 when none is present or the driver is missing. */
int rgpu_device_count(void);
/* Name of device dev into buf (for logs); RK_ERES when unusable. */
rk_status_t rgpu_device_name(int dev, char *buf, int len);
/* Create the CUDA context of the device a rank with this node-local index will use
 * (local_rank % devices, as the backend policy picks it) on a thread of its own, so that
 * the 0.2-0.4 s it takes overlaps reading the input. Errors are left for the real use to
 * report. rgpu_warm_join waits for it (idempotent); rgpu_rt_init calls it. */
void rgpu_warm_start(int local_rank);
void rgpu_warm_join(void);
/* The run will not use the device after all: wait for the thread, destroy the context. */
void rgpu_warm_drop(void);
#else
static inline int rgpu_device_count(void) { return 0; }
static inline rk_status_t rgpu_device_name(int dev, char *buf, int len)
{
	(void)dev;
	snprintf(buf, (size_t)len, "none");
	rk_set_error("this rktlcs was built without CUDA");
	return RK_ERES;
}
static inline void rgpu_warm_start(int local_rank) { (void)local_rank; }
static inline void rgpu_warm_join(void) {}
static inline void rgpu_warm_drop(void) {}
#endif

#ifdef __cplusplus
}
#endif

#endif
