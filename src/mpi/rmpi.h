/* mpi layer: the transport (start, agree on a status, broadcast, rank-ordered gather,
 * partitions) and what every mode's distributed driver shares (reading the input once,
 * the backend policy). One driver per mode: rkt_run.h, ham_run.h. Also runs as a single
 * plain process when not started by mpirun/srun. */
#ifndef RMPI_H
#define RMPI_H

#include <stdint.h>
#include <mpi.h>
#include "rktlcs.h"
#include "io/rio.h"
#include "gpu/rgpu.h"
#include "mpi/cost.h"

typedef struct {
	MPI_Comm comm;
	int rank, size, local_rank, local_size;
	int nodes;  /* how many shared-memory nodes (MPI_COMM_TYPE_SHARED sets) the ranks are on */
	int mpi;  /* 0: plain process, MPI not initialised */
} rmpi_t;

/* This process's rank on its node as the launcher's environment gives it before MPI_Init
 * (Open MPI, MPICH, srun), 0 for a plain process, -1 if unknown: lets the GPU context start
 * while MPI_Init runs. rmpi_init's local_rank is the authority. */
int rmpi_local_rank_hint(void);
/* hwloc's GPU plugins, off in MPI_Init unless HWLOC_COMPONENTS is set (rmpi_init) */
#define RMPI_HWLOC_OFF "-opencl,-cuda,-nvml,-rsmi,-levelzero,-gl"
/* This process's rank in the job, the same way (0 for a plain process, -1 if unknown). */
int rmpi_rank_hint(void);
/* The node's ranks as the launcher gives them before MPI_Init: 1 for a plain process, -1 if
 * unknown (srun gives no count of the node's tasks that is certain). */
int rmpi_local_size_hint(void);
/* The job's ranks, the same way (1 for a plain process, -1 if unknown). */
int rmpi_size_hint(void);
rk_status_t rmpi_init(rmpi_t *w, int *argc, char ***argv);
void rmpi_finalize(rmpi_t *w);

/* The start-up watchdog (watchdog.c), run by rmpi_init: past `seconds` (rk_tune.start_timeout,
 * RKTLCS_START_TIMEOUT; <= 0: none) before rmpi_watch_stop, the process names the stage it was
 * stuck in (rmpi_watch_stage) on stderr and ends with status 2. */
void rmpi_watch_start(double seconds);
void rmpi_watch_stage(const char *stage);
void rmpi_watch_stop(void);

/* Collective: the worst status over all ranks. A rank that failed has logged its own
 * message; the others learn of the failure here and stop instead of hanging. */
rk_status_t rmpi_agree(const rmpi_t *w, rk_status_t local);

/* Collective: the error lines every rank holds (rk_log_hold, on in a job of several ranks),
 * each different line printed once by rank 0, in rank order; rmpi_agree calls it on a
 * failure, rcli_mode after the run. */
void rmpi_say_errors(const rmpi_t *w);
/* Started by mpirun or srun (rmpi_init will call MPI_Init). */
int rmpi_is_launched(void);

/* Collective: 1 if flag is set on any rank. Every rank must take the same decisions that
 * shape shared data (the partition, the gather), even where their backends differ. */
int rmpi_any(const rmpi_t *w, int flag);
/* Collective on w: ranks 0 .. n-1 of w as a world of their own (their ranks unchanged), for
 * work that only they do while the others wait; the others get comm MPI_COMM_NULL and size 0.
 * The caller frees it with rmpi_sub_free on every rank. */
rk_status_t rmpi_sub(const rmpi_t *w, int n, rmpi_t *sub);
/* Collective on w: the ranks of one color (>= 0) as a world of their own, ranked as in w;
 * ranks of color < 0 get comm MPI_COMM_NULL and size 0. Freed with rmpi_sub_free. */
rk_status_t rmpi_sub_color(const rmpi_t *w, int color, rmpi_t *sub);
void rmpi_sub_free(rmpi_t *sub);

/* Collective: element-wise sum over the ranks, in place (uint32: wraps): rank r gets the
 * sums of x[off[r] .. off[r + 1]); the rest of its x is left undefined. */
void rmpi_sum_u32_to(const rmpi_t *w, uint32_t *x, const uint64_t *off);
/* Collective: every rank's n bytes into all (size x n bytes, rank order), on every rank. */
void rmpi_allgather(const rmpi_t *w, const void *mine, size_t n, void *all);
/* Collective: root's *x to every rank. */
void rmpi_bcast_i64(const rmpi_t *w, int root, int64_t *x);
/* Collective: root's n bytes of buf to every rank's buf (any size). */
void rmpi_bcast(const rmpi_t *w, int root, void *buf, size_t n);
/* Point to point, for pipelines between neighbours (tags keep streams apart). */
void rmpi_send(const rmpi_t *w, const void *buf, size_t n, int to, int tag);
void rmpi_recv(const rmpi_t *w, void *buf, size_t n, int from, int tag);

