/* Inside the pairwise driver only (pair_run.c, pair_block.c): its sizes, the job and a block
 * of pairs. pair_run.c reads, distributes, plans and writes; pair_block.c computes a block of
 * pairs (on the CPU, or the device on a helper thread) and formats its rows. */
#ifndef PAIR_INT_H
#define PAIR_INT_H

#include <pthread.h>
#include "mpi/run/pair_run.h"
#include "mpi/split/split.h"
#include "algo/near.h"
#include "algo/aln.h"
#include "algo/aln_dp.h"
#ifdef RKTLCS_HAVE_CUDA
#include "gpu/dpg_gpu.h"
#endif

#define PAIR_BLOCK_PAIRS 65536          /* pairs computed (and their paths kept) at once */
#define PAIR_BLOCK_PAIRS_GPU (1 << 17)  /* ... on the GPU, where a block's values are computed by a helper
                                         * thread while the blocks before are formatted (pair_submit) */
#define PAIR_NBLK 3                     /* blocks at once: one filled, up to two on the GPU (their host
                                         * work, packing and sorting, is most of a block's time) */
#define PAIR_FMT_ROWS 2048              /* rows of a block formatted by one thread */
#define PAIR_FMT_KEEP (256 << 10)       /* bytes of a part kept for the next block (pair_blk_format) */
#define PAIR_BLOCK_CELLS (1ll << 31)    /* ... or this many cells (CPU) */
#define PAIR_BLOCK_CELLS_LONG (1ll << 40) /* ... or, holding long pairs, this many (pair_compute) */
#define PAIR_BLOCK_CELLS_GPU (1ll << 38) /* ... (GPU: long pairs are valued many a launch, up to as many as
                                         * its resident warps hold: 26 of 30 kb on an H100) */
#define PAIR_LONG_CELLS (1ll << 26)     /* a pair this large runs alone, with every thread, */
#define PAIR_SOLO_CELLS (1ll << 36)     /* ... unless a block has 2 a thread and none this large */
#define PAIR_OVERHEAD 256.0             /* cells' worth of fixed cost per pair, for the split */
#define PAIR_NS_CPU 2.0                 /* ns a base of a read a pair costs with --max-dist on one CPU thread, */
#define PAIR_NS_GPU 0.02                /* ... on the GPU (its batch rate: 1e6 pairs of 150 bp in 2.5 ms) */
#define PAIR_NEAR_ROWS 65536            /* --all --max-dist: rows whose candidates are found at once, */
#define PAIR_NEAR_SLOTS (1ll << 24)     /* ... fewer when rows x reads (the most candidates) exceeds this */
#define PAIR_CHUNK (4 << 20)            /* bytes of rows a rank holds before they go to rank 0 */
#define PAIR_ROUND (PAIR_CHUNK / 2)     /* bytes of rows a rank makes in a round, as far as foreseen */
#define PAIR_ALL_PAIRS (1ll << 22)     /* --all on the device: pairs of the rows valued at once (one tile) */
#define PAIR_RTAB_BYTES (1ull << 28)  /* --all on the CPU: the reads' code planes, if they fit this */
#define PAIR_FIRST 4096.0               /* pairs a rank in the first round, before the size of a row is known */
#define PAIR_PROGRESS_CELLS 1e6         /* progress after every pair this large, else every 256th */

static inline const char *pair_mode(const rmpi_pairs_t *s) { return s->meta.mode == RIO_LEV ? "lev" : "lcs"; }

/* The i-th pair of an explicit pairing (one against many, or record by record). */
static inline void pair_ix(int64_t na, int64_t nb, int64_t q, int64_t *a, int64_t *b)
{
	*a = na == 1 ? 0 : q;
	*b = nb == 1 ? 0 : q;
}

typedef struct {
	rio_out_t *out;
	int first;                /* no row written yet: drop the leading comma of a JSON row */
	int json;                 /* only JSON rows start with a comma (a TSV or PAF name may too) */
} pair_gather_t;


