/* Internal to the gpu layer: lev and lcs on the device (dpg = "DP on the GPU"), the layout
 * shared by the host driver (dpg_*.cu, dpg_drv.h), the host helpers (dpg_host.c) and the kernels
 * (dpg_kernel.cu, dpg_long_kernel.cu; their shared device code dpg_dev.cuh). Names differ from
 * src/algo's lev_kern.h / lcs_kern.h on purpose.
 *
 * Device words are 32 bits (A as the pattern, 32 rows per word: bit b of word w is row
 * 32 w + b + 1); a uint64 edge array of the CPU slabs read as uint32 words is the same bits
 * (little endian), so slab edges cross over without reshuffling.
 *
 * Symbols: per pair (or per long pair) A's distinct bytes get codes 0 .. nsym-1 and every
 * other byte the code nsym (when nsym < 256); equal codes <=> equal bytes. A kernel builds,
 * for the rows it owns, the match words of every code in shared memory (nc codes; nc > every
 * code of A and of B).
 *
 * Edge words (horizontal deltas along a row, the unit passed between strips and out of a
 * pass): one word per 32 columns, column 32 k + u in slot u of word k.
 *   lev: uint64, bits 2u (+1) and 2u + 1 (-1) of D(i, c + 1) - D(i, c);
 *   lcs: uint32, bit u = L(i, c + 1) - L(i, c) (the carry).
 * The same 2-bit (lev) / 1-bit (lcs) value is the "packet" a lane hands to the lane below. */
#ifndef RGPU_DPG_KERN_H
#define RGPU_DPG_KERN_H

#include <stdint.h>
#if defined(__CUDACC__) || defined(DPG_EMU)
#include <cuda_runtime.h>
#endif

