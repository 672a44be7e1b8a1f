/* mpi/plan: the planning layer's one interface. Who computes what and on how many threads:
 * the backend policy (backend.c, with auto's cost model cost.h and its guesses before the
 * start, guess.c), the CPU threads a rank runs and what a busy host leaves of them (busy.c,
 * probe.c), and the ranks' paces (pace.c). Stands on the transport (mpi/transport/rmpi.h). */
#ifndef RMPI_PLAN_H
#define RMPI_PLAN_H

#include <string.h>
#include "mpi/transport/rmpi.h"
#include "mpi/plan/cost.h"
#include "gpu/rgpu.h"

/* ---- the CPU threads of a rank (busy.c) ---- */
/* CPU threads per rank: --threads, else OMP_NUM_THREADS, else cores / ranks on the node. */
int rmpi_threads(const rmpi_t *w, const rk_common_t *c);
/* The threads a rank may take while the other ranks of its node sleep (one split pair on rank 0
 * alone): its node's cores when the threads were not set (--threads, OMP_NUM_THREADS), else
 * rmpi_threads's (resolved once at start, as rk_common_t's threads_alone) */
int rmpi_threads_alone(const rmpi_t *w, const rk_common_t *c);
/* The CPUs this process may run on (its affinity mask, at most the online CPUs; at least 1) */
int rmpi_cpus(void);
/* Open MPI binds each rank to one core by default at np <= 2, where a rank's threads then
 * share that core: where the binding is the default (no --bind-to, --map-by or OpenMP
 * binding asked for), the mask holds fewer CPUs than `threads` and the node's ranks (the
 * launcher's local size) fit its CPUs, this process's mask is widened to every CPU it may use
 * (its cpuset). Call before any thread starts. Returns the CPUs it may now run on, or 0 where
 * it left the mask as it was. */
int rmpi_unbind_default(int threads);

/* ---- paces (pace.c): rounds of work split by what each rank measured, so a slower rank
 * (a busier core, a CPU rank among GPU ranks) gets less. The split never changes a result,
 * only who computes what; every rank gets the same numbers and so the same split. ---- */
typedef struct {
	int n;                  /* ranks */
	double *cost, *sec;     /* each rank's cost done and seconds taken, all rounds so far */
	double *wt;             /* its share of the next round: cost a second (the seed until measured) */
	double *seed;           /* the weights it started from (rmpi_pace_seed; all 1 without) */
	double *all;            /* the allgather's room */
} rmpi_pace_t;
/* all 1; free with rmpi_pace_free. RK_ERES when out of memory. */
rk_status_t rmpi_pace_init(const rmpi_t *w, rmpi_pace_t *p);
/* The first round's shares from weights (rmpi_share_weights): a rank of weight 0 takes nothing
 * in any round, and a measured pace is kept within 16x of the fastest times the rank's weight
 * against the largest. */
void rmpi_pace_seed(rmpi_pace_t *p, const double *wt);
void rmpi_pace_free(rmpi_pace_t *p);
/* items of cost c[0 .. n), contiguous, rank r's share in proportion to its pace: bounds[n_ranks + 1] */
void rmpi_pace_split(const rmpi_pace_t *p, const double *c, int64_t n, int64_t *bounds);
/* Collective, after a round: this rank's cost done, seconds and a number x to sum; returns the
 * sum of x over the ranks. */
double rmpi_pace_round(const rmpi_t *w, rmpi_pace_t *p, double cost, double sec, double x);
/* The same from the ranks' triples all[3 r .. 3 r + 2] (rmpi_pace_round's allgather): the
 * weights are each rank's cost a second over all rounds once every rank has been timed for
 * 20 ms, within 16x of the fastest. */
double rmpi_pace_add(rmpi_pace_t *p, const double *all);


/* ---- auto's rates (rates.c): the built-in table, or this machine's from `rktlcs calibrate`
 * (docs/calibrate.md), used where its machine and version are this one's ---- */
typedef struct {
	char host[128], cpu[160], gpu[160], driver[48];   /* gpu: the first one's model ("" without) */
	int cpus, simd, gpus;                             /* online CPUs, SIMD bits of the CPU kernels */
} rmpi_machine_t;
/* This machine, from /proc and the CPU's features (no CUDA call) */
void rmpi_machine_get(rmpi_machine_t *m);
/* The rates file: given (--rates), else $RKTLCS_RATES, else $XDG_CACHE_HOME (or ~/.cache)
 * /rktlcs/rates-HOST.json. RK_EINPUT where none can be named. */
