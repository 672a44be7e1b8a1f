/* Rkt-LCS under MPI (rkt_run.h). */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "mpi/run/rkt_run.h"
#include "io/rkt_out.h"
#include "gpu/rkt_gpu.h"

void rkt_run_opt_init(rkt_run_opt_t *o)
{
	memset(o, 0, sizeof *o);
	rk_common_init(&o->c);
	rkt_opt_init(&o->algo);
}

rk_status_t rkt_run_opt_check(const rkt_run_opt_t *o)
{
	if (!o->input) { rk_set_error("no input file given (see rktlcs --help)"); return RK_EINPUT; }
	if (o->c.format == RK_FMT_PAF) { rk_set_error("--format paf is for alignments (lev and lcs with --path); rkt writes tsv or json"); return RK_EINPUT; }
	if (o->algo.k < 0) { rk_set_error("missing -k (mismatches)"); return RK_EINPUT; }
	if (o->algo.t < 1) { rk_set_error("missing -t (min reads)"); return RK_EINPUT; }
	if (o->algo.tau < 1) { rk_set_error("missing -tau (min length)"); return RK_EINPUT; }
	return RK_OK;
}

typedef struct {
	const int64_t *bounds;
	rkt_cand_t *all;
} rkt_gather_t;

static rk_status_t rkt_take(void *ctx, int rank, const void *data, uint64_t n)
{
	rkt_gather_t *g = ctx;
	if (n != sizeof(rkt_cand_t) * (uint64_t)(g->bounds[rank + 1] - g->bounds[rank])) {
		rk_set_error("rank %d sent %llu bytes of candidates, not the %lld reads it owns", rank, (unsigned long long)n,
		             (long long)(g->bounds[rank + 1] - g->bounds[rank]));
		return RK_ERES;
	}
	memcpy(g->all + g->bounds[rank], data, n);
	return RK_OK;
}

/* Rank 0: the winner, its occurrences and the tables; every output or none. */
static rk_status_t rkt_write(const rkt_run_opt_t *o, const rio_reads_t *reads, const rkt_set_t *set, const rkt_opt_t *ro,
                             const rkt_cand_t *all)
{
	rio_rkt_meta_t meta = { o->input, o->algo.k, o->algo.t, o->algo.tau, o->occurrences, o->c.format };
	rkt_occ_t *occ = 0;
	int64_t n_occ = 0, win = rkt_winner(all, set->n);
	rk_status_t st = RK_OK;
	rio_out_t oc, orr, *outs[2];
	int n = 0;
	if (win >= 0 && o->occurrences) st = rkt_occurrences(ro, set, win, all[win].pos, all[win].len, &occ, &n_occ);
	if (!st && o->candidates && (st = rio_out_open(&oc, o->candidates)) == RK_OK) {
		outs[n++] = &oc;
		st = rio_rkt_write_candidates(&oc, &meta, reads, all);
	}
	if (!st && (st = rio_out_open(&orr, o->c.output)) == RK_OK) {
		outs[n++] = &orr;
		st = rio_rkt_write_result(&orr, &meta, reads, all, win, occ, n_occ);
	}
	if (!st) st = rio_out_commit_all(outs, n);
	else for (int i = 0; i < n; i++) rio_out_abort(outs[i]);
	free(occ);
	if (st) { rk_err("%s", rk_error()); return st; }
	if (win < 0)
		rk_info("no read has a substring of length >= %lld shared (<= %lld mismatches) with >= %lld other reads",
		        (long long)o->algo.tau, (long long)o->algo.k, (long long)o->algo.t);
	return RK_OK;
}

#ifdef RKTLCS_HAVE_CUDA
/* Collective over GPU ranks with walk-once shares: each rank's reads [lo, hi) get the sums
 * of their supports (counters soff[rank] .. soff[rank + 1]) and their candidates in mine.
 * On one node the devices add each other's counters (CUDA IPC; NVLink where there is one):
 * at 1M x 51 bp the host path copies 2.8 GB to the host and sums it through MPI (~2.2 s on
 * 2 H200). Elsewhere, or when a device cannot open another's memory, through the host. */
