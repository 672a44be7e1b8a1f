/* The cost model of `--backend auto` (cost.h). Its reference rates are data, with where and
 * how each was measured: src/mpi/plan/rates_ref.json (the built-in table, compiled in), or this
 * machine's file from `rktlcs calibrate` (rates.c). Each rate is the compute stage of a job
 * (--stats), so reading and writing, equal on both backends, are left out of both sides. */
#include <math.h>
#include <string.h>
#include "mpi/plan/cost.h"

void rmpi_cost_weights(rmpi_cost_t *j, int lcs, int path)
{
	/* A long pair: 1 Mb random, 32 threads: lcs value 0.35 s against lev 0.48 s; lcs --path
	 * --seq 3.23 s on the CPU (Hirschberg) and 0.28 s against 0.15 s on the GPU; lev --path 1.5x
	 * its value on one thread. Short pairs in batches: the CPU traces both from its column
	 * store; 1M pairs of 150 bp on 16 threads (H100 host): lev value 0.20 s, --path 0.32-0.35 s,
	 * lcs value 0.23 s, --path 0.29 s. The long pair's 9 here had auto send those lcs --path
	 * jobs to the GPU, twice the CPU's wall (0.92 against 0.46 s). */
	const int lng = j->kind == RMPI_W_DP_LONG;
	j->cpu_x = (lcs ? 0.72 : 1) * (path ? (lcs ? (lng ? 9 : 1.9) : 1.5) : 1);
	j->gpu_x = path ? 2 : 1;
	j->path = path;
}

void rmpi_rates_for(rmpi_work_t kind, const char *gpu_name, int simd_bits, rmpi_rates_t *r)
{
	rmpi_rates_ref(kind, r);
	/* other devices by generation: the kernels are integer-bound, so by SMs x clock roughly */
	if (gpu_name && !strstr(gpu_name, "H100") && !strstr(gpu_name, "H200") && !strstr(gpu_name, "GH200")) {
		const double f = strstr(gpu_name, "A100") ? 0.5 : strstr(gpu_name, "B200") || strstr(gpu_name, "B100") ? 1.5 : 0.3;
		r->gpu_rate *= f;
		r->gpu_step /= f;
	}
	/* the CPU kernels are vectorised: narrower SIMD does proportionally less per thread */
	if (simd_bits < 512) r->cpu_rate *= (simd_bits > 64 ? simd_bits : 32) / 512.0;
}

/* The GPU's band is the static band of its bound. Weighed at 4x the divergence of the cells
 * at the dense rate, the 10 Mb pair 5% apart came to 1.35 s of kernel, where it took 0.6 s
 * (call AM: 0.84-0.89 s of wall from 0.5% to 5%, the chain's time): 2p + 0.002 bounds it
 * (30 Mb at 1%: 1.9 s of wall, 1.6 for lcs). The CPU prunes by a bound that follows the alignment's
 * drift (aln_bound.c, 8eadf90) and its band narrows as the cost accumulates (Ukkonen). Its
 * cells, measured on 16 threads of an H200 host (call AM, c7be1d5; lev, compute stage over
 * the reference rate): 10 Mb pairs 0.5, 1, 2 and 5% apart 0.0061, 0.0083, 0.0149 and 0.0339
 * of every cell, 3 Mb at 1 and 3% 0.0153 and 0.024, 30 Mb at 1% 0.0070: 0.59 p plus a width
 * of ~32 kb (CPU_BAND_W / n), within 15% at every point. The form before (0.5 p + 0.002, fit
 * to one pair guessed 1.5% apart) took half of the 2% pair's cost, and auto the CPU at 1.7x
 * the GPU's wall. lcs's band costs the CPU 0.81-0.88 of lev's there (the dense weight is 0.72),
 * and its chain the GPU 0.8-0.83 of lev's (the compute stage less the context's ~0.25 s).
 * Above 5% the CPU's bound loses the drift more often: from 10% on both bands are taken alike,
 * in between a blend. lev --path on the 10 Mb pair 1% apart took the CPU 7.4-9.2 s (~9x its
 * value; 1.5x on a random 1 Mb pair, rmpi_cost_weights) and the GPU 1.8-1.9 s: without the
 * factor auto took the CPU.
 * A banded pass (up to 5%) on either backend is not what a dense one is:
 * - the GPU's is bound by its chain, about la column steps of one strip at 57 ns (Round 12:
 *   0.57 s for 10 Mb; the pass measured 0.76-0.87 s of wall with the context), not 2(la + lb)
 *   steps added to the band's cells at the dense rate (the estimate was 1.71 s);
 * - the CPU's keeps more than the dense wavefront's 16 threads busy (cpu_par): 64 threads took
 *   0.50-0.53 s against 16's 0.87-0.92 s (rmpi_cost_band_speed). */