/* As rmpi_agree, rmpi_sum, a broadcast of n (< 2^31) bytes and rmpi_recv, but a rank that
 * waits sleeps between polls (up to 1 ms) instead of spinning: ranks left out of a pair that
 * fewer of them compute leave their cores to those that do. */
rk_status_t rmpi_agree_idle(const rmpi_t *w, rk_status_t local);
double rmpi_sum_idle(const rmpi_t *w, double x);
void rmpi_bcast_idle(const rmpi_t *w, int root, void *buf, size_t n);
void rmpi_recv_idle(const rmpi_t *w, void *buf, size_t n, int from, int tag);

/* Collective: the sum of x over the ranks, on every rank. */
double rmpi_sum(const rmpi_t *w, double x);
/* Collective: x[0 .. m) replaced by its sums (its largest values) over the ranks, on every
 * rank. A sum is the same on every rank only where it is exact (one rank's value and zeroes). */
void rmpi_sum_vec(const rmpi_t *w, double *x, int64_t m);
void rmpi_max_vec(const rmpi_t *w, double *x, int64_t m);

/* CPU threads per rank: --threads, else OMP_NUM_THREADS, else cores / ranks on the node. */
int rmpi_threads(const rmpi_t *w, const rk_common_t *c);
/* The threads a rank may take while the other ranks of its node sleep (one split pair on rank 0
 * alone): its node's cores when the threads were not set (--threads, OMP_NUM_THREADS), else
 * rmpi_threads's (resolved once at start, as rk_common_t's threads_alone) */
int rmpi_threads_alone(const rmpi_t *w, const rk_common_t *c);
/* The CPUs this process may run on (its affinity mask, at most the online CPUs; at least 1) */
int rmpi_cpus(void);

struct rmpi_clock_s;
/* Collective: rank 0 reads `path` (keeping the case of letters with keep_case), every
 * rank gets the reads (k: laps for the read and the distribution, or NULL). A read error is logged by rank 0 and agreed. The caller frees r
 * with rio_reads_free on every rank. */
rk_status_t rmpi_read_reads(const rmpi_t *w, const char *path, int keep_case, rio_reads_t *r, struct rmpi_clock_s *k);
/* Collective: rmpi_read_reads of pa into a, then of pb into b; when rank 1 shares rank 0's node
 * and pb is a regular file, rank 1 reads pb while rank 0 reads pa (comm.c). The caller frees a
 * and b on every rank, also after an error. */
rk_status_t rmpi_read_two(const rmpi_t *w, const char *pa, const char *pb, int keep_case, rio_reads_t *a, rio_reads_t *b,
                          struct rmpi_clock_s *k);

/* Collective: rank 0 checks, before any work, that every output can be written and none
 * is an input (rio_out_check); a problem is logged and agreed. */
rk_status_t rmpi_check_outputs(const rmpi_t *w, const char *const *outs, int n_out, const char *const *ins, int n_in);

/* Collective, in rank order: rank p offers n_p bytes; rank 0 hands each rank's bytes to
 * take(ctx, p, data, n_p), its own first. After a failed take, rank 0 still receives
 * (so no rank blocks) but takes nothing more; the status is agreed on return. */
typedef rk_status_t (*rmpi_take_f)(void *ctx, int rank, const void *data, uint64_t n);
rk_status_t rmpi_gather_each(const rmpi_t *w, const void *mine, uint64_t n, rmpi_take_f take, void *ctx);

/* Collective, in rank order as rmpi_gather_each, but in pieces: each rank puts its bytes as
 * it makes them (rmpi_pieces_put, any number of times) and ends with rmpi_pieces_end. Rank
 * 0 hands its own pieces to take at once; in rmpi_pieces_end it receives the pieces of rank
 * 1, then of rank 2, ..., each as it comes. A rank's put waits until rank 0 has come to it:
 * a rank holds no more than its piece, at the cost of that wait. After a failed take, rank 0
 * still receives everything but takes nothing more. rmpi_pieces_end agrees on the status
 * (the worst of every rank's st and of the takes); the pieces of a rank that failed are taken
 * like any others (the caller discards the output). */
typedef struct {
	rmpi_take_f take;
	void *ctx;
	rk_status_t st;           /* rank 0: the first failed take's */
} rmpi_pieces_t;
rk_status_t rmpi_pieces_put(const rmpi_t *w, rmpi_pieces_t *g, const void *data, uint64_t n);
rk_status_t rmpi_pieces_end(const rmpi_t *w, rmpi_pieces_t *g, const void *data, uint64_t n, rk_status_t st);

/* Contiguous split of n reads into parts of about equal cost, sum of max(len - sub, 0):
 * part p owns [bounds[p], bounds[p+1]). */
void rmpi_partition(const int32_t *len, int64_t n, int parts, int32_t sub, int64_t *bounds);

/* Split rows of an n x n upper triangle (row i costs n - i) into parts of equal cost. */
void rmpi_partition_tri(int64_t n, int parts, int64_t *bounds);

/* ---- paces (pace.c): rounds of work split by what each rank measured, so a slower rank
 * (a busier core, a CPU rank among GPU ranks) gets less. The split never changes a result,
 * only who computes what; every rank gets the same numbers and so the same split. ---- */
