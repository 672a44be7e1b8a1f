// Holds every visible GPU's driver state open, as persistence mode (nvidia-persistenced) does on
// most clusters, without changing a setting of the machine: a context on each device, then
// sleep. jobs/bench-start.sh runs its "held" rows beside it. Without persistence mode, a process
// that opens an idle GPU first waits for the driver to initialise it, and several at once wait
// in turn. Build: nvcc -O2 -o gpu_hold jobs/gpu_hold.cu    Usage: gpu_hold SECONDS
#include <cstdio>
#include <cstdlib>
#include <unistd.h>
#include <cuda_runtime.h>

int main(int argc, char **argv)
{
	const int secs = argc > 1 ? atoi(argv[1]) : 600;
	int n = 0;
	if (cudaGetDeviceCount(&n) != cudaSuccess) { fprintf(stderr, "gpu_hold: no CUDA device\n"); return 2; }
	for (int d = 0; d < n; d++)
		if (cudaSetDevice(d) != cudaSuccess || cudaFree(0) != cudaSuccess) { fprintf(stderr, "gpu_hold: device %d failed\n", d); return 2; }
	printf("gpu_hold: %d devices held\n", n);
	fflush(stdout);
	sleep(secs);
	return 0;
}
