/* The backend policy every mode shares (plan.h). */
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <stdlib.h>
#include "mpi/plan/plan.h"

#define PROBE_MIN_S 0.2     /* a CPU estimate this long or longer pays for a probe of its threads (10 ms) */
#define PROBE_REACH 50.0    /* ... where a CPU this many times slower would lose: the wavefront's worst, 42-50x */
#define BACKEND_UNNAMED "not started on this rank"   /* backend_defer's name, until rmpi_backend_name */

/* The device this rank uses, by name, once the driver is up: 0 devices means none after all. */
static int backend_confirm(const rmpi_t *w, rmpi_be_t *be)
{
	const int ndev = rgpu_device_count();
	if (ndev <= 0) { be->use_gpu = 0; return 0; }
	be->g.device = w->local_rank % ndev;
	if (rgpu_device_name(be->g.device, be->name, sizeof be->name) != RK_OK) {
		rk_clear_error();
		snprintf(be->name, sizeof be->name, "?");
	}
	return 1;
}

/* A rank the inputs say will wait (one long pair: rk_common_t.gpu_ranks; backend_waits) names its device
 * without starting the driver: processes starting it at once wait in turn (4 H100, a 10 Mb
 * pair at np 4: rank 0's context 0.97 s with ranks 2 and 3 starting their drivers, 0.25 s at
 * np 2). A later CUDA call, if the guess was wrong, starts it then. 0: not known without it. */
static int backend_waits(const rmpi_t *w, const rk_common_t *c)
{
	return c->gpu_ranks > 0 && w->rank >= c->gpu_ranks && rgpu_node_devices() > 0;
}

static int node_or_one(void)
{
	const int n = rgpu_node_devices();
	return n > 0 ? n : 1;
}

static int backend_defer(const rmpi_t *w, const rk_common_t *c, rmpi_be_t *be)
{
	if (!backend_waits(w, c)) return 0;
	be->g.device = rgpu_visible_index() >= 0 ? 0 : w->local_rank % rgpu_node_devices();
	snprintf(be->name, sizeof be->name, "%s", BACKEND_UNNAMED);
	return 1;
}

void rmpi_backend_name(rmpi_be_t *be)
{
	if (!be->use_gpu || strcmp(be->name, BACKEND_UNNAMED)) return;
	if (rgpu_device_name(be->g.device, be->name, sizeof be->name) != RK_OK) {
		rk_clear_error();
		snprintf(be->name, sizeof be->name, "?");
	}
}

rk_status_t rmpi_backend(const rmpi_t *w, const rk_common_t *c, int gpu_fits, const char *why_not, rmpi_be_t *be)
{
	memset(be, 0, sizeof *be);
	rgpu_opt_init(&be->g);
	be->g.mem_limit = c->device_memory;
	rk_status_t st = RK_OK;
	if (c->backend == RK_BACKEND_AUTO) {
		rmpi_rates_load(c->rates, w->rank == 0);
		if (w->rank == 0) rk_debug("auto's rates: %s", rmpi_rates_from());
	}
	/* auto asks the driver nothing yet: the context is still starting on its thread, and the
	 * cost model may not want it (rmpi_backend_cost); the node's devices are known without it.
	 * Nor does --backend gpu: it names its device after the read (rmpi_backend_cost), which
	 * otherwise waited here for the driver (1M pairs of 150 bp on one H100: 0.105 s before the
	 * read began, of a 0.54-0.68 s run) */
	const int node = rgpu_node_devices();
	int ndev = c->backend == RK_BACKEND_CPU ? 0 : node >= 0 ? node : rgpu_device_count();
	if (c->backend == RK_BACKEND_GPU && ndev == 0) {
#ifdef RKTLCS_HAVE_CUDA
		rk_err("--backend gpu: no usable CUDA device");  /* the same words on every rank: said once */
#else
		rk_err("--backend gpu: this rktlcs was built without CUDA");
#endif
		st = RK_ERES;
	}
	if ((st = rmpi_agree(w, st)) != RK_OK) return st;
	if (ndev == 0) return RK_OK;
	if (w->rank == 0 && ndev > 0 && w->local_size > ndev && !rmpi_gpu_slot(w->local_size - 1))
		rk_debug("ranks beyond the node's %d GPU%s start no context: %s", ndev, ndev == 1 ? "" : "s",
		         c->backend == RK_BACKEND_GPU ? "they take no work (--backend gpu)" : "they compute on the CPU where auto's rates say it pays");
	if (!rmpi_gpu_slot(w->local_rank)) {   /* the job's shares (rmpi_share_weights) say what it does */
		rgpu_warm_abandon();
		return RK_OK;
	}
	if (c->backend == RK_BACKEND_AUTO && !gpu_fits) {
		if (w->rank == 0 && why_not) rk_info("%s; using the CPU", why_not);
		rgpu_warm_abandon();
		return RK_OK;
	}
	be->use_gpu = 1;
	if (c->backend == RK_BACKEND_GPU && node < 0) { if (!backend_defer(w, c, be)) backend_confirm(w, be); }
	else be->pending = 1;
	return RK_OK;
}

