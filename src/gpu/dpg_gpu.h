/* gpu layer: the lev/lcs driver both modes share (dpg_*.cu, one file per strategy, listed in
 * dpg_drv.h; the modes' entry points are in lev_gpu.h and lcs_gpu.h), and its tuning switches
 * for tests and benchmarks. Present only in builds with CUDA. */
#ifndef RGPU_DPG_GPU_H
#define RGPU_DPG_GPU_H

#ifdef __cplusplus
extern "C" {
#endif

#include "gpu/rgpu.h"
#include "algo/aln.h"

#ifdef RKTLCS_HAVE_CUDA
/* Switches that change how the work is split, never a result. 0 everywhere: the defaults
 * (in brackets). Tests set them to reach every kernel, class and wait condition on small
 * inputs; not thread-safe (set them before the calls). */
typedef struct {
	int long_rw;          /* words per lane of the long kernel, 1, 2 or 4 [by strips and resident warps] */
	int max_warps;        /* at most this many warps in the long kernel's pipeline [as many as fit] */
	int ring;             /* chunks per ring between warps, >= 2 [16, at least 128 words] */
	int chunk_words;      /* 32-column words per chunk of a ring [16] */
	int64_t batch_max_la; /* A longer than this (at most 4096) goes to the long kernel [4096] */
	int64_t long_cells;   /* ... and pairs of more cells than this [2^28] */
	int64_t path_cells;   /* paths: pairs of more cells than this by Hirschberg [2^24] */
	int64_t leaf_rows;    /* Hirschberg: sub-problems of at most this many rows [1024] ... */
	int64_t leaf_bytes;   /* ... and this many bytes of column store are traced directly [1 MB] */
	int64_t chunk_pairs;  /* at most this many pairs per batch launch [2^20] */
	int band;             /* long pairs: 1 always look for a bound and prune to its band, -1 never [0: look
	                       * for one from 2^32 cells, prune when the band holds at most 75% of the cells] */
	int64_t band_w;       /* half-width of the band about each piece's corner diagonals in the bound [256] */
	int64_t probe_rows;   /* rows of A per diagonal piece of the bound [16384] */
	int col_cut;          /* Hirschberg: 1 cut every long, unbanded sub-problem at its middle column, -1
	                       * never [0: those of 64k rows or more, when the level's passes, cut so, still
	                       * fill the resident warps once, where cutting rows leaves half of them idle] */
	int long_group;       /* long pair values: -1 one pair a launch, n > 0 at most n pairs a launch [as
	                       * many as the resident warps hold] */
	int fewer_warps;      /* -1: a warp for every strip at work in wide passes [0: fewer, at 4 words per lane,
	                       * from a million rows and a block's warps on every SM at work (dpg_long.cu)] */
	int64_t all_tile;     /* --all on the device (dpg_all.cu): pairs per tile [2^22, less when the budget is smaller] */
	int64_t reads_stage;  /* reads up (dpg_reads.cu): bytes a pinned stage, at least the longest read [8 MB] */
	int meet;             /* long pair values: 1 always by two passes meeting at the middle column, -1 never
	                       * [0: when both passes' strips at work at once fit in the resident warps] */
} rgpu_dp_tune_t;
extern rgpu_dp_tune_t rgpu_dp_tune;

enum { RGPU_DP_LEV = 0, RGPU_DP_LCS = 1 };

/* n pairs: val[i] = lev D(a, b) (-1 above k when k >= 0) or lcs L(a, b); paths[i] (NULL: none)
 * the canonical path, empty when val[i] is -1. Pairs by size: batch kernel or long kernel. */
rk_status_t rgpu_dp_batch(int mode, int64_t k, const aln_pair_t *p, int64_t n, const rgpu_opt_t *g, int64_t *val,
                          aln_path_t *paths, rgpu_stats_t *st);

/* The band for one long pair (A = a[0, la), B = b[0, lb)): band[0] <= j - i <= band[1] holds
 * every path of cost at most k (k < 0: none given) and at most an upper bound found on the
 * device (the sum of banded diagonal pieces); every cell (band = { -la, lb }) when no band pays.
 * It is the same band for A and B both reversed. */
rk_status_t rgpu_dp_band(int mode, const rgpu_opt_t *g, const char *a, int64_t la, const char *b, int64_t lb, int64_t k,
                         int64_t band[2], rgpu_stats_t *st);
/* The slab pass of lev_slab / lcs_slab (lev.h, lcs.h) over all of A = a[0, la) and B =
 * b[0, lb), or with rev of both reversed (A[i] = a[la - 1 - i], B[j] = b[lb - 1 - j]). band
 * (NULL: every cell) restricts it to the cells with band[0] <= j - i <= band[1]: the cells
 * outside take virtual values (dpg_kern.h), never below the true ones, so cells on paths inside
 * the band keep their true values; the left edge in must then be the boundary, the right edge
 * out is true or virtual row by row (+1 per column beyond a strip's band), and the bottom edge
 * out means nothing outside the last strip's columns. h0/h1 (lev hp/hm, lcs hc and NULL) in: the top edge, out: the bottom edge (bits
 * from lb on left as they were); v0/v1 (lev pv/mv, lcs v and NULL) in: the left edge, out: the
 * right edge, or NULL for the boundary left edge and no right edge. */
rk_status_t rgpu_dp_slab(int mode, const rgpu_opt_t *g, const char *a, int64_t la, const char *b, int64_t lb, int rev,
                         const int64_t *band, uint64_t *h0, uint64_t *h1, uint64_t *v0, uint64_t *v1, rgpu_stats_t *st);
/* One rank's half of a pair meeting on column c (a split on two ranks): rgpu_dp_band of the
 * whole pair (band out), then rgpu_dp_slab over A and B's columns [0, c) (rev 0) or over A and
 * B's columns [c, lb), both reversed (rev 1), in that band; one device context and one copy of
 * the texts for both (two calls paid the set-up and the copy twice: 11 ms of a 0.6 s half).
 * k: a bound on the pair's cost (lev: -k, the cost above it or not; lcs: at least its indel
 * cost, as where a piece's cost is known), -1: none; the band is the narrower of its and the
 * device's own bound's. h0/h1 hold the half's c or lb - c columns; edges as rgpu_dp_slab's,
 * owned by the caller. */
rk_status_t rgpu_dp_half(int mode, const rgpu_opt_t *g, const char *a, int64_t la, const char *b, int64_t lb, int64_t c, int rev,
                         int64_t k, int64_t band[2], uint64_t *h0, uint64_t *h1, uint64_t *v0, uint64_t *v1, rgpu_stats_t *st);

/* lev --all on the device (dpg_all.cu): the reads uploaded once, the pairs (i, j > i) of a
 * range of rows enumerated, valued and filtered there. A pair kept: its rows and value (lev
 * -1 above k). */
typedef struct {
	int64_t i, j, v;
} rgpu_dp_hit_t;
typedef struct rgpu_dp_all_s rgpu_dp_all_t;
/* The n reads on the device; *h NULL (RK_OK) when they do not suit this path (a read over
 * 4096 bases, fewer than two reads, or too little device memory): the caller then values their
 * pairs as any others (rgpu_dp_batch). */
rk_status_t rgpu_dp_all_open(int mode, const rgpu_opt_t *g, const char *const *seqs, const int64_t *lens, int64_t n,
                             rgpu_dp_all_t **h, rgpu_stats_t *st);
/* The pairs (i, j), r0 <= i < r1, i < j < n, whose value v (lev: -1 above k when k >= 0) is
 * kept: every pair when max_dist < 0, else those with 0 <= v <= max_dist; in (i, j) order, in
 * *hits (malloc'ed, the caller frees it; NULL when none). */
rk_status_t rgpu_dp_all_rows(rgpu_dp_all_t *h, int64_t k, int64_t max_dist, int64_t r0, int64_t r1, rgpu_dp_hit_t **hits,
                             int64_t *nhits);
void rgpu_dp_all_close(rgpu_dp_all_t *h);

/* Pairs by index into two read sets, valued from the reads uploaded once (dpg_two.cu): lev
 * and lcs values, no path. rgpu_dp_two_open uploads A (sa, la, na) and B (sb, lb, nb; sb NULL:
 * B is A) for launches of up to cap pairs; *h NULL (RK_OK) when they do not suit: an empty
 * read, one over 320 bases, or too little device memory; the caller then values its pairs
 * with rgpu_dp_batch. The arrays may go after the call. rgpu_dp_two_vals: val[q] of A[ai[q]]
 * against B[bi[q]] (lev: -1 above k when k >= 0); one call at a time per handle (it locks), from
 * any thread; sp gets its kernel time. rgpu_dp_two_close frees the handle. */
typedef struct rgpu_dp_two_s rgpu_dp_two_t;
rk_status_t rgpu_dp_two_open(int mode, const rgpu_opt_t *g, const char *const *sa, const int64_t *la, int64_t na,
                             const char *const *sb, const int64_t *lb, int64_t nb, int64_t cap, rgpu_dp_two_t **h, rgpu_stats_t *st);
rk_status_t rgpu_dp_two_vals(rgpu_dp_two_t *h, int64_t k, const int64_t *ai, const int64_t *bi, int64_t n, int64_t *val,
                             rgpu_stats_t *sp);
void rgpu_dp_two_close(rgpu_dp_two_t *h);
#endif

#ifdef __cplusplus
}
#endif

#endif