static rk_status_t rkt_sum_supports(const rmpi_t *w, rgpu_rkt_sup_t *sup, const uint64_t *soff, const rkt_set_t *set,
                                    const rkt_opt_t *ro, int64_t lo, int64_t hi, rkt_cand_t *mine)
{
	rk_status_t st = RK_OK;
	/* a rank that sees only its own GPU (rgpu_visible_own) cannot open another's memory */
	if (w->local_size == w->size && !rk_tune.rkt_host_sum && rgpu_visible_index() < 0) {
		unsigned char me[RGPU_IPC_BYTES], *all = malloc((size_t)w->size * RGPU_IPC_BYTES);
		int ok = all && rgpu_rkt_sup_export(sup, me) == RK_OK;
		if (!ok) memset(me, 0, sizeof me);
		if (!rmpi_any(w, !ok)) {
			rmpi_allgather(w, me, RGPU_IPC_BYTES, all);
			ok = rgpu_rkt_sup_open_peers(sup, all, w->size, w->rank) == RK_OK;
		}
		if (!ok) rk_debug("rkt: rank %d: %s; the supports are summed through the host", w->rank, all ? rk_error() : "out of memory");
		if (!ok) rk_clear_error();
		free(all);
		if (!rmpi_any(w, !ok)) {
			st = rgpu_rkt_sup_add(sup, 0, soff[w->rank], soff[w->rank + 1] - soff[w->rank]);
			if (st) rk_err("%s", rk_error());
			else rk_debug("rkt: rank %d: supports summed between the devices (CUDA IPC)", w->rank);
			/* also the barrier: no rank frees its supports while another still reads them */
			if ((st = rmpi_agree(w, st)) == RK_OK && (st = rgpu_rkt_sup_cands(sup, lo, hi, mine)) != RK_OK) rk_err("%s", rk_error());
			return rmpi_agree(w, st);
		}
		/* nothing was added; the ranks whose opens succeeded close them before the agreement
		 * below, after which the others may free their supports */
		rgpu_rkt_sup_close_peers(sup);
	}
	uint32_t *S = 0;
	uint64_t nS = 0;
	if ((st = rgpu_rkt_sup_to_host(sup, ro->n_threads, &S, &nS)) != RK_OK) rk_err("%s", rk_error());
	if ((st = rmpi_agree(w, st)) == RK_OK) {
		rk_debug("rkt: rank %d: supports summed through the host", w->rank);
		rmpi_sum_u32_to(w, S, soff);  /* each rank the sums of its own reads */
		rgpu_rkt_cands_from_supports(set, ro->tau, ro->t, S, lo, hi, mine);
	}
	free(S);
	return st;
}
#endif

/* CPU ranks likewise (collective, every rank a CPU rank): each unordered pair is walked by one
 * rank (rows dealt out in turn), which counts it for both reads; the counters are summed to the
 * reads' owners. Every rank then holds the counters of all reads, so only while they take at
 * most a quarter of the node's memory per rank; else (*shared stays 0) each rank walks its own
 * reads against all (pairs across two ranks' reads walked by both). */
