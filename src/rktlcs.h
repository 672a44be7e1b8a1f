/* rktlcs: what every layer shares: status codes, the last error, leveled logging and
 * progress, timing, the options common to every mode, and the debug/tuning switches. */
#ifndef RKTLCS_H
#define RKTLCS_H

#ifdef __cplusplus
extern "C" {
#endif

#include <stddef.h>
#include <stdint.h>

#ifndef RKTLCS_VERSION
#define RKTLCS_VERSION "0.0.0"
#endif

/* Library status codes; main() maps them to exit codes (usage/input 1, resource 2). */
typedef enum {
	RK_OK = 0,
	RK_EINPUT = 1,   /* bad input or usage */
	RK_ERES = 2,     /* out of memory, device failure, disk full */
	RK_EIO = 3       /* cannot open/write a file (reported as exit 1) */
} rk_status_t;

static inline int rk_exit_code(rk_status_t st)
{
	return st == RK_OK ? 0 : st == RK_ERES ? 2 : 1;
}

/* The error message of a failed call, set by library functions that fail, on any thread:
 * one per process (util.c says which write wins). Whoever recovers from a failure and goes
 * on (a fallback, a retry) calls rk_clear_error, so that no stale message names a later
 * failure. rk_error() is "unknown error" when none is set. */
void rk_set_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void rk_clear_error(void);
const char *rk_error(void);

/* ---- leveled logging, as htslib's hts_log: one threshold, set from -q / -v ----
 * Lines go to stderr as "[rktlcs] error: ...", "[rktlcs] warning: ...", "[rktlcs] ..."
 * (info) and "[rktlcs] debug: ...". -q keeps errors only; ranks other than 0 keep errors
 * and warnings, so info and progress come from rank 0 alone. */
enum { RK_LOG_OFF = 0, RK_LOG_ERROR = 1, RK_LOG_WARNING = 3, RK_LOG_INFO = 4, RK_LOG_DEBUG = 5 };
void rk_set_log_level(int level);
int rk_get_log_level(void);
void rk_log(int level, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Error lines held instead of printed while on (a job of several ranks: mpi/transport/comm.c prints
 * each different line once, from rank 0, when the ranks agree on a failure); rk_log_hold(0)
 * prints what is still held. rk_log_held: the held lines ("" when none), valid until the next
 * error line or rk_log_held_clear. */
void rk_log_hold(int on);
const char *rk_log_held(size_t *n);
void rk_log_held_clear(void);
#define rk_err(...) rk_log(RK_LOG_ERROR, __VA_ARGS__)
#define rk_warn(...) rk_log(RK_LOG_WARNING, __VA_ARGS__)
#define rk_info(...) rk_log(RK_LOG_INFO, __VA_ARGS__)
#define rk_debug(...) rk_log(RK_LOG_DEBUG, __VA_ARGS__)

/* Progress of a long loop at level info. On a terminal: one line rewritten in place with
 * the percentage and an ETA, after 2 s, at most twice a second; elsewhere (batch logs): a
 * line with the ETA after rk_tune.progress_first seconds (5), then one every
 * rk_tune.progress_every (60). rk_progress may be called from several threads; what it shows
 * never goes back. */
typedef struct {
	const char *what;     /* e.g. "rkt: read pairs" */
	double total, t0, last;
	int tty, shown;
	double best;          /* the most done seen so far */
	double base;          /* the ticker's: done before the item now computing (ticker.c) */
} rk_progress_t;
void rk_progress_start(rk_progress_t *p, const char *what, double total);
void rk_progress(rk_progress_t *p, double done);
void rk_progress_end(rk_progress_t *p);
/* The ticker (ticker.c): one long item (a long pair) reports nothing until it ends, so a thread
 * shows p's progress four times a second as base + the work its kernels have added (rk_live_add)
 * since the base was set; in a batch log that is a line a minute with the ETA. One ticker at a
 * time; start and stop from the thread that owns p. */
void rk_live_add(double work);
double rk_live_total(void);   /* all rk_live_add of this process: a long pair's cells computed */
void rk_progress_tick_start(rk_progress_t *p);
void rk_progress_tick_base(rk_progress_t *p, double base);
void rk_progress_tick_stop(void);

double rk_realtime(void);
/* Seconds since this process started (/proc), -1 where unknown. */
double rk_process_age(void);
size_t rk_peak_rss_kb(void);
/* Buffers of RK_HUGE_MIN bytes or more that are written through once (reads, rows, a block's
 * pairs): transparent huge pages asked for (where the kernel grants them on request), so that
 * one page fault maps 2 MB instead of 4 kB; a hint only, never an error. The _huge allocators
 * are malloc and realloc with the hint; free with free(). */
#define RK_HUGE_MIN ((size_t)4 << 20)
void rk_huge(void *p, size_t n);
void *rk_malloc_huge(size_t n);
void *rk_realloc_huge(void *p, size_t n);

/* exit.c. Open files whose path starts with prefix (from /proc/self/fd; 0 where unknown). */
int rk_files_open(const char *prefix);
/* Ends the process with _exit(code), after the caller has committed its outputs and flushed
 * its streams. The files whose path starts with prefix (the GPU driver's: "/dev/nvidia") are
 * left open in a child that closes every other file at once and ends after hold_ms (0; tests
 * wait), so that their release (the driver's teardown, ~0.1 s) is not in this process's time.
 * after_parent: the child starts the release only once this process is gone (at most 0.5 s).
 * prefix 0: just _exit. */
void rk_exit_handoff(const char *prefix, int code, int hold_ms, int after_parent) __attribute__((noreturn));

/* Parse "12", "4k", "2G" (base 1024); returns 0 on error (also NaN, infinity, overflow). */
uint64_t rk_parse_size(const char *s);

/* ---- options every mode shares (docs/DEVELOPING.md: the command line) ---- */
typedef enum { RK_BACKEND_AUTO, RK_BACKEND_CPU, RK_BACKEND_GPU } rk_backend_t;
typedef enum { RK_FMT_TSV, RK_FMT_JSON, RK_FMT_PAF } rk_fmt_t;   /* PAF: lev and lcs with --path */

typedef struct {
	const char *output;     /* -o; NULL or "-": stdout */
	rk_fmt_t format;        /* --format */
	int threads;            /* --threads, per rank; 0: cores / ranks on the node */
	int threads_alone;      /* threads a rank may take while its node's other ranks sleep (set with threads at start) */
	int threads_given;      /* --threads (or hamming's -j) was on the command line */
	rk_backend_t backend;   /* --backend; auto: the GPU when usable, else (or on failure) the CPU */
	uint64_t device_memory; /* --device-memory, bytes per rank; 0: what the device has free */
	const char *stats;      /* --stats FILE: stage times as JSON (docs/DEVELOPING.md), or NULL */
	const char *rates;      /* --rates FILE: auto's calibrated rates (docs/calibrate.md), or NULL */
	int compress;           /* --compress: every output BGZF, stdout too (names ending in .gz are anyway) */
	const char *reference;  /* --reference FILE: CRAM's reference, or NULL (htslib's REF_PATH) */
	int keep_secondary;     /* --keep-secondary: SAM/BAM/CRAM secondary and supplementary records too */
	int as_stored;          /* --as-stored: SAM/BAM/CRAM SEQ as stored, reverse strand not turned back */
	int gpu_ranks;          /* not an option: the ranks from 0 that may use a GPU, as the inputs'
	                         * heads show (rcli_mode); 0: every rank */
} rk_common_t;

void rk_common_init(rk_common_t *c);

/* ---- debug and tuning switches: one place, read from the environment once by main()
 * (rk_tune_init); tests set the fields directly. None changes a result. ----
 *   RKTLCS_SIMD=0|2|3|4      CPU level at most: scalar, AVX2, AVX-512, AVX-512+VBMI2 (default: the best)
 *   RKTLCS_SIMD_NOPOPCNT=1   hamming: no AVX-512 VPOPCNTDQ
 *   RKTLCS_GPU_CARVEOUT=P    Rkt-LCS GPU kernel: percent of L1 given to shared memory
 *   RKTLCS_FORCE_MPI=1       call MPI_Init even when not started by mpirun/srun
 *   RKTLCS_SPLIT_CELLS=N     lev/lcs: split a pair of >= N cells across the ranks (default 2^32)
 *   RKTLCS_SPLIT_WORDS=a,b,.. lev/lcs split: 64-row words of each rank's slab (tests)
 *   RKTLCS_SPLIT_PLAN=one|band|tree|all|cols|spread  lev/lcs split: rank 0 alone, two banded
 *                            halves (tree: with the path on a tree of every rank), every rank over
 *                            every cell, or ranks 0 and 1 meeting on a column with the others
 *                            waiting (what GPU ranks do from three on), whatever the cost model
 *                            says; spread: several huge pairs each whole on one rank (tests)
 *   RKTLCS_HUGE=0            no transparent huge pages asked for (rk_huge; benchmarks' before)
 *   RKTLCS_READ_EACH=1       under MPI, every rank reads a regular input file itself instead of
 *                            rank 0 reading and broadcasting it (for parallel file systems)
 *   RKTLCS_RKT_GPU_TWICE=1   Rkt-LCS on the GPU walks each pair of reads from both of them, as
 *                            before walk-once (the baseline of jobs/bench-rkt-gpu.sh); -1: walks
 *                            each pair once whenever it fits, even where most starts survive
 *   RKTLCS_GPU_ONCE_MINB=2   the walk-once kernel without its 64-register cap (benchmarks)
 *   RKTLCS_GPU_LONG_RW=1|2|4 lev/lcs long kernel: words per lane, not by strips and warps (benchmarks)
 *   RKTLCS_RKT_HOST_SUM=1    Rkt-LCS on several GPU ranks of one node: sum the supports through
 *                            the host and MPI, not between the devices (CUDA IPC)
 *   RKTLCS_ALL_NOFILTER=1    lev --all --max-dist: compute every pair, without the pigeonhole
 *                            filter (the baseline of jobs/bench-dp-gpu.sh)
 *   RKTLCS_NEAR_PLAN=P       lev --all --max-dist: the filter forced, "exact" (pigeonhole) or K
 *                            approximate pieces (near_apx.h), not by the cost model (tests)
 *   RKTLCS_START_TIMEOUT=S   under MPI, a rank whose start-up (MPI_Init, the node communicator,
 *                            the first agreement) takes more than S seconds ends the job (default
 *                            120; 0: wait forever)
 *   RKTLCS_READ_THREADS=N    tests: a compressed input inflated on N threads, past the CPU count
 *   RKTLCS_READ_WINDOW=N     the parallel FASTA reader parses its slices N bytes at a time
 *                            ("4k"; default and cap 1G): tests put window ends everywhere
 *   RKTLCS_RKT_LANES32=1     Rkt-LCS on the CPU: every SIMD pair in the 32-bit-lane sweep of
 *                            reads over 65,000 bp, short ones too (tests, benchmarks)
 *   RKTLCS_NO_SHARE=1        under MPI, every rank holds its own copy of what the ranks of a node
 *                            would share (hamming's compact set, the reads): tests of the copy between nodes
 *   RKTLCS_HAM_BATCH=N       hamming under MPI from stdin, gzip or FASTQ: rank 0 hands out the
 *                            records in batches of N bases ("4k"; default 64M): tests
 *   RKTLCS_HAM_PIECE=N       hamming --max-dist under MPI: the pairs go to rank 0 in pieces of N
 *                            bytes ("1k"; default 4M): tests
 *   RKTLCS_GPU_VISIBLE=all   every GPU of the node visible to every rank (default: a rank that
 *                            maps no other GPU's memory sees only its own; src/gpu/visible.c)
 *   RKTLCS_EXIT_TEARDOWN=1   a process that made a CUDA context tears the runtime down at exit
 *                            (default: _exit after the outputs are committed, the driver's files
 *                            left to a child that closes them once this process has ended,
 *                            src/core/exit.c)
 *   RKTLCS_AUTO=gpu|cpu      tests: the answer of auto's cost model (src/mpi/plan/cost.c), whatever the
 *                            estimates
 *   RKTLCS_RATES=FILE        auto's calibrated rates where --rates is not given (docs/calibrate.md;
 *                            default $XDG_CACHE_HOME/rktlcs/rates-HOST.json; "builtin": the table)
 *   RKTLCS_COST_LOG=FILE     calibrate's probes: auto's view of the job (its work and both
 *                            estimates) appended to FILE as a JSON line
 *   RKTLCS_PROBE=1|0         auto's probe of the CPU threads on a busy host (src/mpi/plan/probe.c): 1
 *                            probes whatever the job (tests, benchmarks), 0 never, nor looks at
 *                            the host's runnable threads (default: a long pair whose CPU estimate
 *                            is 0.2 s or more and not far from the GPU's; shorter ones look)
 *   RKTLCS_LEV_WAVE=0|all    lev batches: no pair by wavefronts (every pair through the bit-parallel
 *                            lanes), or every pair by wavefronts whatever its distance (tests)
 *   RKTLCS_GPU_RANKS=one|all Rkt-LCS and hamming: rank 0's GPU alone, or every rank on the
 *                            node's GPUs even beyond their count, sharing them (default: by the
 *                            job's size; ranks beyond the GPU count start no context)
 *   RKTLCS_GPU_STANDIN=G[,alone]  tests: the node is taken to have G GPUs; ranks of local rank
 *                            below G are weighed as GPU ranks but compute on the CPU, the others
 *                            as ranks beyond the node's GPUs (",alone": they take nothing, as
 *                            under --backend gpu; src/mpi/plan/share.c)
 *   RKTLCS_TEST_LEAK=R       tests, sanitizer builds only: rank R loses a block before its leak
 *                            check (tests/mpi.sh wants it reported)
 *   RKTLCS_PROGRESS_FIRST=S  progress lines in batch logs (stderr not a terminal): the first, with
 *   RKTLCS_PROGRESS_EVERY=S  its ETA, after S seconds (default 5), then one every S (default 60) */
typedef struct {
	int simd;                 /* -1: auto */
	int no_vpopcnt;
	int gpu_carveout;         /* -1: the default */
	int force_mpi;
	int rkt_shared_counters;  /* tests: count through atomics, no per-thread copies */
	int64_t gpu_chunk_reads;  /* tests: at most this many owned reads per GPU i-chunk (0: no cap) */
	int64_t gpu_chunk_sets;   /* tests: at most this many j-sets per GPU j-chunk (0: no cap) */
	double split_cells;       /* lev/lcs under MPI: a pair of at least this many cells is split across the ranks */
	const char *split_words;  /* tests: word rows of each rank's slab, "1,5,2" (default: by measured speed) */
	int64_t split_chunk;      /* tests: this rank's preferred columns per transfer of a split pair (0: by backend) */
	int split_plan;           /* tests: how a split pair is computed, 0 by the cost model, 1 one rank, 2 two banded halves, 3 all ranks, 6 ranks 0 and 1 on columns (as GPU ranks), 7 banded tree, 8 huge pairs each on one rank */
	int no_huge;              /* benchmarks: rk_huge asks for nothing */
	int read_each;            /* every rank reads a regular input file (default: rank 0 reads and broadcasts) */
	int rkt_gpu_twice;        /* Rkt-LCS on the GPU: 1 walk each pair from both reads, -1 once where it fits, 0 by the rule */
	int gpu_once_minb;        /* Rkt-LCS walk-once kernel variant: 2 (no register cap) or 4 (default) */
	int gpu_long_rw;          /* benchmarks: the long kernel's words per lane (0: its own choice) */
	int rkt_hybrid;           /* Rkt-LCS walked twice on a GPU under auto: -1 the GPU alone, 1 its threads share the reads by claims
	                           * (rkt_hybrid.c), 2 the same with the CPU standing in for the GPU (tests), 0 by the rule */
	int rkt_host_sum;         /* Rkt-LCS GPU ranks: supports summed through the host even on one node */
	int gpu_ranks;            /* Rkt-LCS and hamming under mpirun with GPUs: 0 by the job's size, 1 rank 0's GPU alone, -1 every rank */
	int all_nofilter;         /* lev --all --max-dist: every pair computed (no pigeonhole filter) */
	int near_plan;            /* lev --all --max-dist: 0 by the cost model, -1 exact segments, k approximate pieces */
	double start_timeout;     /* seconds an MPI start-up may take before the rank ends the job */
	int64_t read_window;      /* tests: bytes of a slice the parallel reader parses at a time (0: 1 GiB) */
	int read_threads;         /* tests: threads of a compressed stream's reader, whatever the CPUs (0: --threads) */
	int rkt_lanes32;          /* Rkt-LCS CPU: every SIMD pair in 32-bit lanes, whatever the read lengths */
	int no_share;             /* tests: no node-shared memory, every rank its own copy */
	int64_t ham_batch;        /* tests: bases per batch rank 0 hands out in hamming's streamed read (0: 64M) */
	int64_t ham_piece;        /* tests: bytes per piece of hamming's pairs sent to rank 0 (0: 4M) */
	double progress_first;    /* batch logs: seconds before the first progress line (with its ETA) */
	double progress_every;    /* batch logs: seconds between progress lines after it */
	int lev_wave;             /* lev batches: 0 wavefronts where they pay, -1 never, 1 every pair (tests) */
	int standin_gpus;         /* tests: the node is taken to have this many GPUs, which the CPU stands in for (0: none) */
	int standin_alone;        /* tests: ... and those ranks compute alone, as under --backend gpu */
	int no_solo;              /* tests: lev/lcs jobs keep every rank on a node of one GPU (RKTLCS_SOLO=0) */
} rk_tune_t;
extern rk_tune_t rk_tune;
rk_status_t rk_tune_init(void);   /* RK_EINPUT: a variable that must be a number is not */

#ifdef __cplusplus
}
#endif

#endif