/* auto's rates for a job of this kind: this machine's calibrated ones, else the built-in
 * table's on this CPU's SIMD level (the reference GPU) */
static void backend_rates(const rmpi_cost_t *job, rmpi_rates_t *r)
{
	rmpi_rates_here(job->kind, r);
}

/* RKTLCS_COST_LOG=FILE (calibrate's probes): the job as auto weighed it, one JSON line */
static void backend_cost_log(const rmpi_cost_t *j, double left, double tg, double tc)
{
	const char *f = getenv("RKTLCS_COST_LOG");
	FILE *fp = f && *f ? fopen(f, "a") : 0;
	if (!fp) return;
	fprintf(fp, "{\"kind\":\"%s\",\"work\":%.17g,\"items\":%.17g,\"bytes\":%.17g,\"span\":%.17g,\"threads\":%.17g,"
	        "\"cpu_x\":%.17g,\"gpu_x\":%.17g,\"chain_bound\":%d,\"cpu_beside\":%.17g,\"start_left\":%.17g,\"t_gpu\":%.17g,\"t_cpu\":%.17g}\n",
	        rmpi_rates_kind_key(j->kind), j->work, j->items, j->bytes, j->span, j->threads, j->cpu_x, j->gpu_x, j->chain_bound,
	        j->cpu_beside, left, tg, tc);
	fclose(fp);
}

/* The share of its threads the host gives this job now (be->cpu_share, probed once: probe.c),
 * for a long pair whose CPU estimate tc is long enough to pay for a probe (RMPI_PROBE_MS) and, with
 * the GPU's estimate tg, close enough to lose. Only a long pair's wavefront collapses on a busy
 * host (Round 15, 16 cores beside 16 busy processes: lcs of a 10 Mb pair 42x its time); work
 * taken from a queue loses its share, at most 2x there, which is not worth 15 ms of every run
 * on a healthy host. 0: not probed. RKTLCS_PROBE=1 probes any job (benchmarks), =0 none. */
static double backend_share(const rmpi_t *w, const rmpi_cost_t *job, double tg, double tc, rmpi_be_t *be)
{
	const char *env = getenv("RKTLCS_PROBE");
	const int force = env && *env == '1';
	if (be->cpu_share > 0) return be->cpu_share;
	if ((env && *env == '0') || (!force && (job->kind != RMPI_W_DP_LONG || tc < PROBE_MIN_S || tg > tc * PROBE_REACH))) return 0;
	const int th = job->threads >= 1 ? (int)job->threads : 1;
	const double t0 = rk_realtime();
	double least;
	be->cpu_share = rmpi_cpu_share(th, RMPI_PROBE_MS, &least);
	/* a host's passing work (the CI VM's neighbours: 0.5-0.8 one probe in four, idle) rarely
	 * holds for a second probe; busy processes do */
	if (be->cpu_share < RMPI_SHARE_FREE) {
		double l2;
		const double s2 = rmpi_cpu_share(th, RMPI_PROBE_MS, &l2);
		if (s2 > be->cpu_share) { be->cpu_share = s2; least = l2; }
	}
	rk_debug("rank %d: %d CPU thread%s given %.2f of the wall (least %.2f; %.1f ms)", w->rank, th, th == 1 ? "" : "s", be->cpu_share,
	         least, (rk_realtime() - t0) * 1e3);
	return be->cpu_share;
}

double rmpi_backend_share_cpu(const rmpi_t *w, const rmpi_cost_t *job, rmpi_be_t *be)
{
	rmpi_rates_t r;
	double tg, tc;
	backend_rates(job, &r);
	rmpi_cost_pick(job, &r, 0, &tg, &tc);
	return backend_share(w, job, 0, tc, be);
}

/* auto chose the CPU: on a host whose cores other work keeps busy its rates do not hold. The
 * estimate tc scaled by what the probe found; 1 when the GPU then finishes first. */
static int backend_probe(const rmpi_t *w, const rmpi_cost_t *job, double tg, double *tc, rmpi_be_t *be)
{
	const double share = backend_share(w, job, tg, *tc, be);
	if (!(share > 0)) return 0;
	/* the host's slowdown scales the run, not what the context's start adds to it */
	*tc = (*tc - job->cpu_beside) * rmpi_cost_slowdown(job->kind, job->threads >= 1 ? (int)job->threads : 1, rmpi_cpus(), share) +
	      job->cpu_beside;
	return tg < *tc;
}