#ifdef __cplusplus
extern "C" {
#endif

enum { DPG_LEV = 0, DPG_LCS = 1 };

#define DPG_BATCH_MAX_WORDS 128   /* batch kernel: A of up to 4096 rows (32 lanes x 4 words) */
#define DPG_NCLASS 8              /* batch shapes: lanes x words 1x1 2x1 4x1 8x1 16x1 32x1 32x2 32x4 */
#define DPG_CNT_STRIDE 16         /* u64 per counter: one 128-byte line each (no false sharing) */
#define DPG_WARPS 4               /* warps per block when shared memory allows */

/* One pair (or one pass of a long pair) of the batch kernel. Offsets are into the launch's
 * buffers; -1: not wanted. */
typedef struct {
	int64_t a, b;        /* byte offsets of A's and B's codes in codes */
	int32_t la, lb;      /* rows, columns (la <= 32 * DPG_BATCH_MAX_WORDS, both >= 1) */
	int64_t cs;          /* uint32 offset of the column store (paths), -1: none */
	int64_t bot;         /* edge-word offset of the bottom edge, -1: none */
	int64_t ops;         /* byte offset of the traced ops (room for la + lb), -1: none */
} dpg_pair_t;

typedef struct {
	const dpg_pair_t *pairs;
	int64_t n;
	const uint8_t *codes;
	int nc;              /* codes per table: more than any code of the launch */
	int64_t *val;        /* per pair: lev D(la, lb), lcs L(la, lb); NULL: not wanted */
	uint32_t *cs;        /* column stores: column c (0-based), plane q, word w at ((c * PL + q) * nw + w);
	                      * lev PL = 4: pv, mv after the column, raw Ph, raw Mh of the column (bit b: the
	                      * horizontal delta at row 32 w + b + 1); lcs PL = 1: the raw carry */
	void *bot;           /* edge words */
	uint8_t *ops;        /* traceback: ops from the end (ALN_* codes), nops[i] of them */
	int32_t *nops;
} dpg_batch_t;

/* Lanes per pair (G) and words per lane (RW) of batch class c (0 .. DPG_NCLASS-1), and the
 * class of an A of la rows (la <= 4096). */
static inline int dpg_class_g(int c) { return c < 5 ? 1 << c : 32; }
static inline int dpg_class_rw(int c) { return c < 6 ? 1 : c == 6 ? 2 : 4; }
static inline int dpg_class_of(int64_t la)
{
	int64_t nw = (la + 31) / 32;
	int c = 0;
	while (c < DPG_NCLASS - 1 && (int64_t)dpg_class_g(c) * dpg_class_rw(c) < nw) c++;
	return c;
}

/* One pass of the long kernel: rows A[a, a + la) over columns B[b, b + lb) of the codes,
 * from the top edge (NULL: the boundary) to the bottom edge; optional left edge in / right
 * edge out (32-bit words of the pass's rows; lev: pv words, then mv words at + ceil(la/32)).
 * A left edge in only with the full band (each strip reads it at its first column). A right
 * edge out also with a band: a strip's state after its last column, which the virtual values
 * (+1 per column right of the band) carry on unchanged to column lb; a strip with no columns
 * gives its left edge, virtual or not.
 *
 * The band: only cells (i, j) with dlo <= j - i <= dhi are computed (dlo <= -la and dhi >= lb:
 * all of them). The strip of rows (r0, r1] covers the 0-based columns [dpg_clo(r0), dpg_chi(r1))
 * (the first rounded down to a word); outside, values are virtual: +1 per row down its left
 * edge, +1 per column along the top beyond the strip above (lcs: no LCS increment), never below
 * the true costs, so the cells of every path inside the band are exact (aln_sweep.c). The
 * band must contain the corner diagonals, dlo <= min(0, lb - la) and dhi >= max(0, lb - la),
 * for the pass's cost at (la, lb); a slab of a split pair (rgpu_dp_slab), whose corner may be
 * outside its band, uses the right edge instead. */
typedef struct {
	int64_t a, b, la, lb;
	int64_t dlo, dhi;
	const void *top;
	void *bot;           /* bottom edge words [clo / 32, ceil(chi / 32)) of the last strip, at their index */
	const uint32_t *left;
	uint32_t *right;
	int64_t first;       /* index of the pass's first strip in the launch */
} dpg_pass_t;

#if defined(__CUDACC__) || defined(DPG_EMU)
#define DPG_HD __host__ __device__
#else
#define DPG_HD
#endif

/* A launch of kfn(arg) on st, and its launch error: under DPG_EMU (the warp emulator of
 * tests/emu, which CI runs) the same kernel on the host. Every driver file launches through
 * it, so the emulated build runs their kernels too. */
#ifdef DPG_EMU
#define DPG_LAUNCH(kfn, grid, block, smem, st, arg) ((void)(st), emu_launch((grid), (block), (smem), false, [=]() { kfn(arg); }))
#elif defined(__CUDACC__)
#define DPG_LAUNCH(kfn, grid, block, smem, st, arg) (kfn<<<grid, block, smem, st>>>(arg), cudaGetLastError())
#endif
/* the value-only pair of reads i and j of a table of reads (their codes' offsets and lengths):
 * the pairs that dpg_all.cu and dpg_two.cu build on the device */
static inline DPG_HD dpg_pair_t dpg_pair_at(const int64_t *off, const int32_t *len, int64_t i, int64_t j)
{
	dpg_pair_t d;
	d.a = off[i];
	d.b = off[j];
	d.la = len[i];
	d.lb = len[j];
	d.cs = d.bot = d.ops = -1;
	return d;
}

/* the columns of the strip of rows (r0, r1]: [dpg_clo(r0), dpg_chi(r1)), both within [0, lb] */
static inline DPG_HD int64_t dpg_clo(int64_t r0, int64_t dlo, int64_t lb)
{
	int64_t c = r0 + dlo;
	c = c < 0 ? 0 : c > lb ? lb : c;
	return c & ~(int64_t)31;
}
static inline DPG_HD int64_t dpg_chi(int64_t r1, int64_t dhi, int64_t lb)
{
	const int64_t c = r1 + dhi;
	return c < 0 ? 0 : c > lb ? lb : c;
}

/* The long kernel: a persistent grid of G warps; strip s (1024 RW rows of one pass) is run
 * by warp s mod G, strips in order. Buffer k < G - 1 is the ring from warp k to warp k + 1
 * (ring chunks of cww slots); buffer G - 1 is the wrap (warp G - 1 to warp 0, one slot per 32
 * columns, as long as the longest B, indexed by the word's place in the transfer). A slot is an
 * edge word with its sequence number (dpg_long_kernel.cu), dpg_slot_bytes each; rings and wrap
 * are zero at launch (number 0: never written). Counters: chunks of buffer k consumed at
 * cnt[DPG_CNT_STRIDE * k], zero at launch. part[s]: the sum of strip s's bottom-row
 * deltas (lev +1/-1, lcs LCS increments) over its columns before the next strip's first column,
 * over all of its columns for a pass's last strip; with the corners (+1 per row down a left
 * edge for lev, nothing for lcs) they give every strip's corner values (dpg_long.cu). */
typedef struct {
	const dpg_pass_t *pass;
	const int32_t *strip_pass;   /* pass of each strip */
	int64_t ns;
	const uint8_t *codes;
	int nc, rw, G, ring, cww;
	unsigned long long *rings, *wrap;
	unsigned long long *cnt;
	long long *part;
} dpg_long_t;

/* Texts to codes on the device: out[i] = map[s[i]], or map[s[n - 1 - i]] reversed (the
 * host's dpg_map / dpg_encode; map: 256 bytes in device memory). */
typedef struct {
	const uint8_t *map, *s;
	uint8_t *out;
	int64_t n;
	int rev;
} dpg_enc_t;

/* bytes of a ring slot: lev {32 bits of the word, number} x 2, lcs {word, number} */
static inline int dpg_slot_bytes(int mode) { return mode == DPG_LEV ? 16 : 8; }

#if defined(__CUDACC__) || defined(DPG_EMU)
/* Launches on st; the shared memory per warp is nc * rw * 128 bytes. */
cudaError_t dpg_batch_launch(int mode, int cls, const dpg_batch_t *p, cudaStream_t st);
/* dpg_batch_launch as rgpu_rt_timed takes a launch: job is a dpg_batch_job_t */
typedef struct { int mode, cls; const dpg_batch_t *p; } dpg_batch_job_t;
cudaError_t dpg_batch_job_fn(const void *job, cudaStream_t st);
cudaError_t dpg_trace_launch(int mode, const dpg_batch_t *p, cudaStream_t st);
cudaError_t dpg_encode_launch(const dpg_enc_t *p, cudaStream_t st);
/* warps per block of the long kernel for nc codes and rw words per lane, and how many of its
 * blocks one SM holds at once */
int dpg_long_warps(int nc, int rw);
cudaError_t dpg_long_occupancy(int mode, int rw, int nc, int *blocks_per_sm);
/* cooperative launch: every warp of the grid is resident, so warps may wait on each other */
cudaError_t dpg_long_launch(int mode, const dpg_long_t *p, cudaStream_t st);
#endif

#ifdef __cplusplus
}
#endif

#endif
