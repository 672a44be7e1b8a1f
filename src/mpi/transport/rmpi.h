/* mpi/transport: the MPI transport every part of the mpi layer stands on (start, the start-up
 * watchdog, agree on a status, collectives, reading the input once, rank-ordered gather,
 * partitions, one copy per node, stage timers; moved from src/mpi/rmpi.h). The planning layer
 * (the backend policy, threads, paces) is mpi/plan/plan.h's. Also runs as a single plain
 * process when not started by mpirun/srun. */
#ifndef RMPI_H
#define RMPI_H

#include <stdint.h>
#include <mpi.h>
#include "rktlcs.h"
#include "io/rio.h"

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
/* ... and its I/O discovery, where every rank is on one node */
#define RMPI_HWLOC_IO_OFF ",-pci,-linuxio"
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

/* Contiguous split of n reads into parts of about equal cost, sum of max(len - sub, 0), or of
 * costs in proportion to wt[parts] (NULL: equal; a part of weight 0 gets nothing): part p owns
 * [bounds[p], bounds[p+1]). */
void rmpi_partition(const int32_t *len, int64_t n, int parts, int32_t sub, const double *wt, int64_t *bounds);

/* Split rows of an n x n upper triangle (row i costs n - i) into parts of equal cost (or in
 * proportion to wt, as above). */
void rmpi_partition_tri(int64_t n, int parts, const double *wt, int64_t *bounds);

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

#endif
