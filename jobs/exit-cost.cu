/* jobs/bench-exit.sh: what a CUDA process pays after its last CUDA call, ending by _exit, by
 * return, by cudaDeviceReset then _exit, or by fork (a child holds its files) then _exit;
 * optionally with MB of device memory and MB of pinned host memory. Usage: exit-cost MODE
 * [DEV_MB] [PIN_MB], MODE nocuda|exit|return|reset|fork. Prints the moment of its last call. */
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <unistd.h>
#include <sys/time.h>
#include <cuda_runtime.h>
#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { fprintf(stderr, "%s: %s\n", #x, cudaGetErrorString(e_)); exit(2); } } while (0)
static double now() { timeval t; gettimeofday(&t, 0); return t.tv_sec + t.tv_usec * 1e-6; }
__global__ void k(int *p) { p[threadIdx.x] = threadIdx.x; }
int main(int argc, char **argv)
{
	const char *how = argc > 1 ? argv[1] : "exit";
	size_t dev_mb = argc > 2 ? atoi(argv[2]) : 0, pin_mb = argc > 3 ? atoi(argv[3]) : 0;
	double t0 = now();
	if (strcmp(how, "nocuda") != 0) {
		int *d; CK(cudaMalloc(&d, 1024)); k<<<1, 32>>>(d); CK(cudaGetLastError()); CK(cudaDeviceSynchronize());
		if (dev_mb) { void *x; CK(cudaMalloc(&x, dev_mb << 20)); CK(cudaMemset(x, 1, dev_mb << 20)); }
		if (pin_mb) { void *h; CK(cudaHostAlloc(&h, pin_mb << 20, 0)); memset(h, 1, pin_mb << 20); }
		CK(cudaDeviceSynchronize());
	}
	double t1 = now();
	fprintf(stderr, "%s init+work %.3f s end_at %.6f\n", how, t1 - t0, t1);
	if (!strcmp(how, "reset")) { CK(cudaDeviceReset()); fprintf(stderr, "reset %.3f s\n", now() - t1); _exit(0); }
	if (!strcmp(how, "fork")) { if (fork() == 0) _exit(0); _exit(0); }
	if (!strcmp(how, "return")) return 0;
	_exit(0);
}
