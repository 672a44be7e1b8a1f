/* Internal to the lev/lcs GPU driver (dpg_gpu.h is its public side): what its files share.
 * One file per strategy, each saying in its opening comment what it decides:
 *   dpg_gpu.cu     rgpu_dp_batch: checks the pairs and routes each one to a strategy below
 *   dpg_ctx.cu     the context of a call: device, stream, memory budget and what is held of
 *                  it, device buffers, a pair's codes on the device
 *   dpg_batch.cu   short pairs, many per launch of the batch kernel: values, rows, paths
 *   dpg_long.cu    passes of the long kernel over long pairs, several per launch; bands and
 *                  the bound that prunes a pass to one
 *   dpg_value.cu   the value of long pairs: one pass, two passes meeting, groups of pairs
 *   dpg_hirsch.cu  paths of long pairs (or of large column stores) by Hirschberg
 *   dpg_slab.cu    the band, slab and half of a pair split over ranks (rgpu_dp_band / _slab / _half)
 *   dpg_all.cu     every pair of one set of reads (lev --all): reads up once, pairs enumerated,
 *                  valued and filtered on the device (rgpu_dp_all_*)
 *   dpg_two.cu     pairs by index into two sets of reads: reads up once, values (rgpu_dp_two_*)
 *   dpg_reads.cu   sets of reads up as codes for the two above: raw bytes up, mapped on the device
 * The kernels and their launches are dpg_kernel.cu (batch, traceback, encode) and
 * dpg_long_kernel.cu (long pairs), declared in dpg_kern.h, with their shared device code in
 * dpg_dev.cuh; the host-side helpers (codes, crossings, edges) are dpg_host.c. Every device
 * operation of a call goes to the stream of its context (rgpu_rt_t). */
#ifndef RGPU_DPG_DRV_H
#define RGPU_DPG_DRV_H

#include <stdlib.h>
#include <string.h>
#include "gpu/rgpu_rt.h"
#include "gpu/dpg_gpu.h"
#include "gpu/dpg_kern.h"
#include "gpu/dpg_host.h"

#define D_BATCH_MAX_LA 4096
#define D_COL_CUT_ROWS 65536   /* Hirschberg: sub-problems cut at a column have this many rows or more */
#define D_BAND_FRAC 0.75       /* a band pays when it holds at most this fraction of the matrix */
#define D_BAND_CUT_FRAC 0.5    /* ... and beats a Hirschberg column cut at most this fraction */
#define D_LONG_CELLS (1ll << 28)
#define D_PATH_CELLS (1ll << 24)
#define D_LEAF_ROWS 1024
#define D_LEAF_BYTES (1ll << 20)
#define D_RING 16
#define D_CWW 16
#define D_CHUNK_PAIRS (1ll << 20)
#define D_ALIGN 256
#define D_ARENA_MAX (1ull << 30)   /* batch arenas: chunks of at most 1 GB keep a long path's peak low */
#define D_MAX_LEN (1ll << 30)   /* lengths the kernels' int columns and counters take */

static inline int64_t tune_or(int64_t v, int64_t d) { return v > 0 ? v : d; }
static inline int64_t imin(int64_t a, int64_t b) { return a < b ? a : b; }
static inline int64_t imax(int64_t a, int64_t b) { return a > b ? a : b; }
static inline int64_t up(int64_t x, int64_t a) { return (x + a - 1) / a * a; }

typedef struct {
	rgpu_rt_t rt;
	int mode, nsm, threads, live;
	uint64_t used, peak;
	rgpu_stats_t *sp;
} dctx_t;

typedef struct {
	void *p;
	uint64_t n;
} dbuf_t;

static inline int ew_bytes(int mode) { return mode == DPG_LEV ? 8 : 4; }
static inline int planes(int mode) { return mode == DPG_LEV ? 4 : 1; }

/* dpg_ctx.cu: a call's context and its device buffers (dalloc counts them against the
 * budget: RK_ERES with a message past it) */