rk_status_t rmpi_rates_path(const char *given, char *buf, size_t n);
/* A rates file's text: every kind's rates into r and the context's start into *start_s.
 * RK_EINPUT with the reason in rk_error() where it is not one, or (m not NULL) where it was
 * made on another machine (CPU model, CPUs, SIMD, GPU model and count) or by another version. */
rk_status_t rmpi_rates_parse(const char *text, size_t len, const rmpi_machine_t *m, rmpi_rates_t r[RMPI_W_KINDS], double *start_s);
/* Once per process: the file (rmpi_rates_path) where it matches; otherwise the built-in table,
 * with one info line (say) where a file was there but is not used. Never fails the job. */
void rmpi_rates_load(const char *given, int say);
/* The same, reading the file again (after a calibration wrote it) */
void rmpi_rates_reload(const char *given, int say);
/* A kind's rates for auto: the calibrated file's as measured, else the built-in table's scaled
 * to the CPU kernels' SIMD bits (rmpi_rates_for) */
void rmpi_rates_here(rmpi_work_t kind, rmpi_rates_t *r);
/* the SIMD width of this CPU's kernels in bits: 512, 256, or 64 (scalar) */
int rmpi_simd_bits(void);
/* seconds a GPU context takes to start: the calibrated, else nominal */
double rmpi_rates_start(double nominal);
/* "the built-in table" or "calibrated, PATH" (for -v) */
const char *rmpi_rates_from(void);
int rmpi_rates_calibrated(void);
/* the file's key of a kind: rkt, hamming, pairs, long, all */
const char *rmpi_rates_kind_key(rmpi_work_t k);

#define RMPI_START_NOMINAL 0.3   /* s a context takes to start where not calibrated (one H100/H200: 0.2-0.3 s) */

/* ---- `rktlcs calibrate` (calibrate.c) ---- */
typedef struct {
	rk_common_t c;        /* the shared options: --threads, --rates, -v */
	const char *self;     /* this program, which the probes run as children */
	const char *rates;    /* where to write (rmpi_rates_path) */
	int threads;          /* CPU threads of the probes (0: the modes' default) */
	int cpu, gpu;         /* the backends to probe */
	double budget;        /* seconds the probes may take, about */
	double start;         /* s this process's own context took to start (0: none; the probes time
	                       * it), since a probe's child finds the driver awake while this
	                       * process holds it, 0.01 s of a cold start's 0.19 */
} rmpi_calib_opt_t;
static inline void rmpi_calib_opt_init(rmpi_calib_opt_t *o)
{
	memset(o, 0, sizeof *o);
	rk_common_init(&o->c);
	o->cpu = o->gpu = 1;
	o->budget = 10;
}
/* Each kind of work on each backend probed (a child of o->self on synthetic inputs), the
 * rates file written (atomically). RK_ERES when a probe fails or the file cannot be written;
 * the probes' folder is then left, named in an info line. */
rk_status_t rmpi_calibrate(const rmpi_calib_opt_t *o);

/* ---- first-use calibration (calib_first.c, RKTLCS_CALIBRATE=auto) ---- */
#define RMPI_CALIB_FIRST_S 60.0   /* a job calibrates first only when both estimates are this long */
/* 1 when a job of these estimates (s) should calibrate first: not calibrated yet, the faster
 * estimate at least min_s, the slower within 2x of it */
int rmpi_calib_first_due(double tg, double tc, int calibrated, double min_s);
/* Under RKTLCS_CALIBRATE=auto, where rmpi_calib_first_due says so and the job is one process
 * not started by a launcher (the probes are children of this program, which a launcher's
 * environment would make ranks of its job): run the calibration into the rates file (c->rates
 * or the default place) and load it. 1 when the calibrated rates are in use now; a failed
 * calibration is a warning, and the built-in table stays. */
int rmpi_calib_first(const rmpi_t *w, const rk_common_t *c, double tg, double tc);

/* ---- the backend policy, the same for every mode (docs/DEVELOPING.md) ----
 * cpu: never a GPU. gpu: a rank without a usable device is exit 2 (agreed). auto: the GPU
 * when the rank has one and the job fits the mode's kernels (gpu_fits; else why_not is
 * logged once, by rank 0); when a GPU call then fails for any reason but bad input, one
 * warning and the CPU does the work. */
