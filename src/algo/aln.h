/* algo layer: what the lev and lcs modes share (SPEC sections 5 and 6): alignment paths,
 * the prepared form of a pair that the bit-parallel kernels read, the SIMD level.
 *
 * Grid: rows are A (the first sequence, the query), columns are B (the second, the
 * reference); cell (i, j) is the problem on A[0, i) and B[0, j) ("DP coordinates", row 0 and
 * column 0 are the empty prefixes). Path ops: ALN_EQ / ALN_X (lev) and ALN_M (lcs, equal
 * symbols only) consume one symbol of each; ALN_I a symbol only of A (one row down); ALN_D a
 * symbol only of B (one column right). The CIGAR is the SAM one with A as the query.
 *
 * Canonical path. Among all optimal paths the modes report the leftmost one: reading it from
 * its start, every step is the first of I, then the diagonal (=/X, or M), then D, that still
 * lies on an optimal path. Equivalently, tracing back from the end over the full matrix, take
 * the first of D (from the left), then the diagonal, then I (from above) whose predecessor
 * value is consistent; equivalently, on any row boundary i* (between rows i* and i* + 1) the
 * path crosses by the optimal crossing edge - vertical (i*, j) -> (i* + 1, j) or diagonal
 * (i*, j) -> (i* + 1, j + 1) - of the smallest j, the vertical one first at equal j. The
 * leftmost paths of the two sub-grids on either side of that edge are the pieces of the
 * global one (a leftmost path cut at one of its own cells is leftmost on both sides), so a
 * divide and conquer that splits anywhere, in any order, on any number of threads or ranks,
 * reproduces it exactly: the path never depends on the split, the band, the thread count or
 * the SIMD level. Examples: lev A = "A", B = "AA" gives 1=1D; A = "AA", B = "A" gives 1I1=. */
#ifndef ALN_H
#define ALN_H

#include <stdint.h>
#include "rktlcs.h"

enum { ALN_EQ = 0, ALN_X = 1, ALN_I = 2, ALN_D = 3, ALN_M = 4 };   /* CIGAR letters "=XIDM" */
#define ALN_OPS "=XIDM"

/* run[q] = len << 3 | op, consecutive runs have different ops; m = capacity.
 * Zero-initialize before first use; the caller frees with aln_path_free. */
typedef struct {
	uint64_t *run;
	int64_t n, m;
} aln_path_t;

typedef struct {
	const char *a, *b;
	int64_t la, lb;
} aln_pair_t;

/* lev --mode prefix|infix: the ends in B (DP columns) with the best distance, and the start
 * of the first one (filled with the path). Zero-initialize; free with aln_ends_free. */
typedef struct {
	int64_t *end;
	int64_t n, m, start;
} aln_ends_t;
void aln_ends_free(aln_ends_t *e);
rk_status_t aln_ends_push(aln_ends_t *e, int64_t j);

void aln_path_free(aln_path_t *p);
/* Append len (>= 0) ops, merged with the last run when it has the same op. RK_ERES: no memory. */
rk_status_t aln_path_push(aln_path_t *p, int op, int64_t len);
/* Append all of q to p (merging at the seam). */
rk_status_t aln_path_cat(aln_path_t *p, const aln_path_t *q);
/* CIGAR text into buf (always NUL-terminated when size > 0); returns the length it needs
 * without the NUL, as snprintf. */
int64_t aln_path_cigar(const aln_path_t *p, char *buf, int64_t size);
/* Symbols of A and of B the path consumes (0 and 0 for an empty path). */
void aln_path_span(const aln_path_t *p, int64_t *la, int64_t *lb);

/* SIMD level of the kernels: 0 scalar, 2 AVX2, 3 AVX-512 (F, BW, DQ), 4 the same with VBMI2
 * (funnel shifts). RKTLCS_SIMD=N in the environment forces a lower level (tests), as for the
 * other modes. want < 0: the best; else min(want, the best). */
int aln_simd_level(int want);
/* A guess of the divergence of A and B (0: equal, 1: unrelated) from probes of 16 bases looked
 * for near their diagonal (sim.c: 64, and 960 more for a related pair of 30 kb or more; +-0.13%
 * at 2%): for cost estimates only, never for results. */
double aln_sim_divergence(const char *a, int64_t la, const char *b, int64_t lb);
const char *aln_simd_name(int level);

/* A pair prepared for the bit-parallel kernels (A as the pattern, 64 rows per word).
 * Symbols of A get codes 0 .. nsym-1 (by byte value), every other byte code nsym.
 * Built by aln_prep_init, freed by aln_prep_free (the prep owns all its arrays). */
#define ALN_PAD 64   /* bytes of padding on both sides of bmask: SIMD lanes read past the ends */
typedef struct {
	int64_t la, lb, nw;   /* rows, columns, words of 64 rows */
	int nsym, nb;         /* symbols of A; bits per code in the planes (1..8) */
	int simd;             /* level the planes/masks were built for (0: none) */
	uint8_t code[256];
	uint64_t *peq;        /* (nsym + 1) x nw: bit r of peq[c * nw + w] = (A[64 w + r] has code c) */
	uint8_t *bc;          /* lb codes of B */
	/* SIMD kernels only: code bit planes of A and per-plane byte masks of B read backwards */
	int64_t nwp;          /* words per plane (nw rounded up, padded) */
	uint64_t *plane;      /* plane[k * nwp + w]: bit r = bit k of the code of A[64 w + r] */
	int64_t bms;          /* bytes per mask plane (lb + 2 ALN_PAD, or the viewed prep's) */
	uint8_t *bmask;       /* bmask[k * bms + ALN_PAD + (lb - 1 - j)] = 0xff iff bit k of code(B[j]) */
	int view;             /* bc and bmask belong to another prep (aln_prep_view) */
} aln_prep_t;

/* Prepare A = a[0, la) and B = b[0, lb); rev_a / rev_b read them backwards (the reverse
 * passes of Hirschberg). simd: the level the kernels will run at (planes only when > 0).
 * RK_ERES when out of memory (nothing to free then). */
rk_status_t aln_prep_init(aln_prep_t *p, const char *a, int64_t la, int rev_a, const char *b, int64_t lb,
                          int rev_b, int simd);
void aln_prep_free(aln_prep_t *p);

/* A prep of a[0, la) (backwards with rev_a) against columns [b0, b0 + lb) of g's B, sharing
 * g's B arrays and code map (A must only hold symbols of g's A): sub-problems of one pair
 * (Hirschberg, a split across ranks) then prepare only their rows. g must outlive p; p is
 * freed with aln_prep_free as usual. RK_ERES when out of memory. */
rk_status_t aln_prep_view(aln_prep_t *p, const aln_prep_t *g, int64_t b0, int64_t lb, const char *a, int64_t la,
                          int rev_a);


#endif
