/* The gpu layer's Rkt-LCS sources, compiled by the host C++ compiler against the warp emulator
 * (cuda_runtime.h here, -DRG_EMU): the same kernels and driver as the device build. */
#include "gpu/runtime.cu"
#include "gpu/rkt_kernel.cu"
#include "gpu/rkt_gpu.cu"
#include "gpu/rkt_once.cu"
