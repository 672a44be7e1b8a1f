/* Test-only stand-in for <cuda_runtime.h>: the CUDA runtime calls the gpu layer makes, on host
 * memory, and a warp emulator for the lev/lcs kernels (dpg_kernel.cu, dpg_long_kernel.cu built
 * with -DDPG_EMU).
 * Each CUDA thread is a coroutine; the warp intrinsics are lock-step barriers of the warp's 32
 * lanes, which fail loudly when lanes of a warp meet different intrinsics or a lane has left
 * (divergence around __shfl_sync), and a spin with no release for too long is reported as a
 * deadlock. Memory is sequentially consistent here: this checks the kernels' logic (indices,
 * masks, skew, flow control, the driver), not the memory model or speed. See emu.cpp. */
#ifndef EMU_CUDA_RUNTIME_H
#define EMU_CUDA_RUNTIME_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <functional>

typedef enum {
	cudaSuccess = 0,
	cudaErrorInvalidValue = 1,
	cudaErrorMemoryAllocation = 2,
	cudaErrorNoDevice = 100,
	cudaErrorLaunchFailure = 719,
	cudaErrorCooperativeLaunchTooLarge = 720
} cudaError_t;
typedef struct emu_stream_s *cudaStream_t;
typedef struct emu_event_s *cudaEvent_t;
enum { cudaStreamNonBlocking = 1 };
typedef enum { cudaMemcpyHostToDevice = 1, cudaMemcpyDeviceToHost = 2, cudaMemcpyDeviceToDevice = 3, cudaMemcpyDefault = 4 } cudaMemcpyKind;
/* IPC inside one process: the handle carries the pointer (what another rank would map) */
typedef struct { char reserved[64]; } cudaIpcMemHandle_t;
enum { cudaIpcMemLazyEnablePeerAccess = 1 };
typedef enum { cudaDevAttrComputeMode = 20, cudaDevAttrMultiProcessorCount = 16, cudaDevAttrCooperativeLaunch = 95 } cudaDeviceAttr;
enum { cudaComputeModeDefault = 0, cudaComputeModeExclusiveProcess = 3 };
typedef enum { cudaFuncAttributeMaxDynamicSharedMemorySize = 8, cudaFuncAttributePreferredSharedMemoryCarveout = 9 } cudaFuncAttribute;
typedef struct { char name[256]; } cudaDeviceProp;

struct dim3 {
	unsigned x, y, z;
	dim3(unsigned a = 1, unsigned b = 1, unsigned c = 1) : x(a), y(b), z(c) {}
};

const char *cudaGetErrorName(cudaError_t e);
const char *cudaGetErrorString(cudaError_t e);
cudaError_t cudaGetDeviceCount(int *n);
cudaError_t cudaGetDeviceProperties(cudaDeviceProp *p, int dev);
cudaError_t cudaGetLastError(void);
cudaError_t cudaSetDevice(int dev);
cudaError_t cudaDeviceReset(void);
cudaError_t cudaGetDevice(int *dev);
cudaError_t cudaMemGetInfo(size_t *fr, size_t *tot);
cudaError_t cudaStreamCreateWithFlags(cudaStream_t *s, unsigned flags);
cudaError_t cudaStreamDestroy(cudaStream_t s);
cudaError_t cudaStreamSynchronize(cudaStream_t s);
cudaError_t cudaEventCreate(cudaEvent_t *e);
cudaError_t cudaEventDestroy(cudaEvent_t e);
cudaError_t cudaEventRecord(cudaEvent_t e, cudaStream_t s);
cudaError_t cudaEventSynchronize(cudaEvent_t e);
cudaError_t cudaEventElapsedTime(float *ms, cudaEvent_t a, cudaEvent_t b);
cudaError_t cudaDeviceGetAttribute(int *v, cudaDeviceAttr a, int dev);
cudaError_t cudaMalloc(void **p, size_t n);
template <class T>
static inline cudaError_t cudaMalloc(T **p, size_t n) { return cudaMalloc((void **)p, n); }
template <class T>
static inline cudaError_t cudaMallocHost(T **p, size_t n) { return cudaMallocHost((void **)p, n); }
cudaError_t cudaFree(void *p);
cudaError_t cudaMallocHost(void **p, size_t n);
cudaError_t cudaFreeHost(void *p);
cudaError_t cudaMemcpyAsync(void *dst, const void *src, size_t n, cudaMemcpyKind k, cudaStream_t s);
cudaError_t cudaMemsetAsync(void *dst, int v, size_t n, cudaStream_t s);
cudaError_t cudaIpcGetMemHandle(cudaIpcMemHandle_t *h, void *p);
cudaError_t cudaIpcOpenMemHandle(void **p, cudaIpcMemHandle_t h, unsigned flags);
cudaError_t cudaIpcCloseMemHandle(void *p);
cudaError_t cudaFuncSetAttribute(const void *f, cudaFuncAttribute a, int v);
cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int *n, const void *f, int threads, size_t smem);

