/* algo layer, inside near.c: the approximate-seed filter of lev --all --max-dist D, for reads
 * too short for exact pigeonhole seeds (docs/lev.md, "--all").
 *
 * Rule: cut read j into k disjoint pieces of q_j = min(len_j / k, APX_QMAX) symbols at offsets
 * s q_j. An alignment of j with i at distance <= D spends e_s edits on piece s with
 * sum e_s <= D (an insertion between two pieces is charged to either). If z pieces align
 * exactly and y with one edit, the others take two or more: y + 2 (k - z - y) <= D, so
 * 2 z + y >= 2 k - D. Each piece with e_s <= 1 aligns to a substring of i of q_j - 1 .. q_j + 1
 * symbols starting at p with |p - s q_j| <= D. Pieces are found with one edit through
 * deletion neighbourhoods: ed(P, S) <= 1 implies P or P less one symbol equals S or S less
 * one symbol. A pair is a candidate when its pieces found score 2 (exact) or 1 (one edit)
 * and their sum, plus 2 for each piece of j holding a symbol other than ACGT (never
 * indexed, so counted as found), reaches 2 k - D. The filter is exact; k is free in
 * [D / 2 + 1, 32] and is chosen by near.c's cost model. */
#ifndef NEAR_APX_H
#define NEAR_APX_H

#include <stdint.h>
#include "rktlcs.h"

#define APX_QMIN 4
#define APX_QMAX 16
#define APX_KMAX 32

typedef struct near_apx_s near_apx_t;

rk_status_t near_apx_build(near_apx_t **out, int64_t n, const char *const *seq, const int64_t *len, int64_t d, int k);
void near_apx_free(near_apx_t *a);

/* The index sent from the process that built it to others over the same reads, its arrays
 * copied straight into place: near_apx_head gives its sizes (APX_HEAD values), from which
 * near_apx_from_head allocates an empty one (RK_ERES when out of memory or when h is not of n
 * reads); near_apx_pieces lists the arrays to fill (at most APX_PIECES), the same on both
 * sides; near_apx_valid (1) after they are copied: the buckets in order, every entry a read. */
#define APX_HEAD (5 + 2 * (APX_QMAX + 1))
#define APX_PIECES (6 * (APX_QMAX + 1) + 2)
void near_apx_head(const near_apx_t *a, int64_t *h);
rk_status_t near_apx_from_head(near_apx_t **out, const int64_t *h, int64_t n, const char *const *seq, const int64_t *len);
int near_apx_pieces(near_apx_t *a, void **p, int64_t *bytes);
int near_apx_valid(const near_apx_t *a);

/* The candidates j > i of read i, unsorted, into js; mark (n + 1 zeroes) is left zeroed.
 * *hits gets the index entries read. */
int64_t near_apx_cands(const near_apx_t *a, int64_t i, int64_t *js, int64_t *mark, int64_t *hits);

#endif
