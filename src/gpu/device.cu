/* Device discovery. A missing driver or no device counts as "no GPU", not as an error. */
#include <stdio.h>
#include "gpu/cuda_check.h"
#include "gpu/rgpu.h"

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
