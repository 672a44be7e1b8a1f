/* CUDA_CHECK: wrap every runtime call; after a launch use CUDA_CHECK(cudaGetLastError()).
 * CUDA_CHECK_GOTO sets `st` and jumps to a cleanup label instead of returning. */
#ifndef RGPU_CUDA_CHECK_H
#define RGPU_CUDA_CHECK_H

#include <cuda_runtime.h>
#include "rktlcs.h"

#define CUDA_SET_ERROR(e_) rk_set_error("CUDA error %s at %s:%d: %s", cudaGetErrorName(e_), __FILE__, __LINE__, cudaGetErrorString(e_))

#define CUDA_CHECK(call) do { \
	cudaError_t e_ = (call); \
	if (e_ != cudaSuccess) { CUDA_SET_ERROR(e_); return RK_ERES; } \
} while (0)

#define CUDA_CHECK_GOTO(call, label) do { \
	cudaError_t e_ = (call); \
	if (e_ != cudaSuccess) { CUDA_SET_ERROR(e_); st = RK_ERES; goto label; } \
} while (0)

#endif