void rmpi_backend_cost(const rmpi_t *w, const rk_common_t *c, const rmpi_cost_t *job, rmpi_be_t *be)
{
	static const char *kinds[RMPI_W_KINDS] = { "Rkt-LCS", "hamming", "pairs", "long pair", "--all" };
	if (!be->use_gpu || !be->pending) {
		if (getenv("RKTLCS_COST_LOG")) {   /* calibrate's CPU probes, also where no GPU is wanted */
			rmpi_rates_t r;
			double tg, tc;
			backend_rates(job, &r);
			rmpi_cost_pick(job, &r, 0, &tg, &tc);
			backend_cost_log(job, 0, tg, tc);
		}
		return;
	}
	be->pending = 0;
	if (c->backend == RK_BACKEND_GPU) {
		/* forced: the device now; a node whose driver lists none after all fails at its first
		 * CUDA call, with the driver's reason (exit 2), as --backend gpu never falls back */
		if (!backend_defer(w, c, be) && !backend_confirm(w, be)) {
			be->use_gpu = 1;
			be->g.device = rgpu_visible_index() >= 0 ? 0 : w->local_rank % node_or_one();
		}
		return;
	}
	rmpi_rates_t r;
	const char *forced = getenv("RKTLCS_AUTO");  /* tests: "gpu" or "cpu" as the model's answer */
	backend_rates(job, &r);
	const double start = rmpi_rates_start(RMPI_START_NOMINAL);
	double tg, tc, left = rgpu_warm_left_s(start);
	rmpi_cost_t jb = *job;
	/* a wavefront beside the driver's start-up runs at its slowest thread's pace: as much of
	 * RMPI_CPU_BESIDE (measured with ~0.26 of the nominal 0.3 s left) as is left of the start */
	if (jb.kind == RMPI_W_DP_LONG && rgpu_warm_running())
		jb.cpu_beside = RMPI_CPU_BESIDE * (left < start ? left / start : 1);
	int gpu = rmpi_cost_pick(&jb, &r, left, &tg, &tc);
	if (!(forced && *forced) && rmpi_calib_first(w, c, tg, tc)) {   /* RKTLCS_CALIBRATE=auto: weighed again */
		backend_rates(job, &r);
		left = rgpu_warm_left_s(rmpi_rates_start(RMPI_START_NOMINAL));
		gpu = rmpi_cost_pick(&jb, &r, left, &tg, &tc);
	}
	backend_cost_log(&jb, left, tg, tc);
	if (forced && *forced) gpu = !strcmp(forced, "gpu");
	else if (!gpu) gpu = backend_probe(w, &jb, tg, &tc, be);
	/* (the line ends with the choice: tests read it there; rmpi_backend named the rates) */
	rk_debug("auto on rank %d (%s): gpu %.3g s (start-up %.3g s left), cpu %.3g s on %g thread%s: the %s", w->rank,
	         kinds[job->kind], tg, left, tc, job->threads, job->threads == 1 ? "" : "s", gpu ? "GPU" : "CPU");
	if (!gpu) {
		be->use_gpu = 0;
		rgpu_warm_abandon();
		return;
	}
	if (!backend_defer(w, c, be) && !backend_confirm(w, be)) rk_debug("auto on rank %d: no usable CUDA device after all; the CPU", w->rank);
}

int rmpi_backend_solo(const rmpi_t *w, const rk_common_t *c, rmpi_be_t *be)
{
	if (c->gpu_ranks != 1 || w->size < 2) return 0;
	const int solo = rmpi_any(w, w->rank == 0 && be->use_gpu);
	if (w->rank != 0 || !solo) be->use_gpu = 0;
	return solo;
}

int rmpi_gpu_failed(const rk_common_t *c, rmpi_be_t *be, rk_status_t st)
{
	if (c->backend == RK_BACKEND_AUTO && st != RK_EINPUT) {
		rk_warn("GPU: %s; using the CPU", rk_error());
		rk_clear_error();
		be->use_gpu = 0;
		return 1;
	}
	rk_err("%s", rk_error());
	return 0;
}

void rmpi_backend_desc(const rmpi_be_t *be, const char *cpu, char *buf, size_t size)
{
	const rgpu_stats_t *s = &be->stats;
	if (!be->use_gpu) { snprintf(buf, size, "cpu (%s)", cpu); return; }
	char chunks[96] = "";
	if (s->n_ichunk || s->n_jchunk)
		snprintf(chunks, sizeof chunks, ", %lld i-chunk%s, %lld j-chunk%s", (long long)s->n_ichunk, s->n_ichunk == 1 ? "" : "s",
		         (long long)s->n_jchunk, s->n_jchunk == 1 ? "" : "s");
	snprintf(buf, size, "gpu (%s; kernels %.3f s, %lld launch%s%s on rank 0)", be->name, s->kernel_s, (long long)s->n_launch,
	         s->n_launch == 1 ? "" : "es", chunks);
}