/* A block of pairs (ai[q], bi[q]), q < n: the pairs, their values and paths; on the GPU
 * computed by a helper thread (thr, live) into st. */
typedef struct {
	int64_t n, *ai, *bi;
	aln_pair_t *p;
	int64_t *val;
	aln_path_t *paths;
	aln_ends_t *ends;         /* lev --mode prefix|infix: the ends and the start */
	pthread_t thr;
	int live;
	rk_status_t st;
	rgpu_stats_t gs;          /* the GPU call's, added to the job's once done */
	struct pair_job_s *j;
} pair_blk_t;

/* One run of the driver: its inputs, the split, the output and the tallies. */
typedef struct pair_job_s {
	const rmpi_t *w;
	const rmpi_pairs_t *s;
	double t0, cells, n_cand, done_cost;
	rio_reads_t A, B;
	const rio_reads_t *Bp;    /* the second sequence of a pair: B, or A with --all */
	rmpi_be_t be;
	rmpi_cost_t cj;           /* this rank's share of the job, as auto weighs it (pair_backend_cost) */
	int nth;
	int64_t n_items, n_rows, n_split;
	double *cost;             /* the split's cost of each item */
	int64_t *bounds;
	rmpi_pace_t pace;         /* the rounds' split by the ranks' measured paces */
	pair_blk_t blk[PAIR_NBLK]; /* the block being filled (cur), then the ones computing or done, oldest first */
	int cur;
	aln_near_t *near;         /* --all --max-dist: candidates of rows [nq0, nq1): js[noff[q - nq0] ..] */
	int64_t *js, *noff, nq0, nq1;
	const char **seqs;
	int64_t *lens;
	rmpi_split_prof_t sprof;
	rmpi_clock_t clk;
	rk_progress_t prog;
	rio_out_t out;
	int out_open;
	pair_gather_t g;
	rio_buf_t rows;
	rio_buf_t *fmt;           /* a block's rows, PAIR_FMT_ROWS a part: kept from block to block, so */
	int64_t n_fmt;            /* ... each part is written into memory already faulted in; n_fmt parts */
	rmpi_pieces_t *pieces;    /* this round's gather */
	uint64_t flushed;         /* bytes of this round's rows that went to rank 0 before its end */
	double waited;            /* ... seconds this rank waited for rank 0 to take them */
	double per_pair, last;    /* bytes of output a pair and pairs in the last round (0: none yet) */
#ifdef RKTLCS_HAVE_CUDA
	rgpu_dp_all_t *allg;      /* --all on the device: the reads there (pair_all_gpu) */
#endif
	int all_off;              /* ... not used: the reads do not suit it, or it failed under auto */
#ifdef RKTLCS_HAVE_CUDA
	rgpu_dp_two_t *twog;      /* the blocks' values on the device from the reads there (pair_two_open) */
#endif
	int two_off;              /* ... not used: tried and declined, or a path or ends wanted */
	aln_rplanes_t rtab;       /* --all on the CPU: the reads' code planes (pair_rtab; empty: none) */
	double tb[4];             /* -v, GPU blocks: seconds waiting for values, preparing, formatting, sending rows */
	double *suf;              /* ... bases of the reads after i */
} pair_job_t;

/* pair_run.c */
rk_status_t pair_flush(pair_job_t *j);
rk_status_t pair_seqs(pair_job_t *j);
rk_status_t pair_table(const rio_reads_t *R, const char ***seqs, int64_t **lens);   /* caller frees both */
/* pair_block.c: the full block submitted (computed, the oldest done one formatted); the blocks
 * in flight finished (fmt 0 after an error); a block's memory freed */
rk_status_t pair_submit(pair_job_t *j);
rk_status_t pair_drain(pair_job_t *j, int fmt);
void pair_blk_free(pair_blk_t *k);

#endif