/* ---- device side ---- */
struct emu_dim3 { unsigned x, y, z; };
struct emu_lane_s {
	emu_dim3 tid, bid, bdim, gdim;
};
extern emu_lane_s *emu_cur;
#define threadIdx (emu_cur->tid)
#define blockIdx (emu_cur->bid)
#define blockDim (emu_cur->bdim)
#define gridDim (emu_cur->gdim)
#define __global__
#define __device__
#define __host__
#define __forceinline__ inline
#define __launch_bounds__(...)
#define __shared__

/* one grid; coop: every block at once (cudaErrorCooperativeLaunchTooLarge beyond the
 * emulated occupancy), else block by block */
cudaError_t emu_launch(dim3 grid, dim3 block, size_t smem, bool coop, std::function<void()> body);
void *emu_dyn_smem(void);
unsigned long long emu_ld_acquire(const unsigned long long *p);
void emu_st_release(unsigned long long *p, unsigned long long v);

enum { EMU_SHFL_UP = 1, EMU_SHFL_XOR, EMU_ALL, EMU_MAX, EMU_SYNC, EMU_ANY, EMU_ADD, EMU_SHFL_IDX };
/* a barrier of the current lane's warp; line: the call site (lanes must meet at the same one) */
uint64_t emu_barrier_at(int line, int kind, unsigned mask, uint64_t v, int p1, int p2);
void emu_yield(void);
extern void (*emu_deadlock_hook)(void);

static inline int __popc(unsigned x) { return __builtin_popcount(x); }
static inline int __ffs(int x) { return __builtin_ffs(x); }
static inline int min(int a, int b) { return a < b ? a : b; }
static inline long min(long a, long b) { return a < b ? a : b; }
static inline long long min(long long a, long long b) { return a < b ? a : b; }
/* one OS thread runs every lane, so a plain read-modify-write is atomic */
template <class T>
static inline T atomicAdd(T *p, T v) { T o = *p; *p = o + v; return o; }
template <class T>
static inline T atomicOr(T *p, T v) { T o = *p; *p = o | v; return o; }
template <class T>
static inline T __ldg(const T *p) { return *p; }
static inline int __popcll(unsigned long long x) { return __builtin_popcountll(x); }
static inline void __nanosleep(unsigned) { emu_yield(); }
static inline void __threadfence(void) {}
static inline unsigned __funnelshift_l(unsigned lo, unsigned hi, unsigned s)
{
	s &= 31;
	return s ? (hi << s) | (lo >> (32 - s)) : hi;
}
static inline void emu_syncw(int line, unsigned mask = 0xffffffffu) { emu_barrier_at(line, EMU_SYNC, mask, 0, 0, 0); }
static inline int emu_all(int line, unsigned mask, int pred) { return (int)emu_barrier_at(line, EMU_ALL, mask, pred != 0, 0, 0); }
static inline unsigned emu_rmax(int line, unsigned mask, unsigned v) { return (unsigned)emu_barrier_at(line, EMU_MAX, mask, v, 0, 0); }
static inline int emu_any(int line, unsigned mask, int pred) { return (int)emu_barrier_at(line, EMU_ANY, mask, pred != 0, 0, 0); }
static inline unsigned emu_radd(int line, unsigned mask, unsigned v) { return (unsigned)emu_barrier_at(line, EMU_ADD, mask, v, 0, 0); }
template <class T>
static inline T emu_shfl(int line, int kind, unsigned mask, T v, int p1, int w)
{
	static_assert(sizeof(T) <= 8, "shuffle of at most 8 bytes");
	uint64_t x = 0;
	memcpy(&x, &v, sizeof v);
	const uint64_t r = emu_barrier_at(line, kind, mask, x, p1, w);
	T o;
	memcpy(&o, &r, sizeof o);
	return o;
}
template <class T>
static inline T emu_shfl_up(int line, unsigned mask, T v, unsigned d, int w = 32) { return emu_shfl(line, EMU_SHFL_UP, mask, v, (int)d, w); }
template <class T>
static inline T emu_shfl_xor(int line, unsigned mask, T v, int m, int w = 32) { return emu_shfl(line, EMU_SHFL_XOR, mask, v, m, w); }
template <class T>
static inline T emu_shfl_idx(int line, unsigned mask, T v, int src, int w = 32) { return emu_shfl(line, EMU_SHFL_IDX, mask, v, src, w); }
#define __syncwarp(...) emu_syncw(__LINE__, ##__VA_ARGS__)
#define __any_sync(...) emu_any(__LINE__, __VA_ARGS__)
#define __reduce_add_sync(...) emu_radd(__LINE__, __VA_ARGS__)
#define __shfl_sync(...) emu_shfl_idx(__LINE__, __VA_ARGS__)
#define __all_sync(...) emu_all(__LINE__, __VA_ARGS__)
#define __reduce_max_sync(...) emu_rmax(__LINE__, __VA_ARGS__)
#define __shfl_up_sync(...) emu_shfl_up(__LINE__, __VA_ARGS__)
#define __shfl_xor_sync(...) emu_shfl_xor(__LINE__, __VA_ARGS__)
template <class T>
static inline T __ldcg(const T *p) { return *p; }
template <class T>
static inline void __stcg(T *p, T v) { *p = v; }

#endif
