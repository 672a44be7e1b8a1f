/* CUDA_CHECK: wrap every runtime call; after a launch use CUDA_CHECK(cudaGetLastError()). */
#ifndef RGPU_CUDA_CHECK_H
#define RGPU_CUDA_CHECK_H

#include <cuda_runtime.h>
#include "rktlcs.h"

#define CUDA_CHECK(call) do { \
	cudaError_t e_ = (call); \
	if (e_ != cudaSuccess) { \
		rk_set_error("CUDA error %s at %s:%d: %s", cudaGetErrorName(e_), __FILE__, __LINE__, cudaGetErrorString(e_)); \
		return RK_ERES; \
	} \
} while (0)

#endif