#define CPU_BAND_P 0.59
#define CPU_BAND_W 32e3
#define LCS_BAND_CPU (0.85 / 0.72)  /* lcs's band over lev's on the CPU, over the dense weight */
#define LCS_BAND_GPU 0.82           /* lcs's chain over lev's on the GPU */

void rmpi_cost_band(rmpi_cost_t *j, double p, int lcs, int path)
{
	const double n = j->span / 2, g = 2 * p + 0.002, gx = g < 1 ? g : 1;
	/* the CPU's band is never the wider; lev --path's levels then weigh it */
	double lo = (lcs ? LCS_BAND_CPU : 1) * (CPU_BAND_P * p + (n >= 1 ? CPU_BAND_W / n : 0));
	lo = (lo < gx ? lo : gx) * (!lcs && path ? 5.5 : 1);
	double cx = p <= 0.05 ? lo : p >= 0.1 ? gx : lo + (gx - lo) * (p - 0.05) / 0.05;
	if (p <= 0.05) {
		j->chain_bound = 1;
		j->span *= 0.57 * (lcs ? LCS_BAND_GPU : 1);
		if (j->threads > 16) cx *= rmpi_cost_band_speed(16) / rmpi_cost_band_speed(j->threads);
	}
	j->gpu_x = (j->gpu_x > 0 ? j->gpu_x : 1) * gx;
	j->cpu_x = (j->cpu_x > 0 ? j->cpu_x : 1) * cx;
}

double rmpi_cost_band_speed(double n)
{
	const double m = n < 1 ? 1 : n < 16 ? n : 16;
	return pow(m, 0.75) * (1 + 0.25 * (n > m ? n - m : 0) / 16);
}

#define SHARE_EXCESS 0.05   /* what a probe of 10 ms gets over its fair share (new threads run first) */

static double share_fair(double share)
{
	const double s = share < RMPI_SHARE_FREE ? share - SHARE_EXCESS : share > 1 ? 1 : share;
	return s < 0.05 ? 0.05 : s;
}

int rmpi_cost_free_threads(int threads, int cores, double share)
{
	if (threads <= 1 || share >= RMPI_SHARE_FREE) return threads < 1 ? 1 : threads;
	if (cores < 1) cores = threads;
	/* load = cores / fair - threads busy threads besides ours; the free cores are cores - load */
	const double f = cores + threads - cores / share_fair(share);
	return f >= threads ? threads : f < 1 ? 1 : (int)f;
}

double rmpi_cost_slowdown(rmpi_work_t kind, int threads, int cores, double share)
{
	const double s = share_fair(share);
	if (kind != RMPI_W_DP_LONG) return 1 / s;
	const int f = rmpi_cost_free_threads(threads, cores, share);
	if (f >= threads) return 1;
	/* f threads on cores of their own; one alone shares its core besides */
	return rmpi_cost_band_speed(threads) / rmpi_cost_band_speed(f) / (f > 1 ? 1 : s);
}

double rmpi_cost_threads(const rmpi_rates_t *r, double threads)
{
	return threads < 1 ? 1 : r->cpu_par > 0 && threads > r->cpu_par ? r->cpu_par : threads;
}

int rmpi_cost_pick(const rmpi_cost_t *j, const rmpi_rates_t *r, double start_left, double *t_gpu, double *t_cpu)
{
	/* a path's measured factor weighs every variable term, as calibrate measured them together:
	 * on the GPU a short pair's path costs its host side (packing, ops back, runs) more than its
	 * cells, and a factor on the cells alone left a path job's estimate near its values' */
	const double px = j->path && r->cpu_path > 0 ? r->cpu_path : 1, pg = j->path && r->gpu_path > 0 ? r->gpu_path : 1;
	const double th = rmpi_cost_threads(r, j->threads), cx = j->cpu_x > 0 ? j->cpu_x : 1, gx = j->gpu_x > 0 ? j->gpu_x : 1;
	const double cells = gx * j->work / r->gpu_rate, chain = j->span * r->gpu_step;
	const double fixed = j->path && r->gpu_path_fixed > r->gpu_fixed ? r->gpu_path_fixed : r->gpu_fixed;
	*t_gpu = start_left + fixed + pg * (j->bytes / r->gpu_bw + j->items * r->gpu_item + (j->chain_bound ? (cells > chain ? cells : chain) : cells + chain));
	const double rate = r->cpu_rate * (j->chain_bound && r->cpu_band > 0 ? r->cpu_band : 1);
	*t_cpu = px * (cx * j->work / rate + j->items * r->cpu_item) / th + j->cpu_beside;
	return *t_gpu < *t_cpu;
}
