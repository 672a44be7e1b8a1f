/* The gpu layer's lev/lcs sources, compiled by the host C++ compiler against the warp emulator
 * (cuda_runtime.h here, -DDPG_EMU): the same kernels and driver as the device build. */
#include "gpu/runtime.cu"
#include "gpu/dpg_kernel.cu"
#include "gpu/dpg_ctx.cu"
#include "gpu/dpg_batch.cu"
#include "gpu/dpg_long.cu"
#include "gpu/dpg_value.cu"
#include "gpu/dpg_hirsch.cu"
#include "gpu/dpg_slab.cu"
#include "gpu/dpg_all.cu"
#include "gpu/dpg_gpu.cu"
#include "gpu/lev_gpu.cu"
#include "gpu/lcs_gpu.cu"
