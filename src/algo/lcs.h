/* algo layer: lcs mode (SPEC section 6), longest common subsequence length, its canonical
 * path and the subsequence (see aln.h for the grid, the ops and the leftmost-path rule; a
 * kept pair is M, a dropped symbol I or D).
 *
 * Bit-parallel (Allison-Dix / Crochemore et al. / Hyyrö: V' = (V + (V & M)) | (V & ~M), the
 * carry out of a word being the horizontal delta at its bottom row), on the same machinery as
 * lev: slabs, strip sweeps pruned by the indel cost la + lb - 2 lcs (Ukkonen's bound), the
 * wavefront over strips, Hirschberg on word-aligned rows, one pair per SIMD lane in batches.
 * Results never depend on threads or SIMD level. */
#ifndef LCS_H
#define LCS_H

#include <stdint.h>
#include "rktlcs.h"
#include "algo/aln.h"

typedef struct {
	int path;        /* also compute the canonical path (linear memory) */
	int n_threads;   /* threads for one long pair (batches parallelize over pairs); <= 0: OpenMP default */
	int simd;        /* -1: best available; 0 scalar, 2 AVX2, 3 AVX-512, 4 AVX-512 + VBMI2 (testing); RKTLCS_SIMD also caps it */
} lcs_opt_t;

void lcs_opt_init(lcs_opt_t *o);

/* LCS length of a[0, la) and b[0, lb) (lengths may be 0) into *len. With o->path, *path
 * (zero-initialized or reused: it is reset) gets the canonical path (runs of M, I, D); the
 * caller frees it with aln_path_free. RK_ERES: out of memory. */
rk_status_t lcs_pair(const lcs_opt_t *o, const char *a, int64_t la, const char *b, int64_t lb, int64_t *len,
                     aln_path_t *path /* NULL unless o->path */);

/* n pairs: len[i] and paths[i] (n entries, or NULL) as lcs_pair; OpenMP over pairs. */
rk_status_t lcs_batch(const lcs_opt_t *o, const aln_pair_t *p, int64_t n, int64_t *len, aln_path_t *paths);

/* The subsequence: the symbols of a at the M positions of path, into buf (NUL-terminated when
 * size > 0); returns its length (the number of M), as snprintf. */
int64_t lcs_path_subseq(const aln_path_t *path, const char *a, char *buf, int64_t size);

/* ---- the slab (see lev_slab for the block contract; here one bit per edge cell) ----
 *
 * lcs_slab advances word rows [r0, r1) of p's A over the columns [c0, c1) of B:
 *  - hc: bit q (word q >> 6) is the horizontal delta L(i, c) - L(i, c - 1) in {0, 1} for
 *    c = c0 + 1 + q. In: the top edge (row i = 64 r0); out, in place: the bottom edge (row
 *    min(64 r1, la)). Bits from c1 - c0 on in the last word are left as they were.
 *  - v[x] for word row r = r0 + x: bit b is 1 when L(64 r + b + 1, c) = L(64 r + b, c) (the
 *    vertical delta is 0), 0 when it is 1. In: column c0; out, in place: column c1.
 * The global boundary (L = 0 on row 0 and column 0) is hc = 0, v = ~0. */
void lcs_slab(const aln_prep_t *p, int simd, int64_t r0, int64_t r1, int64_t c0, int64_t c1, uint64_t *hc,
              uint64_t *v);

#endif
