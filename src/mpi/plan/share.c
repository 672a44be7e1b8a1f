/* Ranks beyond the node's GPUs and each rank's share of a job where GPU and CPU ranks work
 * side by side (plan.h). Ranks that shared one GPU made every mode slower than one rank: the
 * driver time-slices their contexts and starts them in turn (docs/SCALING.md, "More ranks
 * than GPUs"). */
#include <stdlib.h>
#include <unistd.h>
#include "mpi/plan/plan.h"

#define SHARE_CPU_SAFETY 0.75   /* a CPU rank's estimated speed is taken at this much: one estimated
                                 * too fast ends after the GPU, and the job waits for it */
#define SHARE_CPU_MIN 0.02      /* CPU ranks whose speeds add less than this of the whole take nothing */
#define SHARE_MIN_S 1.0         /* nor in a job the GPUs end sooner: reading, sharing and gathering
                                 * among more ranks cost more than the CPU ranks add */

static int share_node_gpus(void)
{
	return rk_tune.standin_gpus > 0 ? rk_tune.standin_gpus : rgpu_node_devices();
}

int rmpi_gpu_slot(int local_rank)
{
	if (rk_tune.gpu_ranks < 0) return 1;   /* RKTLCS_GPU_RANKS=all: every rank may share the devices */
	const int n = share_node_gpus();
	return n <= 0 || local_rank < 0 || local_rank < n;
}

/* this rank counts as a GPU rank: it computes on one, or stands in for one (tests) */
static int share_is_gpu(const rmpi_t *w, const rmpi_be_t *be)
{
	if (rk_tune.standin_gpus > 0) return w->local_rank < rk_tune.standin_gpus;
	return be->use_gpu;
}

/* the user set the threads (--threads, -j or OMP_NUM_THREADS): a rank keeps them */
static int share_threads_set(const rk_common_t *c) { return c->threads_given || getenv("OMP_NUM_THREADS"); }

/* CPU ranks that take nothing leave their cores to the node's GPU ranks (their host threads
 * pack, unpack and format), unless the user set the threads */
static void share_gpu_threads(const rmpi_t *w, const rk_common_t *c, rmpi_be_t *be, int ngpu)
{
	if (!share_is_gpu(w, be) || share_threads_set(c)) return;
	const int local = w->local_size < ngpu ? w->local_size : ngpu, t = rmpi_threads(w, c);
	long cores = sysconf(_SC_NPROCESSORS_ONLN);
	int n = (int)(cores > 0 ? cores : 1) / (local > 0 ? local : 1);
	if (rmpi_cpus() < n) n = rmpi_cpus();   /* bound by the launcher to fewer */
	be->threads = n > t ? n : t;
}

int rmpi_be_threads(const rmpi_t *w, const rk_common_t *c, const rmpi_be_t *be)
{
	return be->threads > 0 ? be->threads : rmpi_threads(w, c);
}

/* the CPU ranks take a share: auto only (--backend gpu keeps the GPU alone) */
static int share_hybrid(const rk_common_t *c)
{
	if (rk_tune.standin_gpus > 0) return !rk_tune.standin_alone;
	return c->backend == RK_BACKEND_AUTO;
}

/* The shares' work and items R / ngpu times, the fixed costs (a rank's start, its copy of the
 * data) once. A share's time times R / ngpu counted them R / ngpu times: hamming 100k x 30 kb at
 * np 16 was taken for 1.6 s on one H200, the CPU ranks took a share, and the job ran longer
 * than the GPU alone (docs/SCALING.md). */
double rmpi_share_gpus_s(const rmpi_cost_t *share, const rmpi_rates_t *r, int ranks, int ngpu)
{
	rmpi_cost_t whole = *share;
	whole.work *= (double)ranks / (ngpu > 0 ? ngpu : 1);
	whole.items *= (double)ranks / (ngpu > 0 ? ngpu : 1);
	double tg, tc;
	rmpi_cost_pick(&whole, r, 0, &tg, &tc);
	return tg;
}