static rk_status_t rkt_cpu_dealt(const rmpi_t *w, const rkt_opt_t *ro, const rkt_set_t *set, const int64_t *bounds,
                                 rkt_cand_t *mine, rmpi_clock_t *clk, int *shared)
{
	const int64_t lo = bounds[w->rank], hi = bounds[w->rank + 1];
	rk_status_t st = RK_OK;
	uint64_t *soff = malloc(sizeof(uint64_t) * ((size_t)w->size + 1));
	if (soff) rkt_support_offs(set, ro->tau, bounds, w->size + 1, soff);  /* bounds[size] = n: all counters */
	const double need = soff ? 4.0 * (double)soff[w->size] : 0;
	const double room = (double)sysconf(_SC_PHYS_PAGES) * (double)sysconf(_SC_PAGESIZE) / 4 / (w->local_size > 0 ? w->local_size : 1);
	if (!rmpi_any(w, !soff || need > room)) {
		uint32_t *S = 0;
		uint64_t nS = 0;
		st = rkt_supports(ro, set, w->rank, w->size, &S, &nS);
		if (st) rk_debug("rkt: rank %d: %s; each rank walks its own reads", w->rank, rk_error());
		if (st) rk_clear_error();
		if (!rmpi_any(w, st != RK_OK)) {
			rmpi_clock_lap(clk, RMPI_COMPUTE);
			rmpi_sum_u32_to(w, S, soff);  /* each rank the sums of its own reads */
			rmpi_clock_lap(clk, RMPI_GATHER);
			if ((st = rkt_cands_from_supports(ro, set, S, lo, hi, mine)) != RK_OK) rk_err("%s", rk_error());
			rk_debug("rkt: rank %d: pairs dealt out to the CPU ranks, counters summed", w->rank);
			*shared = 1;
		} else st = RK_OK;
		free(S);
	} else if (w->rank == 0)
		rk_debug("rkt: the counters of all reads (%.3g GB) are too many for every rank to hold; each rank walks its own reads", need / 1e9);
	free(soff);
	return st;
}

/* The reads are shared by claims between a GPU and its rank's threads (rkt_hybrid.c): auto
 * (--backend gpu keeps the GPU alone), a GPU in the job, and a job the GPU walks from both
 * reads (walk-once needs every pair's both reads in one walk). Alike on every rank. */
static int rkt_hybrid_due(const rk_common_t *c, const rkt_opt_t *ro, const rkt_set_t *set, int gpu_in_job)
{
	if (rk_tune.rkt_hybrid == 2) return 1;
	if (rk_tune.rkt_hybrid < 0 || c->backend != RK_BACKEND_AUTO || !gpu_in_job || set->n < 2) return 0;
#ifdef RKTLCS_HAVE_CUDA
	return rgpu_rkt_walks_twice(ro, set) && set->max_len <= rgpu_rkt_max_len(ro->tau);
#else
	(void)ro;
	return 0;
#endif
}

