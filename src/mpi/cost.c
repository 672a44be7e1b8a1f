/* The cost model of `--backend auto` (cost.h). Calibrated with jobs/bench-auto.sh on an NVIDIA
 * H100 (16 host cores, AVX-512) at the commit named in docs/BENCHMARKS.md ("auto"); each rate is
 * the compute stage of that grid's jobs (--stats), so reading and writing, equal on both
 * backends, are left out of both sides. */
#include <string.h>
#include "mpi/cost.h"

/* the reference rates: work units per second (GPU: the device; CPU: one thread at AVX-512) */
static const rmpi_rates_t rmpi_ref[RMPI_W_KINDS] = {
	/* gpu_fixed gpu_rate gpu_item gpu_bw gpu_step cpu_rate cpu_item */
	[RMPI_W_RKT] = { 0.05, 2.0e11, 0, 1.0e10, 0, 1.5e9, 0 },
	[RMPI_W_HAM] = { 0.05, 5.0e10, 0, 1.0e10, 0, 1.2e9, 0 },
	[RMPI_W_DP_PAIRS] = { 0.05, 9.0e12, 2.0e-7, 1.0e10, 0, 4.0e9, 2.0e-7 },
	[RMPI_W_DP_LONG] = { 0.05, 2.0e13, 0, 1.0e10, 5.0e-8, 6.0e10, 0 },
};

void rmpi_rates_for(rmpi_work_t kind, const char *gpu_name, int simd_bits, rmpi_rates_t *r)
{
	*r = rmpi_ref[kind < RMPI_W_KINDS ? kind : RMPI_W_DP_PAIRS];
	/* other devices by generation: the kernels are integer-bound, so by SMs x clock roughly */
	if (gpu_name && !strstr(gpu_name, "H100") && !strstr(gpu_name, "H200") && !strstr(gpu_name, "GH200")) {
		const double f = strstr(gpu_name, "A100") ? 0.5 : strstr(gpu_name, "B200") || strstr(gpu_name, "B100") ? 1.5 : 0.3;
		r->gpu_rate *= f;
		r->gpu_step /= f;
	}
	/* the CPU kernels are vectorised: narrower SIMD does proportionally less per thread */
	if (simd_bits < 512) r->cpu_rate *= (simd_bits > 64 ? simd_bits : 32) / 512.0;
}

int rmpi_cost_pick(const rmpi_cost_t *j, const rmpi_rates_t *r, double start_left, double *t_gpu, double *t_cpu)
{
	const double th = j->threads >= 1 ? j->threads : 1;
	*t_gpu = start_left + r->gpu_fixed + j->bytes / r->gpu_bw + j->work / r->gpu_rate + j->items * r->gpu_item +
	         j->span * r->gpu_step;
	*t_cpu = (j->work / r->cpu_rate + j->items * r->cpu_item) / th;
	return *t_gpu < *t_cpu;
}
