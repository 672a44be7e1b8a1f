/* algo layer: lev mode (SPEC section 5), unit-cost Levenshtein distance and its canonical
 * path (see aln.h for the grid, the ops and the leftmost-path rule).
 *
 * Bit-parallel throughout (Myers 1999 in Hyyrö's block form, A as the pattern, 64 rows per
 * word): a sweep advances strips of word rows over chunks of columns (slabs, below), pruned
 * to the cells that can lie on a path of cost <= k (Ukkonen's bound with the computed
 * values); several threads run strips as an anti-diagonal wavefront; paths come from a
 * Hirschberg divide and conquer on word-aligned middle rows in linear memory. Batches of
 * short pairs run one pair per SIMD lane. Results never depend on threads or SIMD level. */
#ifndef LEV_H
#define LEV_H

#include <stdint.h>
#include "rktlcs.h"
#include "algo/aln.h"

/* Where the alignment may lie in B (edlib's modes): global (NW: all of B), prefix (SHW: B's
 * end is free, the alignment covers B[0, end)), infix (HW: both ends of B free). A is
 * always aligned whole. */
typedef enum { LEV_GLOBAL = 0, LEV_PREFIX = 1, LEV_INFIX = 2 } lev_mode_t;

typedef struct {
	int64_t k;       /* -1: exact distance always; >= 0: only distances <= k are needed, larger ones are reported as -1 (fast, banded) */
	int path;        /* also compute the canonical path (linear memory) */
	int n_threads;   /* threads for one long pair (batches parallelize over pairs); <= 0: OpenMP default */
	int simd;        /* -1: best available; 0 scalar, 2 AVX2, 3 AVX-512, 4 AVX-512 + VBMI2 (testing); RKTLCS_SIMD also caps it */
	int mode;        /* lev_mode_t */
} lev_opt_t;

void lev_opt_init(lev_opt_t *o);

/* Distance of a[0, la) and b[0, lb) (lengths may be 0) into *dist, -1 when o->k >= 0 and
 * the distance exceeds it. With o->path, *path (zero-initialized or reused: it is reset) gets
 * the canonical path, empty when *dist is -1; the caller frees it with aln_path_free.
 * RK_ERES: out of memory (rk_error says so). */
rk_status_t lev_pair(const lev_opt_t *o, const char *a, int64_t la, const char *b, int64_t lb, int64_t *dist,
                     aln_path_t *path /* NULL unless o->path */);

/* n pairs: dist[i] as lev_pair, paths[i] (n entries, or NULL) as its path; OpenMP over pairs
 * (o->n_threads), short pairs several per SIMD vector. */
rk_status_t lev_batch(const lev_opt_t *o, const aln_pair_t *p, int64_t n, int64_t *dist, aln_path_t *paths);
/* lev_batch with the planes of each pair's reads from a table (aln_dp.h's aln_rsrc_t: the
 * pairs are drawn from one set of reads, as --all makes them); r NULL: lev_batch */
struct aln_rsrc_s;
rk_status_t lev_batch_reads(const lev_opt_t *o, const aln_pair_t *p, const struct aln_rsrc_s *r, int64_t n, int64_t *dist,
                            aln_path_t *paths);

/* prefix / infix (o->mode): the best distance of A against a piece of B that starts at 0
 * (prefix) or anywhere (infix), into *dist (-1 when o->k >= 0 and it exceeds k), every end
 * of B (DP column j: the piece is B[start, j)) with that distance in ascending order into
 * *ends, and with o->path the start of the first end and the canonical (leftmost) path of
 * A against B[start, end) into *path. The start is the smallest one with the best distance
 * (the longest alignment, as edlib). Global mode: lev_pair, with ends {lb} and start 0.
 * Myers' bit-vectors with Ukkonen's cut-off on the value (edlib's scheme: k doubles from 64
 * until the best distance is within it). */
rk_status_t lev_pair_mode(const lev_opt_t *o, const char *a, int64_t la, const char *b, int64_t lb, int64_t *dist,
                          aln_path_t *path, aln_ends_t *ends);
/* n pairs as lev_pair_mode, OpenMP over pairs; ends has n entries. */
rk_status_t lev_batch_mode(const lev_opt_t *o, const aln_pair_t *p, int64_t n, int64_t *dist, aln_path_t *paths,
                           aln_ends_t *ends);
/* The last row of a prefix or infix sweep (exposed for the GPU host code and the tests):
 * best value of row la within k (k < 0: exact), and its columns. rev: A and B read backwards. */
rk_status_t lev_lastrow(int infix, const char *a, int64_t la, const char *b, int64_t lb, int rev, int64_t k, int simd,
                        int64_t *best, aln_ends_t *ends);

/* The smallest value of a row and its columns (ascending) into *best and ends (reset): the
 * value is v0 at column 0, then deltas for columns 1..lb in hp / hm as lev_slab's bottom edge.
 * The GPU's prefix and infix modes read their device pass's bottom edge with it. */
rk_status_t lev_row_best(const uint64_t *hp, const uint64_t *hm, int64_t lb, int64_t v0, int64_t *best, aln_ends_t *ends);

/* ---- the slab: the unit the sweeps, wavefronts and Hirschberg passes are made of ----
 *
 * lev_slab advances word rows [r0, r1) of p's A (DP rows 64 r0 + 1 .. min(64 r1, la)) over the
 * columns [c0, c1) of B (DP columns c0 + 1 .. c1), given the edges of that block:
 *  - hp, hm: the horizontal deltas D(i, c) - D(i, c - 1) along a row, for c = c0 + 1 + q at
 *    bit q (bit q & 63 of word q >> 6): +1 where hp has the bit, -1 where hm has it, else 0.
 *    In: the top edge (row i = 64 r0). Out, in place: the bottom edge (row i = min(64 r1, la)).
 *    Bits from c1 - c0 on in the last word are left as they were.
 *  - pv[x], mv[x] for word row r = r0 + x: the vertical deltas D(64 r + b + 1, c) -
 *    D(64 r + b, c) at bit b, +1 in pv, -1 in mv, else 0. In: column c = c0 (left edge). Out,
 *    in place: column c = c1 (right edge). Bits past la in the last word are don't-care.
 * The global boundary D(i, 0) = i, D(0, j) = j is hp = ~0, hm = 0 on the top and pv = ~0,
 * mv = 0 on the left. Any block can be computed once its top and left edges are known, and
 * the result of a block depends on nothing else, so one pair may be cut into blocks held by
 * different threads, ranks or devices that pass edges (2 bits per column down, 2 words per
 * 64 rows right). Values are prefix sums of deltas from a known corner; the caller keeps them.
 * simd picks the kernel (0 scalar, 2, 3; the result is the same). */
void lev_slab(const aln_prep_t *p, int simd, int64_t r0, int64_t r1, int64_t c0, int64_t c1, uint64_t *hp,
              uint64_t *hm, uint64_t *pv, uint64_t *mv);

#endif