rk_status_t ctx_init(dctx_t *X, int mode, const rgpu_opt_t *g, rgpu_stats_t *sp);
void ctx_free(dctx_t *X);
rk_status_t dalloc(dctx_t *X, dbuf_t *b, uint64_t bytes, const char *what);
void dfree(dctx_t *X, dbuf_t *b);
enum { CODES_FWD = 1, CODES_REV = 2, CODES_BOTH = 3 };
rk_status_t codes_up(dctx_t *X, const uint8_t map[256], const char *a, int64_t la, const char *b, int64_t lb, int dir,
                     dbuf_t *dc, const char *what);

/* dpg_reads.cu: nsets sets of reads as codes at codes (tot bytes, the caller's device buffer;
 * read x of the sets in turn at hoff[x]), none longer than maxlen; *nc: the map's codes */
rk_status_t reads_up(dctx_t *X, int nsets, const char *const *const sq[], const int64_t *const ln[], const int64_t n[],
                     const int64_t *hoff, int64_t tot, int64_t maxlen, uint8_t *codes, int *nc);

/* dpg_batch.cu: jobs of the batch runner, from codes packed per chunk or on the device */
typedef struct {
	int64_t la, lb;
	int64_t a, b;        /* resident codes: offsets of A's and B's codes */
	int64_t src;         /* packed codes: index of the pair in the source array */
	int nc, cls;
	aln_path_t *dst;     /* trace and append the path here, or NULL */
	void *edge;          /* copy the bottom edge here (host), or NULL */
	int64_t *val;        /* the value (lev D, lcs L) here, or NULL */
} bjob_t;

typedef struct {
	const aln_pair_t *p;     /* pairs whose codes are packed per chunk, or NULL ... */
	const uint8_t *dcodes;   /* ... codes already on the device (offsets in the jobs) */
} bsrc_t;

uint64_t job_bytes(int mode, const bjob_t *j, int resident);
int cmp_job(const void *x, const void *y);
rk_status_t sort_jobs(bjob_t *jobs, int64_t m);   /* cmp_job's order, for jobs in increasing src */
rk_status_t run_batch(dctx_t *X, bjob_t *jobs, int64_t m, const bsrc_t *src, const char *what);

/* dpg_long.cu: passes of the long kernel (res: each pass's last strip), bands, the bound */
typedef struct {
	int64_t c0, c1, v0, total;
} pres_t;
rk_status_t long_warps(const dctx_t *X, int nc, int rw, int64_t *G);
rk_status_t long_run(dctx_t *X, const uint8_t *dcodes, dpg_pass_t *ps, int64_t np, int nc, pres_t *res);
void band_full(dpg_pass_t *p);
void pass_whole(dpg_pass_t *p, int64_t la, int64_t lb);
void band_k(dpg_pass_t *p, int64_t k, int64_t la, int64_t lb);
int band_pays(int64_t k, int64_t la, int64_t lb);
int band_beats_cut(int64_t k, int64_t la, int64_t lb);
int64_t to_cost(int mode, int64_t v, int64_t rows, int64_t cols);
rk_status_t long_bound(dctx_t *X, const uint8_t *dc, int nc, const char *a, int64_t la, const char *b, int64_t lb, int64_t *ub,
                       int *exact);

/* dpg_value.cu: the value of one long pair; of many at once (done[i]: valued here) */
rk_status_t long_value(dctx_t *X, const char *a, int64_t la, const char *b, int64_t lb, int64_t k, int64_t *val);
rk_status_t long_values(dctx_t *X, const aln_pair_t *p, const int64_t *lng, int64_t n, int64_t k, int64_t *val,
                        uint8_t *done);

/* dpg_hirsch.cu: the canonical path of one pair, appended to out */
rk_status_t hirsch(dctx_t *X, const char *a, int64_t LA, const char *b, int64_t LB, int64_t k, aln_path_t *out,
                   int64_t *cost);

#endif
