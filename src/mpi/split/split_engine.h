/* Inside mpi/split: one rank's slab engine (split_engine.c, moved from split_run.c), what the
 * rows runner (split_run.c), the plan (split_plan.c: a rank's speed) and the pieces on pairs
 * (split_pairs.c) compute with. It calls none of them (the arrows: split_int.h). Not for other
 * files. */
#ifndef RMPI_SPLIT_ENGINE_H
#define RMPI_SPLIT_ENGINE_H

#include "mpi/split/split.h"

#define SPLIT_CHUNK 65536         /* columns passed between CPU ranks at a time (a multiple of 64) */
#define SPLIT_CHUNK_GPU (1 << 20) /* ... between GPU ranks: a launch wants work */

/* One rank's slab engine: the CPU (a prep of its rows and of B) or its GPU (the rows and B as
 * text, reversed on the device for the reverse pass); the pass contract is split_pass's. */
typedef struct {
	int kind, simd, nth, use_gpu, rev;
	int64_t chunk;           /* columns per transfer: the same on every rank (0: this rank's own) */
	const rgpu_opt_t *g;
	rgpu_stats_t *stats;
	aln_prep_t p;            /* CPU */
	const char *a, *b;       /* GPU: the texts as given (borrowed) */
	int64_t la, lb, nw;
} split_eng_t;

/* The rows a[0, la) over the columns b[0, lb) (both reversed with rev) on be's GPU when it uses
 * one (a and b borrowed: they outlive e), else on nth CPU threads (a prep of both); kernel
 * times add to stats (may be NULL). The caller frees e with split_eng_free, also after an error. */
rk_status_t split_eng_init(split_eng_t *e, int kind, int simd, int nth, const rmpi_be_t *be, rgpu_stats_t *stats,
                           const char *a, int64_t la, const char *b, int64_t lb, int rev);
void split_eng_free(split_eng_t *e);
/* The pass over the columns [c0, c1): split_pass's contract (algo/split.h), on the engine's backend. */
rk_status_t split_eng_pass(split_eng_t *e, int64_t c0, int64_t c1, uint64_t *const *h, uint64_t *const *v);
/* A GPU rank's half of a pair met on column c (split_cols), banded by the device (k: lev -k). */
rk_status_t split_eng_half(split_eng_t *e, const char *a, int64_t la, const char *b, int64_t lb, int64_t c, int64_t k,
                           uint64_t *const *h, uint64_t *const *v);

typedef struct {
	uint64_t *F[2], *H[2];   /* the top edge kept (F), the working edge (H) */
	uint64_t *K[2];          /* the bottom half's reverse edge at my top row */
	int64_t nwb;             /* 64-bit words of one edge plane */
} split_edges_t;
/* Frees the planes of e (not e). */
void split_edges_free(split_edges_t *e);

/* The columns this rank would pass on at a time (RKTLCS_SPLIT_CHUNK, else SPLIT_CHUNK or
 * SPLIT_CHUNK_GPU). */
int64_t split_chunk_pref(int gpu);
/* Collective on the pipeline's ranks: one pipeline over my slab (split_engine.c says how); tm:
 * NULL, or { wall, busy, fill } seconds. */
rk_status_t split_pipeline(const rmpi_t *w, split_eng_t *g, int prev, int next, int tag, split_edges_t *e, int keep_top,
                           int compute, double *tm);
/* Collective: my piece of the path, rows a[0, ni) over columns b[0, nj) (have: I have one; e:
 * my engine, for its GPU), in linear memory on my threads; rank 0 concatenates the pieces in
 * rank order into *path and checks that they cost total. */
rk_status_t split_pieces(const rmpi_t *w, int kind, int have, const split_eng_t *e, int n_threads, const char *a,
                         int64_t ni, const char *b, int64_t nj, int64_t total, aln_path_t *path, rmpi_split_prof_t *prof);
/* One rank's canonical path of a whole pair, on its GPU when be uses one (the CPU's n_threads
 * otherwise): *cost (lev distance, lcs la + lb - 2 lcs) and *path. */
rk_status_t split_piece(int kind, rmpi_be_t *be, int n_threads, const char *a, int64_t la, const char *b, int64_t lb,
                        int64_t *cost, aln_path_t *path);
/* This rank's speed (cells/s) on a sample of the pair; 1 when it cannot be measured. runs:
 * timed runs, the fastest counts (0: the backend's default); each passes over the sample again
 * until it has lasted min_run seconds. */
double split_sample(int kind, int simd, int n_threads, rmpi_be_t *be, const char *a, int64_t la, const char *b,
                    int64_t lb, rmpi_split_prof_t *prof, int runs, double min_run);

#endif
