/* The cost model behind `--backend auto` (cost.c): what one rank's share of a job would take
 * on its GPU and on its CPU threads, from the job's size and each backend's rates. Pure: the
 * rates are arguments, so tests fix them (tests/test_cost.c). */
#ifndef RMPI_COST_H
#define RMPI_COST_H

typedef enum {
	RMPI_W_RKT,       /* Rkt-LCS: work = read pairs x read length (the starts a pair walks) */
	RMPI_W_HAM,       /* hamming: work = pairs x 64-column words of the informative columns */
	RMPI_W_DP_PAIRS,  /* lev/lcs, many pairs: work = cells, items = pairs */
	RMPI_W_DP_LONG,   /* lev/lcs, one long pair at a time: work = cells, span = longest a + b */
	RMPI_W_DP_ALL,    /* lev --all: work = cells, items = pairs (each read against the later ones) */
	RMPI_W_KINDS
} rmpi_work_t;

typedef struct {
	rmpi_work_t kind;
	double work;      /* in the kind's unit, this rank's share */
	double items;     /* pairs (a fixed cost each) */
	double bytes;     /* host to device */
	double span;      /* steps of the longest dependent chain (DP_LONG) */
	double threads;   /* CPU threads of the rank */
	double cpu_x, gpu_x;  /* the work's weight on each backend (rmpi_cost_weights; 0 counts as 1) */
	int chain_bound;  /* a banded pass (rmpi_cost_band): the GPU's time is the larger of the cells' and
	                   * the chain's, not their sum */
	double cpu_beside;  /* s the CPU's run loses beside a GPU context still starting (RMPI_CPU_BESIDE) */
	int path;           /* paths wanted (rmpi_cost_weights): a calibrated machine's cpu_path, gpu_path apply */
} rmpi_cost_t;

/* What a long pair's run on the CPU loses while the GPU's context starts beside it (driver and
 * context, 0.1-0.25 s on one H200): on 16 cores, auto's CPU runs of 10 Mb pairs 0.5% and 1%
 * apart took 0.107-0.135 s more than --backend cpu's (call AN, medians of 3, four rows), where
 * the 3 Mb pairs, whose contexts were not started ahead, took the same. The driver's thread at
 * nice 19 did not remove it (tried in the same call). */
#define RMPI_CPU_BESIDE 0.11

typedef struct {
	double gpu_fixed;   /* s: streams, arena, module load, the first launch */
	double gpu_rate;    /* work units per second on the device */
	double gpu_item;    /* s per item on the host side of the GPU path (packing, results) */
	double gpu_bw;      /* bytes per second host to device */
	double gpu_step;    /* s per step of a dependent chain */
	double cpu_rate;    /* work units per second per thread */
	double cpu_item;    /* s per item per thread */
	double cpu_par;     /* threads one job of the kind keeps busy at most (0: all it is given) */
	double cpu_band;    /* a long pair's band on the CPU: its speed over cpu_rate's (1 in the table;
	                     * a calibrated machine's own, since its band and dense wavefront scale apart) */
	double cpu_path, gpu_path;  /* short pairs with paths: what they cost over the table's weight of a
	                     * path (rmpi_cost_weights), on each backend; 1 in the table, a calibrated
	                     * machine's own from its --path probes (optional in a file: 1) */
	double gpu_path_fixed;  /* s: a GPU job with paths' fixed cost where it exceeds gpu_fixed (its
	                     * buffers for the paths; 0: gpu_fixed's, as in the table) */
} rmpi_rates_t;

/* The rates of a kind for a device named gpu_name (0: the reference, an H100) and the CPU
 * kernels' SIMD width in bits (512, 256, 128 or 64 for scalar). */
void rmpi_rates_for(rmpi_work_t kind, const char *gpu_name, int simd_bits, rmpi_rates_t *r);
/* The built-in table's rates of a kind, unscaled (src/mpi/plan/rates_ref.json, parsed once by
 * rates.c) */
void rmpi_rates_ref(rmpi_work_t kind, rmpi_rates_t *r);
/* The weights of lev/lcs work of j->kind (set it first) on each backend: lcs against lev, and
 * --path (on a long pair the CPU's Hirschberg recursion costs more over the value than the
 * GPU's; short pairs are traced from a column store on both). */
void rmpi_cost_weights(rmpi_cost_t *j, int lcs, int path);
/* A long pair guessed p divergent (aln_sim_divergence: 0 equal, 1 unrelated) is computed in a
 * band on either backend: scales j->gpu_x and j->cpu_x by the part of its cells each band
 * holds, from p and the pair's length (j->span / 2: set it first), and j->span to the banded
 * pass's chain (call after rmpi_cost_weights); lcs: the mode; path: --path (lev --path's
 * Hirschberg levels cost the CPU more over its value on a similar pair than on a random one). */
void rmpi_cost_band(rmpi_cost_t *j, double p, int lcs, int path);
/* The speed of one long pair's band on n CPU threads, against one thread: n^0.75 up to 16
 * threads (twice the threads, 1.63x on the 2-core CI machine), and past 16 a quarter of each
 * thread more (the 10 Mb pair 1% apart: 64 threads 0.50-0.53 s, 16 threads 0.87-0.92 s, 4 x H200
 * host). Both the split's plan (rank 0 alone on its node's threads) and rmpi_cost_band use it. */
double rmpi_cost_band_speed(double n);
/* The threads a job of r's kind keeps busy out of `threads` (at least 1, at most r->cpu_par) */
double rmpi_cost_threads(const rmpi_rates_t *r, double threads);
/* The threads of `threads` that would have a core each on a host of `cores` CPUs whose probe
 * (rmpi_cpu_share) gave each of `threads` spinning threads `share` of the wall: all of them from
 * a share of 0.9 on; below, the cores other work leaves free, from share = cores / (threads +
 * load) less the probe's excess over that fair share (0.05; Round 15's 16 threads on 16 cores
 * beside 8 busy processes got 0.60-0.78, fair 0.67, beside 16 0.50-0.60, fair 0.5). At least 1. */
int rmpi_cost_free_threads(int threads, int cores, double share);
#define RMPI_SHARE_FREE 0.9   /* a probe's share from which the host's cores count as free */
#define RMPI_PROBE_MS 10.0    /* ms a probe spins: a shorter one sees less of a busy host, new threads run first (3 ms: 0.96 for a fair 0.5) */
/* How many times longer a job of `kind` on `threads` threads takes on that host than the rates
 * say: 1 / share (less the excess) where threads take work as it comes; a long pair's wavefront,
 * whose threads hand each other columns and lose far more than their share of a shared core (16
 * threads beside 16 busy processes: 42x), is counted as if on rmpi_cost_free_threads' threads
 * (auto's estimate; a process alone then runs on the threads rmpi_cpu_free finds, plan.h). */
double rmpi_cost_slowdown(rmpi_work_t kind, int threads, int cores, double share);
/* Both estimates, in seconds; start_left is the GPU start-up still to come. Returns 1 when the
 * GPU finishes first. */
int rmpi_cost_pick(const rmpi_cost_t *j, const rmpi_rates_t *r, double start_left, double *t_gpu, double *t_cpu);

#endif