rk_status_t rmpi_rkt_run(const rmpi_t *w, const rkt_run_opt_t *o)
{
	double t0 = rk_realtime();
	rio_reads_t reads;
	rkt_set_t set;
	rkt_cand_t *mine = 0, *all = 0;
	int64_t *bounds = 0;
	double *wt = 0;
	rmpi_be_t be;
	rk_status_t st;
	memset(&set, 0, sizeof set);

	const char *outs[3] = { o->c.output, o->candidates, o->c.stats };
	rmpi_clock_t clk;
	rmpi_clock_start(&clk);
	memset(&reads, 0, sizeof reads);
	if ((st = rmpi_check_outputs(w, outs, 3, &o->input, 1)) != RK_OK) return st;
	if ((st = rmpi_read_reads(w, o->input, 0, &reads, &clk)) != RK_OK) goto done;
	if (w->rank == 0 && reads.n < 2) {
		rk_err("%s: %lld record(s); Rkt-LCS needs at least 2 reads", o->input, (long long)reads.n);
		st = RK_EINPUT;
	}
	if (!st && (st = rkt_set_init(&set, &reads)) != RK_OK) rk_err("%s", rk_error());
	if ((st = rmpi_agree(w, st)) != RK_OK) goto done;

	int fits = 0;
	char why[256] = "";
#ifdef RKTLCS_HAVE_CUDA
	fits = set.max_len <= rgpu_rkt_max_len(o->algo.tau);
	/* the limit: a warp keeps the read's codes and one support row per level in shared memory */
	snprintf(why, sizeof why, "rkt: the longest read (%d bp) is over the %d bp the GPU kernels take at tau=%lld (a warp holds "
	         "a read and its support levels in shared memory)", set.max_len, rgpu_rkt_max_len(o->algo.tau), (long long)o->algo.tau);
#endif
	if ((st = rmpi_backend(w, &o->c, fits, why, &be)) != RK_OK) goto done;
	/* this rank's share of the pairs of reads, each walked from every start of its reads */
	const double avg = set.n ? (double)set.n_bases / (double)set.n : 0;
	/* a job too small to pay for a context on every rank of the node (rmpi_guess_rkt_ranks):
	 * rank 0's GPU takes every read, where the model gives rank 0 the GPU; the others wait */
	const int solo = o->c.gpu_ranks == 1 && w->size > 1;
	rmpi_cost_t cj = { RMPI_W_RKT, (double)set.n * (double)set.n / 2 * avg / (solo ? 1 : w->size), 0, (double)set.n_bases, 0,
	                   rmpi_threads(w, &o->c), 0, 0, 0, 0, 0 };
	rmpi_backend_cost(w, &o->c, &cj, &be);
	const int solo_gpu = rmpi_backend_solo(w, &o->c, &be);
	if (solo_gpu && w->rank == 0)
		rk_debug("rkt: %.3g read-pair starts, too few to pay for a GPU context on each of the node's ranks (the driver makes "
		         "them in turn): rank 0's GPU takes every read", cj.work);
	/* the cost model must be the same on every rank, or the ranks' bounds (and the gather's
	 * counts) disagree: a rank without a GPU next to one with a GPU is allowed */
	int gpu_cost = rmpi_any(w, be.use_gpu);
	bounds = malloc(sizeof(int64_t) * ((size_t)w->size + 1));
	wt = malloc(sizeof(double) * (size_t)w->size);
	if (!bounds || !wt) { rk_err("out of memory"); st = RK_ERES; }
	if ((st = rmpi_agree(w, st)) != RK_OK) goto done;
	/* GPU and CPU ranks side by side: shares by their rates; a CPU rank walks its reads against
	 * all (twice the pairs of one rank's walk-once). Where the GPU's reads are shared with its
	 * rank's threads by claims, the other ranks take nothing and leave it their cores. */
	const int hybrid = rkt_hybrid_due(&o->c, &o->algo, &set, gpu_cost);
	if (!solo_gpu && (st = rmpi_share_weights(w, &o->c, &cj, hybrid ? INFINITY : 2, &be, wt)) != RK_OK) rk_err("%s", rk_error());
	if ((st = rmpi_agree(w, st)) != RK_OK) goto done;
	if (hybrid && w->rank == 0)
		rk_debug("rkt: a GPU's reads are shared by claims with its rank's CPU threads; ranks without one take nothing and wait");
	if (solo_gpu) for (int r = 0; r <= w->size; r++) bounds[r] = r ? set.n : 0;
	else rmpi_partition(set.len, set.n, w->size, gpu_cost ? (int32_t)(o->algo.tau < set.max_len ? o->algo.tau - 1 : set.max_len) : 0, wt, bounds);
	int64_t lo = bounds[w->rank], hi = bounds[w->rank + 1];
	rkt_opt_t ro = o->algo;
	/* rank 0's GPU taking every read shares them with the node's cores (the others wait idle) */
	if (solo_gpu && hybrid && w->rank == 0) be.threads = rmpi_threads_alone(w, &o->c);
	ro.n_threads = be.g.n_threads = rmpi_be_threads(w, &o->c, &be);
	mine = malloc(sizeof(rkt_cand_t) * (size_t)(hi - lo + 1));
	if (w->rank == 0) all = malloc(sizeof(rkt_cand_t) * (size_t)set.n);
	if (!mine || (w->rank == 0 && !all)) { rk_err("out of memory for the candidates"); st = RK_ERES; }
	if ((st = rmpi_agree(w, st)) != RK_OK) goto done;
	int shared = 0;
#ifdef RKTLCS_HAVE_CUDA
	/* GPU ranks only: the units of the walk-once plan are dealt out and the supports summed,
	 * so that each unordered pair is walked once in the whole job, not once per rank owning
	 * one of its reads (2 ranks would each walk 3/8 of the pairs instead of 1/4) */
	if (w->size > 1 && !rmpi_any(w, !be.use_gpu)) {
		rgpu_rkt_sup_t *sup = 0;
		uint64_t *soff = malloc(sizeof(uint64_t) * ((size_t)w->size + 1));
		st = soff ? rgpu_rkt_sup_run(&ro, &set, w->rank, w->size, &be.g, &sup, &be.stats) : RK_ERES;
		if (!soff) rk_set_error("out of memory");
		if (st != RK_OK && rmpi_gpu_failed(&o->c, &be, st)) st = RK_OK;
		if ((st = rmpi_agree(w, st)) == RK_OK && !rmpi_any(w, !sup)) {
			rmpi_clock_lap(&clk, RMPI_COMPUTE);
			rgpu_rkt_support_offs(&set, ro.tau, bounds, w->size + 1, soff);
			st = rkt_sum_supports(w, sup, soff, &set, &ro, lo, hi, mine);
			rmpi_clock_lap(&clk, RMPI_GATHER);
			shared = 1;
		}
		rgpu_rkt_sup_free(sup);
		free(soff);
		if (st) goto done;
	}
#endif
	const int standin = rk_tune.rkt_hybrid == 2 && (rk_tune.standin_gpus <= 0 || w->local_rank < rk_tune.standin_gpus);
	if (!shared && hybrid && (be.use_gpu || standin) && hi > lo) {
		st = rmpi_rkt_hybrid(&ro, &set, lo, hi, &be, standin && !be.use_gpu, mine, &shared);
		if (st != RK_OK && be.use_gpu && rmpi_gpu_failed(&o->c, &be, st)) { st = RK_OK; shared = 0; }
		else if (st != RK_OK) { shared = 1; rk_err("%s", rk_error()); }
	}
#ifdef RKTLCS_HAVE_CUDA
	if (!shared && be.use_gpu && (st = rgpu_rkt_candidates(&ro, &set, lo, hi, &be.g, mine, &be.stats)) != RK_OK &&
	    rmpi_gpu_failed(&o->c, &be, st))
		st = RK_OK;
#endif
	if (!shared && !hybrid && w->size > 1 && !rmpi_any(w, be.use_gpu)) st = rkt_cpu_dealt(w, &ro, &set, bounds, mine, &clk, &shared);
	if (!shared && !be.use_gpu && hi > lo && (st = rkt_candidates(&ro, &set, lo, hi, mine)) != RK_OK) rk_err("%s", rk_error());
	rmpi_clock_lap(&clk, RMPI_COMPUTE);
	/* ranks left without reads wait sleeping: a spinning wait would take a core from the threads */
	if ((st = hybrid ? rmpi_agree_idle(w, st) : rmpi_agree(w, st)) != RK_OK) goto done;
	rkt_gather_t g = { bounds, all };
	if ((st = rmpi_gather_each(w, mine, sizeof(rkt_cand_t) * (uint64_t)(hi - lo), rkt_take, &g)) != RK_OK) goto done;
	rmpi_clock_lap(&clk, RMPI_GATHER);

	if (w->rank == 0) {
		st = rkt_write(o, &reads, &set, &ro, all);
		rmpi_clock_lap(&clk, RMPI_WRITE);
		if (!st) {
			double dt = rk_realtime() - t0, pairs = (double)set.n * (set.n - 1) / 2;
			char desc[320];
			rmpi_backend_desc(&be, rkt_simd_name(), desc, sizeof desc);
			rk_info("rkt: %lld reads, %lld bases, %d rank%s, %d thread%s/rank, backend %s, %.3f s, %.3g read pairs/s, peak RSS %.1f MB",
			        (long long)set.n, (long long)set.n_bases, w->size, w->size > 1 ? "s" : "", ro.n_threads,
			        ro.n_threads > 1 ? "s" : "", desc, dt, pairs / (dt > 0 ? dt : 1e-9), rk_peak_rss_kb() / 1024.0);
		}
	}
	if ((st = rmpi_agree(w, st)) == RK_OK) st = rmpi_clock_report(w, &o->c, &clk, "rkt", 0);
done:
	free(bounds); free(wt); free(mine); free(all);
	rkt_set_free(&set);
	rio_reads_free(&reads);
	return st;
}