rk_status_t rmpi_share_weights(const rmpi_t *w, const rk_common_t *c, const rmpi_cost_t *job, double cpu_x, rmpi_be_t *be, double *wt)
{
	const int R = w->size;
	double mine[2] = { share_is_gpu(w, be), job->threads >= 1 ? job->threads : 1 }, *all = malloc(sizeof(double) * 2 * (size_t)R);
	int ngpu = 0;
	if (rmpi_any(w, !all)) {
		free(all);
		rk_set_error("out of memory");
		return RK_ERES;
	}
	rmpi_allgather(w, mine, sizeof mine, all);
	for (int r = 0; r < R; r++) ngpu += all[2 * r] > 0;
	for (int r = 0; r < R; r++) wt[r] = 1;
	if (ngpu == 0 || ngpu == R) { free(all); return RK_OK; }   /* alike ranks: equal shares, as always */
	rmpi_rates_t rt;
	rmpi_rates_here(job->kind, &rt);
	rmpi_cost_t jb = *job;
	double tg, tc, cpu = 0, gpu = 0, tc0 = 0;
	rmpi_cost_pick(&jb, &rt, 0, &tg, &tc);
	const int hybrid = share_hybrid(c);
	double threads = 0;
	for (int r = 0; r < R; r++) threads += all[2 * r + 1];
	const long cores = sysconf(_SC_NPROCESSORS_ONLN);
	/* (the node's threads: every rank's on one node, the usual case; across nodes an estimate) */
	const double over = cores > 0 && w->local_size == R ? threads / (double)cores : 1;
	for (int r = 0; r < R; r++) {
		if (all[2 * r] > 0) { gpu += wt[r] = 1 / (tg > 0 ? tg : 1e-9); continue; }
		jb.threads = all[2 * r + 1];
		rmpi_cost_pick(&jb, &rt, 0, &tg, &tc);
		if (over > 1) tc *= over;   /* more ranks' threads than cores: each runs at a part of one */
		if (!tc0) tc0 = tc;
		cpu += wt[r] = hybrid && tc > 0 ? SHARE_CPU_SAFETY / (tc * (cpu_x > 0 ? cpu_x : 1)) : 0;
	}
	/* Rkt-LCS reads and hamming rows only: a long pair is one item (a CPU rank given one keeps
	 * the job waiting for minutes), and lev/lcs batches gained nothing consistent from a share,
	 * sharing their reads with every rank costing more (docs/SCALING.md, "More ranks than GPUs") */
	const double t_gpus = rmpi_share_gpus_s(job, &rt, R, ngpu);
	/* (the CPU standing in for GPUs divides any job: tests of the division) */
	const int fine = rk_tune.standin_gpus > 0 || job->kind == RMPI_W_RKT || job->kind == RMPI_W_HAM;
	const int long_enough = rk_tune.standin_gpus > 0 || t_gpus >= SHARE_MIN_S;
	const int take = hybrid && fine && long_enough && cpu >= SHARE_CPU_MIN * (cpu + gpu);
	if (!take) {
		for (int r = 0; r < R; r++) if (!(all[2 * r] > 0)) wt[r] = 0;
		share_gpu_threads(w, c, be, ngpu);
	}
	if (w->rank == 0)
		rk_debug("ranks: %d on a GPU%s, %d beside them on the CPU: %s (a GPU rank's share %.3g s, a CPU rank's %.3g s)", ngpu,
		         rk_tune.standin_gpus > 0 ? " (stood in for by the CPU)" : "", R - ngpu,
		         !hybrid ? "they take nothing (the GPU alone)" : take ? "they take a share by auto's rates"
		         : !fine ? "this kind of job is not divided (a long pair, lev/lcs pairs): they take nothing" : !long_enough ? "the job is too short to divide: they take nothing"
		         : "their share would be too small: they take nothing", tg, tc0);
	if (w->rank == 0 && take) rk_debug("ranks: the CPU ranks take %.1f%% of the work (the GPUs' whole, alone: %.3g s)", 100 * cpu / (cpu + gpu), t_gpus);
	else if (w->rank == 0 && hybrid && fine && !long_enough) rk_debug("ranks: the GPUs' whole, alone: %.3g s", t_gpus);
	free(all);
	return RK_OK;
}

/* A node of one GPU gives lev and lcs nothing from its other ranks: their CPU share does not
 * pay for the job (share_weights), and sharing the reads with them and gathering their rows
 * made every count above one slower than one rank (docs/SCALING.md). Decided before the read,
 * so that the waiting ranks get none of it. */
int rmpi_solo(const rmpi_t *w, const rk_common_t *c, rmpi_t *one)
{
	*one = *w;
	if (!w->mpi || w->size < 2 || w->nodes != 1) return 0;
	const int fit = share_node_gpus() == 1 && !share_threads_set(c) && !rk_tune.no_solo && !rk_tune.split_plan && rk_tune.gpu_ranks >= 0;
	if (rmpi_any(w, !fit)) return 0;
	rmpi_sub(w, 1, one);
	one->local_size = 1;   /* rank 0's world: a node of its own */
	if (w->rank == 0)
		rk_debug("ranks: rank 0 alone with the node's one GPU and %d threads; the other %d ranks wait (the reads and rows shared among them would cost more than they add)",
		         c->threads_alone, w->size - 1);
	return 1;
}