typedef struct {
	int n;                  /* ranks */
	double *cost, *sec;     /* each rank's cost done and seconds taken, all rounds so far */
	double *wt;             /* its share of the next round: cost a second (1 until measured) */
	double *all;            /* the allgather's room */
} rmpi_pace_t;
/* all 1; free with rmpi_pace_free. RK_ERES when out of memory. */
rk_status_t rmpi_pace_init(const rmpi_t *w, rmpi_pace_t *p);
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

/* ---- one copy per node (shm.c): data every rank of a node reads, held once by the node in
 * an MPI-3 shared-memory window (MPI_Win_allocate_shared on MPI_COMM_TYPE_SHARED). A rank
 * alone on its node, a plain process or RKTLCS_NO_SHARE has its own memory instead. ---- */
typedef struct {
	void *base;             /* the bytes, at one address per rank, the same memory on a node */
	uint64_t bytes;
	int shared;             /* base is a window shared by node_size ranks */
	int node_rank, node_size;
	MPI_Comm node, lead;    /* the ranks sharing base; the first rank of each node (else MPI_COMM_NULL) */
	MPI_Win win;
	int *lead_of;           /* world rank -> the rank in lead of its node's first rank */
} rmpi_shm_t;
/* Collective: bytes (+ 8) on every node; RK_ERES (logged) when a node cannot have them. */
rk_status_t rmpi_shm_alloc(const rmpi_t *w, uint64_t bytes, rmpi_shm_t *s);
/* Collective: every rank's stores into base are seen by the ranks of its node. */
void rmpi_shm_sync(const rmpi_t *w, rmpi_shm_t *s);
/* Collective: bytes [off, off + n) of base, written on the node of world rank `owner`, copied
 * to every other node (between the nodes' first ranks; nothing on one node). rmpi_shm_sync
 * afterwards shows them to the node's other ranks. */
void rmpi_shm_bcast(const rmpi_t *w, rmpi_shm_t *s, uint64_t off, uint64_t n, int owner);
void rmpi_shm_free(rmpi_shm_t *s);

/* ---- stage timers: laps add to a stage; the report is one info line on rank 0 (the stages
 * and the spread of the ranks' compute times) and, with --stats FILE, a JSON file ---- */
enum { RMPI_READ, RMPI_DIST, RMPI_COMPUTE, RMPI_GATHER, RMPI_WRITE, RMPI_STAGES };
typedef struct rmpi_clock_s {
	double t0, mark, s[RMPI_STAGES];
} rmpi_clock_t;
void rmpi_clock_start(rmpi_clock_t *k);
/* the time since the last lap (or the start) is added to stage (-1: to none) */
void rmpi_clock_lap(rmpi_clock_t *k, int stage);
/* Collective. extra: more JSON members for the file ("\"pairs\":12"), or NULL. */
rk_status_t rmpi_clock_report(const rmpi_t *w, const rk_common_t *c, const rmpi_clock_t *k, const char *mode, const char *extra);

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
} rmpi_be_t;

rk_status_t rmpi_backend(const rmpi_t *w, const rk_common_t *c, int gpu_fits, const char *why_not, rmpi_be_t *be);
/* After a GPU call returned st != RK_OK: 1 if the caller should redo the work on the CPU
 * (auto and not bad input; the warning is logged), else 0 (the error is logged). */
/* auto: the job's (this rank's share's) cost decides between the GPU and the CPU (cost.h);
 * -v gives both estimates. Call it once the work is known and before any GPU call; nothing
 * for a forced backend or where no GPU is wanted. Not collective: each rank decides alone. */
void rmpi_backend_cost(const rmpi_t *w, const rk_common_t *c, const rmpi_cost_t *job, rmpi_be_t *be);
/* A rank that named no device, as it was to wait (one long pair), names it now: the driver
 * starts if it has not. Nothing for other ranks. */
void rmpi_backend_name(rmpi_be_t *be);
/* guess.c: the seconds of a job on `threads` CPU threads (as many as the cost model's cpu_par
 * counts), guessed from its inputs' heads before they are read (-1: unknown, e.g. stdin; 0:
 * decided after the read), and in *gpu_min the least the GPU could take: a GPU context is
 * started ahead only where the first exceeds the second. */
double rmpi_guess_rkt(const char *input, double threads, double *gpu_min);
double rmpi_guess_ham(const char *input, double threads, double *gpu_min);
/* lcs: the mode (else lev); path: --path (lcs: or --seq), weighed as the cost model weighs them */
double rmpi_guess_pairs(const char *in_a, const char *in_b, int all, int64_t max_dist, int lcs, int path, double threads, double *gpu_min);
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
int rmpi_gpu_failed(const rk_common_t *c, rmpi_be_t *be, rk_status_t st);
/* "cpu (CPU)" or "gpu (NAME; kernels 0.123 s, N launches[, chunks] on rank 0)" for the
 * summary line. */
void rmpi_backend_desc(const rmpi_be_t *be, const char *cpu, char *buf, size_t size);

#endif
