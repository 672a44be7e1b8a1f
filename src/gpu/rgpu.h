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
	/* rgpu_dp_half calls ready(ready_arg) once the pair's codes and band are on the device,
	 * before its passes (NULL: none): processes that wait to start their own GPUs go then, as
	 * contexts made meanwhile held this set-up up (0.45 s on 4 H200) */
	void (*ready)(void *ready_arg);
	void *ready_arg;
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
	g->device = 0; g->mem_limit = 0; g->n_threads = 0; g->ready = 0; g->ready_arg = 0;
}

/* The path prefix of the driver's device files (0 without CUDA): closing them tears the
 * process's GPU state down, ~0.1 s, which the CLI leaves to a child (rk_exit_handoff) */
#ifdef RKTLCS_HAVE_CUDA
#define RGPU_DRIVER_FILES "/dev/nvidia"
#else
#define RGPU_DRIVER_FILES ((const char *)0)
#endif

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
/* The run goes to the CPU. A context already made is kept (the process ends without the
 * runtime's teardown); where the thread is still starting the driver, returns 1 without
 * waiting: the process then makes no CUDA call and ends with _exit while rgpu_warm_pending()
 * (the CUDA runtime's exit handlers would wait for the thread). */
int rgpu_warm_abandon(void);
int rgpu_warm_pending(void);
/* 1 while the context's thread is still starting (driver and context) */
int rgpu_warm_running(void);
/* Seconds until the context is made: 0 once it is (or when none is being made), else what is
 * left of `nominal` since rgpu_warm_start (at least 0.02). */
double rgpu_warm_left_s(double nominal);
/* The thread's driver start-up and context creation, in seconds; 0 until it has ended. */
int rgpu_warm_times(double *driver, double *context);
/* A CUDA context was made in this process (the process may end without tearing it down). */
int rgpu_context_made(void);
/* The release of this process's GPU state may go on after it has ended (rk_exit_handoff): no
 * context was made, or its device is in the default compute mode. 0 in an exclusive mode, where
 * a job started next would find the device busy until the release is over, and while the
 * context's thread is still in the driver (no CUDA call may wait for it). */
int rgpu_release_shared(void);
/* visible.c. The node's GPUs as this process could see them at start (CUDA_VISIBLE_DEVICES
 * or the driver's /proc entries), -1 if unknown; made no CUDA call. */
int rgpu_node_devices(void);
/* Before any CUDA call: see only the device this node-local rank uses (local_rank modulo
 * the node's devices), so the driver starts one device, not all. Returns its index among the
 * node's devices, or -1 where it changed nothing (one device or unknown, RKTLCS_GPU_VISIBLE=all).
 * Not for runs that map another device's memory (CUDA IPC). */
int rgpu_visible_own(int local_rank);
/* What rgpu_visible_own kept (-1: every device is visible). */
int rgpu_visible_index(void);
/* Before any CUDA call: the process's CUDA settings (its device's work queues). */
void rgpu_before_cuda(void);
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
static inline int rgpu_warm_abandon(void) { return 0; }
static inline int rgpu_warm_running(void) { return 0; }
static inline int rgpu_warm_pending(void) { return 0; }
static inline double rgpu_warm_left_s(double nominal) { (void)nominal; return 0; }
static inline int rgpu_warm_times(double *driver, double *context) { (void)driver; (void)context; return 0; }
static inline int rgpu_node_devices(void) { return 0; }
static inline int rgpu_context_made(void) { return 0; }
static inline int rgpu_release_shared(void) { return 0; }
static inline int rgpu_visible_own(int local_rank) { (void)local_rank; return -1; }
static inline int rgpu_visible_index(void) { return -1; }
static inline void rgpu_before_cuda(void) {}
#endif

#ifdef __cplusplus
}
#endif

#endif
