/* Device discovery and the shared runtime of the modes' host drivers. A missing driver or
 * no device counts as "no GPU", not as an error. */
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include "gpu/rgpu_rt.h"

static pthread_t rgpu_warm_thr;
static int rgpu_warm_on, rgpu_warm_dev = -1;  /* the device whose context the thread created */
/* the thread's clock (rk_realtime): started, driver up (cudaGetDeviceCount), context made;
 * written by the thread, read after it ended (rgpu_warm_done's acquire) */
static double rgpu_warm_t[3];
static volatile int rgpu_warm_fin;  /* the thread has ended */
static int rgpu_warm_left;          /* abandoned while still starting: the process ends with _exit */
static int rgpu_warm_ever;          /* a thread was started */

static void *rgpu_warm_main(void *a)
{
	int n = 0;
	const int ok = cudaGetDeviceCount(&n) == cudaSuccess && n > 0;
	rgpu_warm_t[1] = rk_realtime();
	if (ok && cudaSetDevice((int)(intptr_t)a % n) == cudaSuccess && cudaFree(0) == cudaSuccess)
		rgpu_warm_dev = (int)(intptr_t)a % n;
	rgpu_warm_t[2] = rk_realtime();
	cudaGetLastError();  /* this thread's error state only: the real use reports its own */
	__atomic_store_n(&rgpu_warm_fin, 1, __ATOMIC_RELEASE);
	return 0;
}

extern "C" void rgpu_warm_start(int local_rank)
{
	if (rgpu_warm_on || rgpu_warm_left) return;
	rgpu_warm_fin = 0;
	rgpu_warm_t[0] = rk_realtime();
	if (pthread_create(&rgpu_warm_thr, 0, rgpu_warm_main, (void *)(intptr_t)local_rank) == 0) rgpu_warm_on = rgpu_warm_ever = 1;
}

extern "C" void rgpu_warm_join(void)
{
	if (rgpu_warm_on) pthread_join(rgpu_warm_thr, 0);
	rgpu_warm_on = 0;
}

extern "C" void rgpu_warm_drop(void)
{
	if (!rgpu_warm_ever) return;  /* no CUDA call: the first would start the driver (~0.1 s) */
	rgpu_warm_join();
	/* the run goes to the CPU: give back the context's device memory to other jobs */
	if (rgpu_warm_dev >= 0 && cudaSetDevice(rgpu_warm_dev) == cudaSuccess) cudaDeviceReset();
	cudaGetLastError();
	rgpu_warm_dev = -1;
}

extern "C" int rgpu_warm_abandon(void)
{
	if (!rgpu_warm_on || __atomic_load_n(&rgpu_warm_fin, __ATOMIC_ACQUIRE)) {
		/* made: kept, not reset (cudaDeviceReset took 0.1-0.2 s of jobs the CPU ends in 0.05 s);
		 * the driver frees it when the process ends (modes.c ends it without the runtime's
		 * teardown), and it holds a few hundred MB of device memory meanwhile */
		rgpu_warm_join();
		return 0;
	}
	/* still in the driver: waiting would add the rest of its 0.1-1 s to a job the CPU does
	 * sooner. The thread is left to finish; no CUDA call may follow, and the process ends
	 * with _exit (rgpu_warm_pending), since the runtime's exit handlers would wait for it. */
	pthread_detach(rgpu_warm_thr);
	rgpu_warm_on = 0;
	rgpu_warm_left = 1;
	return 1;
}

extern "C" int rgpu_warm_pending(void)
{
	return rgpu_warm_left && !__atomic_load_n(&rgpu_warm_fin, __ATOMIC_ACQUIRE);
}

extern "C" int rgpu_warm_running(void)
{
	return rgpu_warm_on && !__atomic_load_n(&rgpu_warm_fin, __ATOMIC_ACQUIRE);
}

extern "C" double rgpu_warm_left_s(double nominal)
{
	if (!rgpu_warm_ever) return nominal;  /* the context starts on first use */
	if (!rgpu_warm_on || __atomic_load_n(&rgpu_warm_fin, __ATOMIC_ACQUIRE)) return 0;
	const double spent = rk_realtime() - rgpu_warm_t[0];
	return spent < nominal ? nominal - spent : 0.02;
}

static int rgpu_made;           /* a context was made in this process */
static int rgpu_made_dev = -1;  /* ... on this device (rgpu_rt_init's last) */

extern "C" int rgpu_context_made(void) { return rgpu_made || rgpu_warm_dev >= 0; }

extern "C" int rgpu_release_shared(void)
{
	if (rgpu_warm_pending()) return 0;
	if (!rgpu_context_made()) return 1;
	const int dev = rgpu_made_dev >= 0 ? rgpu_made_dev : rgpu_warm_dev;
	int mode = -1;
	if (dev < 0 || cudaDeviceGetAttribute(&mode, cudaDevAttrComputeMode, dev) != cudaSuccess) {
		cudaGetLastError();
		return 0;
	}
	return mode == cudaComputeModeDefault;
}

extern "C" int rgpu_warm_times(double *driver, double *context)
{
	if (!__atomic_load_n(&rgpu_warm_fin, __ATOMIC_ACQUIRE) || rgpu_warm_t[0] <= 0) return 0;
	*driver = rgpu_warm_t[1] - rgpu_warm_t[0];
	*context = rgpu_warm_t[2] - rgpu_warm_t[1];
	return 1;
}