typedef struct {
	int use_gpu;
	rgpu_opt_t g;           /* device = node-local rank mod visible devices */
	rgpu_stats_t stats;
	char name[128];         /* device name, for the summary */
	int pending;            /* auto: the GPU is wanted, rmpi_backend_cost decides; --backend gpu: it names the device */
	double cpu_share;       /* what the host gives the CPU threads now (probe.c; 0: not measured) */
	int alone_free;         /* a busy host's cores free for a rank computing a split pair alone (rmpi_threads_free; 0: all) */
	int threads;            /* a GPU rank's threads where the CPU ranks beside it take nothing (rmpi_share_weights; 0: rmpi_threads's) */
} rmpi_be_t;

rk_status_t rmpi_backend(const rmpi_t *w, const rk_common_t *c, int gpu_fits, const char *why_not, rmpi_be_t *be);
/* auto: the job's (this rank's share's) cost decides between the GPU and the CPU (cost.h);
 * -v gives both estimates. Call it once the work is known and before any GPU call; nothing
 * for a forced backend or where no GPU is wanted. Not collective: each rank decides alone. */
void rmpi_backend_cost(const rmpi_t *w, const rk_common_t *c, const rmpi_cost_t *job, rmpi_be_t *be);
/* A rank that named no device, as it was to wait (one long pair), names it now: the driver
 * starts if it has not. Nothing for other ranks. */
void rmpi_backend_name(rmpi_be_t *be);
/* guess.c: the seconds of a job on `threads` CPU threads (as many as the cost model's cpu_par
 * counts), guessed from its inputs' heads before they are read (-1: unknown, e.g. stdin; 0:
 * decided after the read), and in g the least the GPU could take and the read's seconds
 * (rmpi_guess_warm decides from them whether a GPU context starts ahead). */
typedef struct {
	double gpu_min;   /* s: the GPU's least: its context's start and fixed costs */
	double read_s;    /* s: the read of the inputs, guessed from their sizes (0: unknown) */
} rmpi_guess_t;
double rmpi_guess_rkt(const char *input, double threads, rmpi_guess_t *g);
double rmpi_guess_ham(const char *input, double threads, rmpi_guess_t *g);
/* lcs: the mode (else lev); path: --path (lcs: or --seq), weighed as the cost model weighs them */
double rmpi_guess_pairs(const char *in_a, const char *in_b, int all, int64_t max_dist, int lcs, int path, double threads, rmpi_guess_t *g);
/* whether a GPU context starts ahead of the read for a job of CPU guess `guess` (< 0: unknown) */
int rmpi_guess_warm(double guess, const rmpi_guess_t *g);
/* How many ranks, from rank 0, may put a lev/lcs job on a GPU, from the inputs' heads: 1 or 2
 * for one long pair (rank 0 alone, or ranks 0 and 1 meeting), 0 for every rank (a batch, --all,
 * or inputs it cannot peek at). The others start no GPU context ahead; a wrong guess only
 * starts one late. */
int rmpi_guess_pair_ranks(const char *in_a, const char *in_b, int all);
/* 1 when a Rkt-LCS job under mpirun is done sooner by rank 0's GPU alone than by a context on
 * every rank (the node's driver makes them in turn), from the input's head and the launcher's
 * sizes; 0: every rank (one process, unknown sizes or input, or a job worth the contexts). */
int rmpi_guess_rkt_ranks(const char *input);
int rmpi_guess_ham_ranks(const char *input);
/* After rmpi_backend_cost, where the inputs gave the job to rank 0 (c->gpu_ranks == 1 from
 * rmpi_guess_rkt_ranks or rmpi_guess_ham_ranks) and there are several ranks: 1 when the model
 * gave rank 0 the GPU, which then takes all the work (the others' use_gpu cleared: they
 * compute nothing); 0 otherwise, every rank then on the CPU where the job was rank 0's.
 * Collective. */
int rmpi_backend_solo(const rmpi_t *w, const rk_common_t *c, rmpi_be_t *be);
/* probe.c: the mean share of the wall that `threads` threads spinning for `ms` are given now
 * (1: all of it; 1 if they cannot be started); *least (may be NULL) the least any thread got.
 * Takes about ms of wall. */
double rmpi_cpu_share(int threads, double ms, double *least);
/* The most threads, halving from `threads` (whose probe gave `share`), that the host gives
 * RMPI_SHARE_FREE of the wall (cost.h): a long pair's wavefront on more threads than free cores
 * takes many times longer. Takes ms for each halving. */
int rmpi_cpu_free(int threads, double ms, double share);
/* The threads of other processes the host can run now (Linux's /proc/loadavg less the runnable
 * threads of this process and of the n processes pids, this job's other ranks on the host; the
 * middle of three looks over 0.4 ms): busy processes show here at once, where a probe takes
 * 10 ms. -1 where not known. The host's, not only this process's CPUs: under a cpuset they
 * may run elsewhere. */
int rmpi_host_others(const long *pids, int n);
/* The threads a rank computes one long pair with on the CPU (job: its share, as auto weighs
 * it): `threads`, or fewer where the user set none (--threads, OMP_NUM_THREADS) and the host's
 * cores are busy. A process alone finds them by a probe (rmpi_cpu_free) where the CPU's
 * estimate pays for one, else by the host's runnable threads (rmpi_host_others); ranks by the
 * host's runnable threads besides the job's, the free cores shared among the host's ranks on
 * the CPU. Says so. Collective where there are several ranks. */
int rmpi_threads_free(const rmpi_t *w, const rk_common_t *c, const rmpi_cost_t *job, rmpi_be_t *be, int threads);
/* The share of its threads the host gives this process now, probed (once: be->cpu_share) where
 * the job's CPU estimate pays for a probe; 0 where not probed (backend.c, for busy.c) */
double rmpi_backend_share_cpu(const rmpi_t *w, const rmpi_cost_t *job, rmpi_be_t *be);
/* ---- ranks beyond the node's GPUs (share.c) ---- */
/* 1 when a rank of this node-local rank may use a GPU: below the node's GPU count (unknown or
 * none: every rank; RKTLCS_GPU_RANKS=all: every rank, the devices shared). A rank beyond it
 * starts no context: under auto it computes on the CPU, under --backend gpu it takes nothing. */
int rmpi_gpu_slot(int local_rank);
/* Each rank's weight in the division of a job (wt[w->size], the same on every rank; collective,
 * after rmpi_backend_cost): all 1 where the ranks are alike (all on GPUs or all on CPUs); else
 * a GPU rank's speed by auto's rates of job->kind, and a CPU rank's at its threads under auto
 * (taken low; 0 where all of them would add under 2%, for a long pair, which is not divided, and
 * in a job the GPUs end within a second), 0 under --backend gpu. cpu_x: what
 * a CPU rank's share costs over what the rates count (Rkt-LCS: 2, each of its reads walked
 * against all where one rank walks each pair once). -v says the split. RK_ERES when out of memory. */
rk_status_t rmpi_share_weights(const rmpi_t *w, const rk_common_t *c, const rmpi_cost_t *job, double cpu_x, rmpi_be_t *be, double *wt);
/* The whole job on the node's ngpu GPUs alone, from one of ranks ranks' equal shares (share):
 * what rmpi_share_weights weighs against SHARE_MIN_S before the CPU ranks take a share */
double rmpi_share_gpus_s(const rmpi_cost_t *share, const rmpi_rates_t *r, int ranks, int ngpu);
/* Collective, before the read of a lev/lcs job: 1 where rank 0 does it alone, as one process
 * with the node's cores, and the others wait: every rank on one node of one GPU, the threads
 * not given, no test switch. *one is then rank 0's world of itself (the others': size 0);
 * the caller frees it with rmpi_sub_free on every rank. -v says it. */
int rmpi_solo(const rmpi_t *w, const rk_common_t *c, rmpi_t *one);
/* The CPU threads of this rank once its share is known: rmpi_threads's, or where the CPU ranks
 * beside it take nothing, a GPU rank's part of the node's cores (be->threads) */
int rmpi_be_threads(const rmpi_t *w, const rk_common_t *c, const rmpi_be_t *be);
/* After a GPU call returned st != RK_OK: 1 if the caller should redo the work on the CPU
 * (auto and not bad input; the warning is logged), else 0 (the error is logged). */
int rmpi_gpu_failed(const rk_common_t *c, rmpi_be_t *be, rk_status_t st);
/* "cpu (CPU)" or "gpu (NAME; kernels 0.123 s, N launches[, chunks] on rank 0)" for the
 * summary line. */
void rmpi_backend_desc(const rmpi_be_t *be, const char *cpu, char *buf, size_t size);

#endif