extern "C" int rgpu_device_count(void)
{
	int n = 0;
	if (cudaGetDeviceCount(&n) != cudaSuccess) {
		cudaGetLastError(); /* clear the sticky "no device" error */
		return 0;
	}
	return n;
}

extern "C" rk_status_t rgpu_device_name(int dev, char *buf, int len)
{
	cudaDeviceProp p;
	CUDA_CHECK(cudaGetDeviceProperties(&p, dev));
	snprintf(buf, (size_t)len, "%s", p.name);
	return RK_OK;
}

rk_status_t rgpu_rt_init(rgpu_rt_t *rt, const rgpu_opt_t *g, rgpu_stats_t *stats)
{
	rgpu_warm_join();
	memset(rt, 0, sizeof *rt);
	rt->device = g->device;
	rt->stats = stats;
	CUDA_CHECK(cudaSetDevice(g->device));
	rgpu_made = 1;
	rgpu_made_dev = g->device;
	size_t fr = 0, tot = 0;
	CUDA_CHECK(cudaMemGetInfo(&fr, &tot));
	rt->budget = fr > 2 * RGPU_RESERVE ? fr - RGPU_RESERVE : fr / 2;
	if (g->mem_limit && g->mem_limit < rt->budget) rt->budget = g->mem_limit;
	CUDA_CHECK(cudaStreamCreateWithFlags(&rt->st, cudaStreamNonBlocking));
	CUDA_CHECK(cudaEventCreate(&rt->e0));
	CUDA_CHECK(cudaEventCreate(&rt->e1));
	return RK_OK;
}

void rgpu_rt_free(rgpu_rt_t *rt)
{
	/* unchecked: this runs on error paths too, where the first error is the one to report */
	if (rt->e0) cudaEventDestroy(rt->e0);
	if (rt->e1) cudaEventDestroy(rt->e1);
	if (rt->st) cudaStreamDestroy(rt->st);
	memset(rt, 0, sizeof *rt);
}

rk_status_t rgpu_rt_timed(rgpu_rt_t *rt, rgpu_launch_f launch, const void *arg)
{
	CUDA_CHECK(cudaEventRecord(rt->e0, rt->st));
	CUDA_CHECK(launch(arg, rt->st));
	CUDA_CHECK(cudaEventRecord(rt->e1, rt->st));
	CUDA_CHECK(cudaEventSynchronize(rt->e1));
	float ms = 0;
	CUDA_CHECK(cudaEventElapsedTime(&ms, rt->e0, rt->e1));
	if (rt->stats) { rt->stats->kernel_s += ms / 1e3; rt->stats->n_launch++; }
	return RK_OK;
}

/* ---- pinned host buffers kept for the next call (rgpu_rt.h) ---- */
#define RGPU_PIN_SLOTS 4            /* two blocks in flight, each a chunk or two */
#define RGPU_PIN_ROUND (16ull << 20)
static pthread_mutex_t rgpu_pin_mu = PTHREAD_MUTEX_INITIALIZER;
static struct { void *p; size_t cap; } rgpu_pin[RGPU_PIN_SLOTS];

void *rgpu_pinned_get(size_t n, size_t *cap)
{
	*cap = 0;
	if (n == 0 || n > RGPU_PIN_MAX) return 0;
	void *p = 0;
	size_t c = 0;
	pthread_mutex_lock(&rgpu_pin_mu);
	int best = -1;
	for (int i = 0; i < RGPU_PIN_SLOTS; i++)
		if (rgpu_pin[i].p && rgpu_pin[i].cap >= n && (best < 0 || rgpu_pin[i].cap < rgpu_pin[best].cap)) best = i;
	if (best >= 0) {
		p = rgpu_pin[best].p; c = rgpu_pin[best].cap;
		rgpu_pin[best].p = 0; rgpu_pin[best].cap = 0;
	}
	pthread_mutex_unlock(&rgpu_pin_mu);
	if (!p) {
		c = (n + RGPU_PIN_ROUND - 1) / RGPU_PIN_ROUND * RGPU_PIN_ROUND;
		if (cudaMallocHost(&p, c) != cudaSuccess) {
			cudaGetLastError();   /* not sticky: the caller's malloc takes over */
			return 0;
		}
	}
	*cap = c;
	return p;
}

void rgpu_pinned_put(void *p, size_t cap)
{
	if (!p) return;
	pthread_mutex_lock(&rgpu_pin_mu);
	int at = -1;   /* an empty slot, else the smallest smaller than this one */
	for (int i = 0; i < RGPU_PIN_SLOTS && at < 0; i++)
		if (!rgpu_pin[i].p) at = i;
	for (int i = 0; i < RGPU_PIN_SLOTS && at < 0; i++)
		if (rgpu_pin[i].cap < cap && (at < 0 || rgpu_pin[i].cap < rgpu_pin[at].cap)) at = i;
	void *drop = p;
	if (at >= 0) {
		drop = rgpu_pin[at].p;
		rgpu_pin[at].p = p; rgpu_pin[at].cap = cap;
	}
	pthread_mutex_unlock(&rgpu_pin_mu);
	if (drop) cudaFreeHost(drop);   /* unchecked: nothing left to report it to */
}
